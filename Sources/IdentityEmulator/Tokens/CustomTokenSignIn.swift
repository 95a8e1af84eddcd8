import Foundation
import GRDB
import IdentityToolkit

struct CustomTokenBody: Decodable {
    var token: String?
}

extension BackendFailure {
    static let missingCustomToken = badRequest("MISSING_CUSTOM_TOKEN")
    static let invalidCustomTokenFormat = badRequest("INVALID_CUSTOM_TOKEN : Invalid assertion format")
    static let invalidCustomTokenJSON = badRequest("INVALID_CUSTOM_TOKEN : ((Auth Emulator only accepts strict JSON or JWTs as fake custom tokens.))")
    static let unsignedCustomTokenOnSharedBackend = badRequest(
        "INVALID_CUSTOM_TOKEN : This server is shared: custom tokens must be signed (RS256) with the project's service account.")
    static let invalidCustomTokenSignature = badRequest("INVALID_CUSTOM_TOKEN : The custom token is not signed by the project's service account.")
    static let expiredCustomToken = badRequest("INVALID_CUSTOM_TOKEN : The custom token has expired or is not yet valid.")
    static let credentialMismatch = badRequest("CREDENTIAL_MISMATCH")
    static func invalidCustomTokenAudience(_ audience: String) -> BackendFailure {
        badRequest("INVALID_CUSTOM_TOKEN : ((Invalid aud (audience): \(audience) "
            + "Note: Firebase ID Tokens / third-party tokens cannot be used with signInWithCustomToken.))")
    }
    static let missingIdentifier = badRequest("MISSING_IDENTIFIER")
    static let customTokenUidTooLong = badRequest("INVALID_CUSTOM_TOKEN : The uid must be at most \(StoredAccount.maximumLocalIdLength) characters.")
    static let invalidClaimsObject = badRequest("INVALID_CLAIMS")
}

extension EmbeddedBackend {
    /// The `aud` of every custom token.
    static let customTokenAudience = "https://identitytoolkit.googleapis.com/google.identity.identitytoolkit.v1.IdentityToolkit"
    /// Google refuses custom tokens that live longer than an hour.
    static let customTokenMaxLifetime: Int64 = 3600

    /// `accounts:signInWithCustomToken`. On a loopback backend nobody else can reach, the emulator's
    /// rules: plain JSON claims or any JWT, signature and expiry unchecked. On a shared backend, only
    /// a token signed by the project's service account within its hour, as production.
    func signInWithCustomToken(_ body: CustomTokenBody) async throws -> SignInWithCustomTokenResponse {
        guard let token = body.token, !token.isEmpty else { throw BackendFailure.missingCustomToken }
        let payload = configuration.isShared ? try verifiedCustomTokenPayload(token) : try emulatorCustomTokenPayload(token)
        // A signed token is for the tenant it names, or the project when it names none; the emulator's
        // plain JSON claims may leave the tenant out.
        let namedTenant = payload["tenant_id"] as? String
        guard namedTenant == tenantId || (namedTenant == nil && token.hasPrefix("{")) else { throw BackendFailure.tenantIdMismatch }
        guard let localId = Self.primitiveText(payload["uid"]) ?? Self.primitiveText(payload["user_id"]), !localId.isEmpty else {
            throw BackendFailure.missingIdentifier
        }
        guard localId.count <= StoredAccount.maximumLocalIdLength else { throw BackendFailure.customTokenUidTooLong }
        let extraClaims = try payload["claims"].map(Self.validatedDeveloperClaims) ?? nil

        let (isNewUser, tokens) = try await store.write { db -> (Bool, IssuedTokens) in
            let now = nowMilliseconds
            if var user = try StoredAccount.fetchOne(db, key: localId) {
                guard !user.disabled else { throw BackendFailure.userDisabled }
                user.customAuth = true
                user.lastLoginAt = now
                try user.update(db)
                return (false, try startSession(for: user, signInProvider: "custom", authTime: nowSeconds, extraClaims: extraClaims, in: db))
            }
            let user = StoredAccount(localId: localId, validSince: nowSeconds, createdAt: now, lastLoginAt: now, customAuth: true,
                                  sessionSeal: StoredAccount.newSessionSeal())
            try user.insert(db)
            return (true, try startSession(for: user, signInProvider: "custom", authTime: nowSeconds, extraClaims: extraClaims, in: db))
        }
        return SignInWithCustomTokenResponse(isNewUser: isNewUser, idToken: try tokens.idToken, refreshToken: try tokens.refreshToken,
                                             expiresIn: IssuedTokens.expiresIn)
    }

