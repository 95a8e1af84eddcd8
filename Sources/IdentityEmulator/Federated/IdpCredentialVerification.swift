import Crypto
import Foundation
import GRDB
import IdentityToolkit

/// What the backend has established about a person at a provider, from a verified credential.
struct VerifiedAssertion: Codable, Equatable, Sendable {
    var providerId: String
    /// The provider's id for the person: `sub`, Microsoft's `oid`, Facebook's user id.
    var rawId: String
    var email: String?
    var emailVerified: Bool
    var displayName: String?
    var photoUrl: String?
    /// The provider's profile as JSON text (`rawUserInfo`).
    var rawUserInfo: String

    /// Google's federated id is a URL; the others use the raw id.
    var federatedId: String {
        providerId == SimulatedProvider.google.id ? "https://accounts.google.com/\(rawId)" : rawId
    }

    func providerRecord(localId: String) -> ProviderRecord {
        ProviderRecord(localId: localId, providerId: providerId, rawId: rawId, federatedId: federatedId, email: email,
                       displayName: displayName, photoUrl: photoUrl)
    }
}

/// A credential as presented in one request: the assertion, the provider's tokens (echoed back),
/// when what it came from expires, and what makes it single-use: an ID token to record so it is
/// never accepted again, or the `pendingToken` to spend.
struct PresentedIdpCredential {
    var assertion: VerifiedAssertion
    var idToken: String?
    var accessToken: String?
    var singleUse: IdpTokenUseRecord?
    /// Seconds since 1970: the ID token's `exp`, the access token's or the pending token's expiry.
    var expiresAt: Int64?
    /// The SHA-256 of the `pendingToken` this credential was presented as.
    var pendingTokenHash: String?
}

extension BackendFailure {
    static let missingRequestUri = badRequest("MISSING_REQUEST_URI")
    static let invalidRequestUri = badRequest("INVALID_REQUEST_URI")
    /// The emulator names the request URI with the post body's fields merged into its query.
    static func invalidCredentialOrProviderId(requestUri: String, postBody: String?) -> BackendFailure {
        let merged = postBody.flatMap { $0.isEmpty ? nil : $0 }.map { requestUri + (requestUri.contains("?") ? "&" : "?") + $0 } ?? requestUri
        return badRequest("INVALID_CREDENTIAL_OR_PROVIDER_ID : Invalid IdP response/credential: \(merged)")
    }
    static let invalidProviderId = badRequest("INVALID_PROVIDER_ID : Provider Id is not supported.")
    static let invalidPendingToken = badRequest("INVALID_PENDING_TOKEN : The pending token is unknown or has expired.")
    static let missingNonce = badRequest("MISSING_OR_INVALID_NONCE : Nonce is missing in the request.")
    static let duplicateCredential = badRequest("MISSING_OR_INVALID_NONCE : Duplicate credential received. Please try again with a new credential.")
    static func invalidIdpResponse(_ detail: String) -> BackendFailure { badRequest("INVALID_IDP_RESPONSE : \(detail)") }
}

extension EmbeddedBackend {
    static let pendingTokenLifetime: Int64 = 3600

    /// The credential of a `signInWithIdp` request, verified as production verifies it: the ID
    /// token's signature (the provider's key), `iss`, `aud`, `exp` and nonce; an access token by
    /// asking the provider about it; or a `pendingToken` from an earlier answer.
    func presentedCredential(_ body: IdpSignInBody) throws -> PresentedIdpCredential {
        if let pendingToken = body.pendingToken, !pendingToken.isEmpty {
            let (assertion, expiresAt) = try pendingAssertion(pendingToken)
            return PresentedIdpCredential(assertion: assertion, expiresAt: expiresAt, pendingTokenHash: Self.sha256Hex(pendingToken))
        }
        let post = IdpPostBody(postBody: body.postBody, requestUri: body.requestUri)
        let provider = try simulatedProvider(post.providerId)
        if let idToken = post.idToken {
            guard provider.issuesIdToken else { throw BackendFailure.invalidIdpResponse("\(provider.id) credentials carry an access token, not an ID token.") }
            return try verifyIdToken(idToken, accessToken: post.accessToken, rawNonce: post.nonce, appleUser: post.appleUser, provider: provider)
        }
        if let accessToken = post.accessToken {
            guard provider.issuesAccessToken else { throw BackendFailure.invalidIdpResponse("\(provider.id) credentials need an ID token.") }
            let token = try verifyAccessToken(accessToken, provider: provider, subject: nil)
            let identity = try simulatedIdentity(provider, subject: token.subject)
            return PresentedIdpCredential(assertion: assertion(provider, identity: identity, claims: [:], scope: token.scope),
                                          accessToken: accessToken, expiresAt: token.expiresAt)
        }
        if post.code != nil {
            throw BackendFailure.invalidIdpResponse("The simulated providers do not exchange authorization codes; send the id_token or access_token.")
        }
        throw BackendFailure.invalidIdpResponse("The credential carries neither an id_token nor an access_token.")
    }

