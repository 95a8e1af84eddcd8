import Crypto
import Foundation
import GRDB

/// The second factor a session was started with (`firebase.sign_in_second_factor`).
struct SecondFactor: Equatable {
    var factor: MfaEnrollmentRecord.Factor
    var mfaEnrollmentId: String
}

/// ID-token claims gathered inside a transaction, signed once it has committed: RSA inside the
/// write transaction made every other writer wait for each signature.
struct UnsignedIdToken {
    fileprivate let claims: [String: Any]
    fileprivate let signer: TokenSigner

    func signed() throws -> String { try signer.sign(claims: claims) }
}

/// The tokens a successful sign-in returns.
struct IssuedTokens {
    static let lifetime: Int64 = 3600
    static let expiresIn = String(lifetime)

    let unsignedIdToken: UnsignedIdToken
    let refreshToken: String

    /// Signs: read it after the transaction that started the session.
    var idToken: String { get throws { try unsignedIdToken.signed() } }
}

extension UserRecord {
    /// Sets `lastRefreshAt` alone: rewriting the whole row touched every index of the user table.
    static func recordRefresh(localId: String, at milliseconds: Int64, in db: Database) throws {
        try db.execute(sql: "UPDATE \(databaseTableName) SET lastRefreshAt = ? WHERE localId = ?", arguments: [milliseconds, localId])
    }
}

extension EmbeddedBackend {
    /// Claims that only the backend sets; custom claims never replace them.
    static let forbiddenCustomClaims: Set<String> = [
        "iss", "aud", "sub", "iat", "exp", "nbf", "jti", "nonce", "azp", "acr", "amr", "cnf", "auth_time", "firebase", "at_hash", "c_hash",
    ]
    private static let backendClaims: Set<String> = forbiddenCustomClaims.union([
        "user_id", "email", "email_verified", "name", "picture", "phone_number", "provider_id",
    ])

    /// A new ID token and a new stored refresh token for one session of `user`.
    /// `extraClaims` (a JSON object: a custom token's developer claims) go into every ID token of the session.
    func startSession(for user: UserRecord, signInProvider: String, authTime: Int64, secondFactor: SecondFactor? = nil,
                      extraClaims: String? = nil, in db: Database) throws -> IssuedTokens {
        let idToken = idToken(for: user, providers: try user.providers(in: db), signInProvider: signInProvider, authTime: authTime,
                              secondFactor: secondFactor, extraClaims: extraClaims)
        let refreshToken = SecureRandom.bytes(48).base64URLEncodedString()
        try RefreshTokenRecord(tokenHash: Self.refreshTokenHash(refreshToken), localId: user.localId, signInProvider: signInProvider,
                               authTime: authTime, createdAt: nowSeconds, secondFactor: secondFactor?.factor.rawValue,
                               secondFactorIdentifier: secondFactor?.mfaEnrollmentId, extraClaims: extraClaims).insert(db)
        // Every sign-in counts as a token refresh (`lastRefreshAt`), as in Firebase.
        try UserRecord.recordRefresh(localId: user.localId, at: nowMilliseconds, in: db)
        return IssuedTokens(unsignedIdToken: idToken, refreshToken: refreshToken)
    }

    func idToken(for user: UserRecord, providers: [ProviderRecord], signInProvider: String, authTime: Int64,
                 secondFactor: SecondFactor? = nil, extraClaims: String? = nil) -> UnsignedIdToken {
        var claims: [String: Any] = [:]
        // The account's custom claims, then the session's developer claims over them; reserved names never.
        for source in [user.customAttributes, extraClaims] {
            guard let source, let object = try? JSONSerialization.jsonObject(with: Data(source.utf8)) as? [String: Any] else { continue }
            for (name, value) in object where !Self.backendClaims.contains(name) { claims[name] = value }
        }
        let now = nowSeconds
        claims["iss"] = "https://securetoken.google.com/\(projectId)"
        claims["aud"] = projectId
        claims["sub"] = user.localId
        claims["user_id"] = user.localId
        claims["auth_time"] = authTime
        claims["iat"] = now
        claims["exp"] = now + IssuedTokens.lifetime
        if let email = user.email {
            claims["email"] = email
            claims["email_verified"] = user.emailVerified
        }
        if let name = user.displayName { claims["name"] = name }
        if let picture = user.photoUrl { claims["picture"] = picture }
        if let phone = user.phoneNumber { claims["phone_number"] = phone }

        var identities: [String: [String]] = [:]
        if let email = user.email { identities["email"] = [email] }
        if let phone = user.phoneNumber { identities["phone"] = [phone] }
        for provider in providers where provider.providerId != "password" && provider.providerId != "phone" {
            identities[provider.providerId] = [provider.rawId]
        }
        var firebase: [String: Any] = ["identities": identities, "sign_in_provider": signInProvider]
        if let secondFactor {
            firebase["sign_in_second_factor"] = secondFactor.factor.rawValue
            firebase["second_factor_identifier"] = secondFactor.mfaEnrollmentId
        }
        claims["firebase"] = firebase
        if signInProvider == "anonymous" && user.isAnonymous(providers: providers) { claims["provider_id"] = "anonymous" }
        return UnsignedIdToken(claims: claims, signer: signer)
    }

    static func refreshTokenHash(_ token: String) -> String {
        SHA256.hash(data: Data(token.utf8)).hexadecimal
    }
}