    /// The emulator's reading: `{…}` is taken as the claims themselves; a JWT of any algorithm is
    /// decoded without checking its signature or times, only its audience.
    private func emulatorCustomTokenPayload(_ token: String) throws -> [String: Any] {
        if token.hasPrefix("{") {
            guard let object = try? JSONSerialization.jsonObject(with: Data(token.utf8)) as? [String: Any] else {
                throw BackendFailure.invalidCustomTokenJSON
            }
            return object
        }
        guard let jwt = DecodedCustomToken(token) else { throw BackendFailure.invalidCustomTokenFormat }
        try Self.checkCustomTokenAudience(jwt.payload)
        return jwt.payload
    }

    /// Production's reading: RS256, signed by the project's service account (`kid`, issuer and
    /// subject are that account), for Identity Toolkit, issued at most an hour before it expires.
    private func verifiedCustomTokenPayload(_ token: String) throws -> [String: Any] {
        guard !token.hasPrefix("{"), let jwt = DecodedCustomToken(token) else {
            throw token.hasPrefix("{") ? BackendFailure.unsignedCustomTokenOnSharedBackend : BackendFailure.invalidCustomTokenFormat
        }
        guard jwt.algorithm == "RS256" else { throw BackendFailure.unsignedCustomTokenOnSharedBackend }
        let account = try serviceAccount.account()
        guard account.isValidSignature(jwt.signature, for: jwt.signingInput) else { throw BackendFailure.invalidCustomTokenSignature }
        try Self.checkCustomTokenAudience(jwt.payload)
        guard jwt.payload["iss"] as? String == account.clientEmail, jwt.payload["sub"] as? String == account.clientEmail else {
            throw BackendFailure.credentialMismatch
        }
        guard let issuedAt = (jwt.payload["iat"] as? NSNumber)?.int64Value, let expiry = (jwt.payload["exp"] as? NSNumber)?.int64Value,
              issuedAt <= nowSeconds + 300, expiry > nowSeconds, expiry - issuedAt <= Self.customTokenMaxLifetime else {
            throw BackendFailure.expiredCustomToken
        }
        return jwt.payload
    }

    private static func checkCustomTokenAudience(_ payload: [String: Any]) throws {
        guard let audience = payload["aud"] as? String, audience == customTokenAudience else {
            throw BackendFailure.invalidCustomTokenAudience(payload["aud"].map { "\($0)" } ?? "undefined")
        }
    }

    /// The developer claims as stored JSON: an object without reserved names (nil when empty).
    private static func validatedDeveloperClaims(_ claims: Any) throws -> String? {
        guard let object = claims as? [String: Any] else { throw BackendFailure.invalidClaimsObject }
        if let forbidden = object.keys.sorted().first(where: forbiddenCustomClaims.contains) { throw BackendFailure.forbiddenClaim(forbidden) }
        guard !object.isEmpty else { return nil }
        return String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self)
    }

    /// A string or number as text (`uid` may be any of them in the emulator's reading).
    private static func primitiveText(_ value: Any?) -> String? {
        switch value {
        case let text as String: text
        case let number as NSNumber: number.stringValue
        default: nil
        }
    }
}

/// A JWT split into its parts; nothing about it is checked.
private struct DecodedCustomToken {
    let algorithm: String?
    let payload: [String: Any]
    let signingInput: Data
    let signature: Data

    init?(_ token: String) {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3,
              let headerData = Data(base64URLEncoded: String(parts[0])),
              let header = try? JSONSerialization.jsonObject(with: headerData) as? [String: Any],
              let payloadData = Data(base64URLEncoded: String(parts[1])),
              let payload = try? JSONSerialization.jsonObject(with: payloadData) as? [String: Any],
              let signature = Data(base64URLEncoded: String(parts[2])) else { return nil }
        algorithm = header["alg"] as? String
        self.payload = payload
        signingInput = Data(token.utf8.prefix(parts[0].utf8.count + 1 + parts[1].utf8.count))
        self.signature = signature
    }
}