    private func verifyIdToken(_ idToken: String, accessToken: String?, rawNonce: String?, appleUser: String?,
                               provider: SimulatedProvider) throws -> PresentedIdpCredential {
        let signer = try providerKeys.signer(for: provider)
        guard let payload = signer.verifiedPayload(of: idToken),
              let claims = try? JSONSerialization.jsonObject(with: payload) as? [String: Any] else {
            throw BackendFailure.invalidIdpResponse("The ID token is not signed by \(provider.id)'s key.")
        }
        let tenantId = claims["tid"] as? String
        let issuer = provider.issuer(tenantId: tenantId)
        guard claims["iss"] as? String == issuer, provider.kind != .microsoft || tenantId.flatMap(UUID.init(uuidString:)) != nil else {
            throw BackendFailure.invalidIdpResponse("The ID token's issuer \(claims["iss"] as? String ?? "(none)") is not \(issuer).")
        }
        let clientId = provider.clientId(projectId: projectId)
        guard claims["aud"] as? String == clientId else {
            throw BackendFailure.invalidIdpResponse("The audience in ID Token [\(claims["aud"] as? String ?? "")] does not match the expected audience \(clientId).")
        }
        guard let exp = Self.integer(claims["exp"]), exp > nowSeconds else {
            throw BackendFailure.invalidIdpResponse("The ID token has expired.")
        }
        try checkNonce(claims["nonce"] as? String, rawNonce: rawNonce, provider: provider)
        let subjectClaim = provider.kind == .microsoft ? "oid" : "sub"
        guard let subject = claims[subjectClaim] as? String, !subject.isEmpty else {
            throw BackendFailure.invalidIdpResponse("The ID token has no \(subjectClaim).")
        }
        var scope: String?
        if let accessToken {
            scope = try verifyAccessToken(accessToken, provider: provider, subject: subject).scope
        }
        let identity = try? simulatedIdentity(provider, subject: subject)
        var verified = assertion(provider, identity: identity, claims: claims, scope: scope)
        verified.rawId = subject
        if provider.kind == .apple, verified.displayName == nil { verified.displayName = Self.appleName(appleUser) }
        let singleUse = provider.singleUseIdTokens ? IdpTokenUseRecord(tokenHash: Self.sha256Hex(idToken), expiresAt: exp) : nil
        return PresentedIdpCredential(assertion: verified, idToken: idToken, accessToken: accessToken, singleUse: singleUse, expiresAt: exp)
    }

    /// The token's `nonce` claim must be the hex SHA-256 of the raw nonce sent with the credential;
    /// Apple tokens must have one.
    private func checkNonce(_ claim: String?, rawNonce: String?, provider: SimulatedProvider) throws {
        guard let claim else {
            if provider.requiresNonce || rawNonce != nil {
                throw BackendFailure.badRequest("MISSING_OR_INVALID_NONCE : The ID token carries no nonce, so it cannot be bound to this request.")
            }
            return
        }
        guard let rawNonce else { throw BackendFailure.missingNonce }
        guard Self.sha256Hex(rawNonce) == claim else {
            throw BackendFailure.badRequest("MISSING_OR_INVALID_NONCE : The nonce in ID Token \"\(claim)\" does not match the SHA256 hash of the raw nonce \"\(rawNonce)\" in the request.")
        }
    }

    /// What the provider says about one of its access tokens (Google's tokeninfo, Facebook's debug_token).
    private func verifyAccessToken(_ token: String, provider: SimulatedProvider, subject: String?) throws -> IdpAccessTokenRecord {
        let record = try store.read { db in try IdpAccessTokenRecord.fetchOne(db, key: Self.sha256Hex(token)) }
        guard let record, record.providerId == provider.id, record.clientId == provider.clientId(projectId: projectId),
              record.expiresAt > nowSeconds else {
            throw BackendFailure.invalidIdpResponse("\(provider.id) does not know this access token for this app, or it has expired.")
        }
        if let subject, record.subject != subject {
            throw BackendFailure.invalidIdpResponse("The access token belongs to another \(provider.id) user than the ID token.")
        }
        return record
    }

    private func simulatedIdentity(_ provider: SimulatedProvider, subject: String) throws -> SimulatedIdentityRecord {
        guard let identity = try store.read({ db in
            try SimulatedIdentityRecord.fetchOne(db, key: ["providerId": provider.id, "subject": subject])
        }) else {
            throw BackendFailure.invalidIdpResponse("\(provider.id) no longer knows this user.")
        }
        return identity
    }

    /// The assertion from the ID token's claims (what it says is what counts), completed with the
    /// provider's profile API (Microsoft Graph `/me`, Facebook Graph `/me`, Google userinfo).
    private func assertion(_ provider: SimulatedProvider, identity: SimulatedIdentityRecord?, claims: [String: Any],
                           scope: String?) -> VerifiedAssertion {
        let scopes = Set((scope ?? "").split(separator: " ").map(String.init))
        let email = (claims["email"] as? String).flatMap(EmailAddress.normalized)
        switch provider.kind {
        case .apple:
            return VerifiedAssertion(providerId: provider.id, rawId: identity?.subject ?? "", email: email,
                                     emailVerified: email != nil && Self.isTrue(claims["email_verified"]),
                                     rawUserInfo: Self.jsonText(claims))
        case .google:
            let profile: [String: Any?] = [
                "id": claims["sub"] ?? identity?.subject, "email": email, "verified_email": email != nil && Self.isTrue(claims["email_verified"]),
                "name": claims["name"], "given_name": claims["given_name"], "family_name": claims["family_name"],
                "picture": claims["picture"], "granted_scopes": scope,
            ]
            let fromAccessToken = claims.isEmpty
            return VerifiedAssertion(
                providerId: provider.id, rawId: identity?.subject ?? "",
                email: fromAccessToken && scopes.contains("email") ? identity?.email : email,
                emailVerified: fromAccessToken ? scopes.contains("email") && identity?.emailVerified == true
                    : email != nil && Self.isTrue(claims["email_verified"]),
                displayName: fromAccessToken && scopes.contains("profile") ? identity?.displayName : claims["name"] as? String,
                photoUrl: fromAccessToken && scopes.contains("profile") ? identity.map(Self.googlePicture) : claims["picture"] as? String,
                rawUserInfo: Self.jsonText(profile.compactMapValues { $0 }))
        case .microsoft:
            let oid = claims["oid"] as? String ?? identity?.subject ?? ""
            let (given, family) = Self.split(identity?.displayName)
            // Graph's `id` of a personal account is the 64-bit id inside the padded oid.
            let graphId = identity?.accountType == "personal" ? oid.replacingOccurrences(of: "-", with: "").suffix(16).description : oid
            let profile: [String: Any] = [
                "@odata.context": "https://graph.microsoft.com/v1.0/$metadata#users/$entity",
                "id": graphId, "displayName": identity?.displayName ?? claims["name"] ?? NSNull(),
                "givenName": given ?? NSNull(), "surname": family ?? NSNull(),
                "mail": identity?.email ?? NSNull(), "userPrincipalName": identity?.email ?? claims["preferred_username"] ?? NSNull(),
                "businessPhones": [String](), "jobTitle": NSNull(), "mobilePhone": NSNull(), "officeLocation": NSNull(), "preferredLanguage": NSNull(),
            ]
            return VerifiedAssertion(providerId: provider.id, rawId: oid, email: email ?? (scopes.contains("email") ? identity?.email : nil),
                                     emailVerified: false, displayName: identity?.displayName ?? claims["name"] as? String,
                                     rawUserInfo: Self.jsonText(profile))
        case .facebook:
            let (given, family) = Self.split(identity?.displayName)
            let id = identity?.subject ?? ""
            let picture = "https://graph.facebook.com/\(id)/picture"
            var profile: [String: Any] = [
                "id": id, "name": identity?.displayName ?? "", "first_name": given ?? "", "last_name": family ?? "",
                "picture": ["data": ["height": 100, "width": 100, "is_silhouette": false, "url": picture]],
            ]
            let email = scopes.contains("email") ? identity?.email : nil
            if let email { profile["email"] = email }
            return VerifiedAssertion(providerId: provider.id, rawId: id, email: email, emailVerified: false,
                                     displayName: identity?.displayName, photoUrl: picture, rawUserInfo: Self.jsonText(profile))
        }
    }

    // MARK: Pending credentials and single-use tokens

    /// A `pendingToken` standing for a credential the client could not use yet (link conflict,
    /// needConfirmation). It works once, and no longer than the credential it stands for.
    func issuePendingToken(for credential: PresentedIdpCredential, in db: Database) throws -> String {
        let token = SecureRandom.bytes(32).base64URLEncodedString()
        try PendingIdpCredentialRecord.filter(PendingIdpCredentialRecord.Columns.expiresAt <= nowSeconds).deleteAll(db)
        let expiresAt = min(nowSeconds + Self.pendingTokenLifetime, credential.expiresAt ?? .max)
        try PendingIdpCredentialRecord(tokenHash: Self.sha256Hex(token), assertion: try JSONEncoder().encode(credential.assertion),
                                       expiresAt: expiresAt).insert(db)
        return token
    }

    private func pendingAssertion(_ token: String) throws -> (VerifiedAssertion, expiresAt: Int64) {
        let record = try store.read { db in try PendingIdpCredentialRecord.fetchOne(db, key: Self.sha256Hex(token)) }
        guard let record, record.expiresAt > nowSeconds,
              let assertion = try? JSONDecoder().decode(VerifiedAssertion.self, from: record.assertion) else {
            throw BackendFailure.invalidPendingToken
        }
        return (assertion, record.expiresAt)
    }

    /// Spends a single-use credential in the transaction that uses it: a `pendingToken` is deleted
    /// (a second use, even a concurrent one, finds it gone), an Apple ID token is recorded (the
    /// second use is refused, as Firebase refuses a replayed Apple token).
    func consumeSingleUseToken(_ credential: PresentedIdpCredential, in db: Database) throws {
        if let pendingTokenHash = credential.pendingTokenHash {
            guard try PendingIdpCredentialRecord.deleteOne(db, key: pendingTokenHash) else { throw BackendFailure.invalidPendingToken }
        }
        guard let use = credential.singleUse else { return }
        guard try IdpTokenUseRecord.fetchOne(db, key: use.tokenHash) == nil else { throw BackendFailure.duplicateCredential }
        try IdpTokenUseRecord.filter(IdpTokenUseRecord.Columns.expiresAt <= nowSeconds).deleteAll(db)
        try use.insert(db)
    }

    // MARK: Helpers

    private static func appleName(_ userJSON: String?) -> String? {
        guard let userJSON, let object = try? JSONSerialization.jsonObject(with: Data(userJSON.utf8)) as? [String: Any],
              let name = object["name"] as? [String: Any] else { return nil }
        let full = [name["firstName"] as? String, name["lastName"] as? String].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: " ")
        return full.isEmpty ? nil : full
    }

    /// Apple writes booleans as the strings "true"/"false".
    private static func isTrue(_ value: Any?) -> Bool {
        if let text = value as? String { return text == "true" }
        return (value as? Bool) == true
    }

    static func integer(_ value: Any?) -> Int64? {
        (value as? NSNumber)?.int64Value
    }

    static func jsonText(_ object: [String: Any]) -> String {
        (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]))
            .map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }
}
