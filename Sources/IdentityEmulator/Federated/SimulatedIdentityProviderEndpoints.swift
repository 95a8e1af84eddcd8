import Crypto
import Foundation
import GRDB
import IdentityToolkit

/// Whose simulated identities a caller sees, uses and adds. A backend that is not shared is one
/// person's demo: everyone sees everything, and Apple and Google vouch for every email as they do
/// in life. On a shared backend a caller other than the administrator sees only the identities added
/// with their own owner secret, and those carry unverified emails, so Firebase's own rules answer
/// `needConfirmation` rather than link them to (or take over) an account with that email.
enum SimulatedIdentityScope: Equatable {
    case everyone
    case owner(hash: String)
    /// A caller on a shared backend without an owner secret: nothing to see, nothing to add.
    case nobody

    /// Owner secrets are random values per console; a short one could be guessed.
    static let minimumSecretLength = 16

    init(secret: String?, context: RequestContext, shared: Bool) throws {
        guard shared, !context.isAdmin else {
            self = .everyone
            return
        }
        guard let secret, !secret.isEmpty else {
            self = .nobody
            return
        }
        guard secret.count >= Self.minimumSecretLength else {
            throw BackendFailure.invalidArgument("ownerSecret must be at least \(Self.minimumSecretLength) characters.")
        }
        self = .owner(hash: EmbeddedBackend.sha256Hex(secret))
    }

    /// The `ownerHash` of identities added in this scope.
    var ownerHash: String {
        if case let .owner(hash) = self { return hash }
        return ""
    }

    func includes(_ identity: SimulatedIdentityRecord) -> Bool {
        switch self {
        case .everyone: true
        case let .owner(hash): identity.ownerHash == hash
        case .nobody: false
        }
    }
}

extension EmbeddedBackend {
    func simulatedIdentityScope(_ secret: String?, context: RequestContext) throws -> SimulatedIdentityScope {
        try SimulatedIdentityScope(secret: secret, context: context, shared: configuration.isShared)
    }

    /// `simulatedIdp:list`: the provider's client id and issuer for this project, and the people it knows
    /// (on a shared backend, those the caller added).
    func listSimulatedIdentities(_ body: SimulatedIdpListBody, context: RequestContext) throws -> SimulatedIdpListResponse {
        let provider = try simulatedProvider(body.providerId)
        let scope = try simulatedIdentityScope(body.ownerSecret, context: context)
        var query = SimulatedIdentityRecord.filter(SimulatedIdentityRecord.Columns.providerId == provider.id)
        switch scope {
        case .everyone: break
        case let .owner(hash): query = query.filter(SimulatedIdentityRecord.Columns.ownerHash == hash)
        case .nobody: query = query.none()
        }
        let identities = try store.read { db in try query.order(SimulatedIdentityRecord.Columns.createdAt).fetchAll(db) }
        return SimulatedIdpListResponse(providerId: provider.id, clientId: provider.clientId(projectId: projectId),
                                        issuer: provider.issuer(tenantId: nil), identities: identities.map(\.wire))
    }

    /// `simulatedIdp:addIdentity`: a new person, with an id in the provider's own format.
    func addSimulatedIdentity(_ body: SimulatedIdpAddIdentityBody, context: RequestContext) async throws -> SimulatedIdentity {
        let provider = try simulatedProvider(body.providerId)
        let scope = try simulatedIdentityScope(body.ownerSecret, context: context)
        guard scope != .nobody else {
            throw BackendFailure.invalidArgument("This backend is shared: a simulated identity needs an ownerSecret, and belongs to whoever holds it.")
        }
        let name = (body.displayName ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        guard !name.isEmpty, name.count <= 100, !name.unicodeScalars.contains(where: CharacterSet.controlCharacters.contains) else {
            throw BackendFailure.invalidArgument("A simulated identity needs a name of 1 to 100 printable characters.")
        }
        guard let rawEmail = body.email else { throw BackendFailure.missingEmail }
        guard let email = EmailAddress.normalized(rawEmail) else { throw BackendFailure.invalidEmail }
        let (subject, accountType, tenantId) = provider.newSubject(email: email)
        let record = SimulatedIdentityRecord(providerId: provider.id, subject: subject, displayName: name, email: email,
                                             accountType: accountType, tenantId: tenantId, createdAt: nowMilliseconds,
                                             ownerHash: scope.ownerHash, emailVerified: scope == .everyone)
        try await store.write { db in
            let taken = try SimulatedIdentityRecord.filter(SimulatedIdentityRecord.Columns.providerId == provider.id
                && SimulatedIdentityRecord.Columns.ownerHash == scope.ownerHash
                && SimulatedIdentityRecord.Columns.email == email).fetchCount(db) > 0
            guard !taken else { throw BackendFailure.invalidArgument("\(provider.id) already has an identity with the email \(email).") }
            try record.insert(db)
        }
        return record.wire
    }

    /// `simulatedIdp:authorize`: the person consents, and the provider answers as its token endpoint would.
    func authorizeAtSimulatedProvider(_ body: SimulatedIdpAuthorizeBody, context: RequestContext) async throws -> SimulatedIdpAuthorizeResponse {
        let provider = try simulatedProvider(body.providerId)
        let scope = try simulatedIdentityScope(body.ownerSecret, context: context)
        let parameters = body.customParameters ?? [:]
        if let reserved = parameters.keys.sorted().first(where: SimulatedProvider.reservedParameters.contains) {
            throw BackendFailure.invalidArgument("'\(reserved)' is set by the SDK itself and cannot be a custom parameter.")
        }
        let scopes = body.scopes ?? []
        if let scope = provider.unsupportedScope(in: scopes) {
            throw Self.idpRefusal("invalid_scope: Apple knows only the scopes name and email, not '\(scope)'.")
        }
        guard let subject = body.subject, !subject.isEmpty else { throw BackendFailure.invalidArgument("subject is required.") }
        let signer = provider.issuesIdToken ? try providerKeys.signer(for: provider) : nil
        let now = nowSeconds
        let clientId = provider.clientId(projectId: projectId)

        return try await store.write { db in
            guard var identity = try SimulatedIdentityRecord.fetchOne(db, key: ["providerId": provider.id, "subject": subject]),
                  scope.includes(identity) else {
                throw BackendFailure.badRequest("IDENTITY_NOT_FOUND : \(provider.id) knows no identity \(subject).")
            }
            let firstAuthorization = identity.authorizedAt == nil
            if provider.kind == .microsoft {
                try Self.checkMicrosoftRequest(parameters, identity: identity, firstAuthorization: firstAuthorization)
            }
            if firstAuthorization {
                identity.authorizedAt = now
                if provider.kind == .apple {
                    // Apple asks once; later authorizations keep the first choice.
                    identity.emailHidden = body.hideEmail ?? false
                    if identity.emailHidden == true { identity.relayEmail = Self.newRelayEmail() }
                }
                try identity.update(db)
            }

            var accessToken: String?
            if provider.issuesAccessToken {
                let token = String(provider.id.prefix { $0 != "." }) + "-at-" + SecureRandom.bytes(32).base64URLEncodedString()
                try IdpAccessTokenRecord.filter(IdpAccessTokenRecord.Columns.expiresAt < now).deleteAll(db)
                try IdpAccessTokenRecord(tokenHash: Self.sha256Hex(token), providerId: provider.id, subject: identity.subject,
                                         clientId: clientId, scope: scopes.joined(separator: " "),
                                         expiresAt: now + provider.accessTokenLifetime).insert(db)
                accessToken = token
            }
            let idToken = try signer.map { signer in
                try signer.sign(claims: Self.idTokenClaims(provider, identity: identity, clientId: clientId, scopes: scopes,
                                                           nonce: body.nonce, now: now))
            }
            var user: String?
            if provider.kind == .apple, firstAuthorization, scopes.contains("name") {
                user = Self.appleUserJSON(identity, shareEmail: scopes.contains("email"))
            }
            return SimulatedIdpAuthorizeResponse(
                providerId: provider.id, idToken: idToken, accessToken: accessToken,
                expiresIn: String(provider.issuesIdToken ? provider.idTokenLifetime : provider.accessTokenLifetime),
                scope: scopes.joined(separator: " "), user: user)
        }
    }

    func simulatedProvider(_ providerId: String?) throws -> SimulatedProvider {
        guard let provider = SimulatedProvider.named(providerId) else { throw BackendFailure.invalidProviderId }
        return provider
    }

    /// The ID token as the real provider shapes it; `email`/`profile` scopes decide what it tells.
    private static func idTokenClaims(_ provider: SimulatedProvider, identity: SimulatedIdentityRecord, clientId: String,
                                      scopes: [String], nonce: String?, now: Int64) -> [String: Any] {
        var claims: [String: Any] = [
            "iss": provider.issuer(tenantId: identity.tenantId), "aud": clientId, "sub": identity.subject,
            "iat": now, "exp": now + provider.idTokenLifetime,
        ]
        if let nonce, !nonce.isEmpty { claims["nonce"] = nonce }
        let email = scopes.contains("email") ? identity.email : nil
        let (given, family) = Self.split(identity.displayName)
        switch provider.kind {
        case .apple:
            claims["auth_time"] = now
            claims["nonce_supported"] = true
            if let email {
                let hidden = identity.emailHidden == true
                claims["email"] = hidden ? identity.relayEmail ?? email : email
                // Apple writes these two as strings.
                claims["email_verified"] = identity.emailVerified ? "true" : "false"
                claims["is_private_email"] = hidden ? "true" : "false"
            }
        case .google:
            claims["azp"] = clientId
            if let email {
                claims["email"] = email
                claims["email_verified"] = identity.emailVerified
            }
            if scopes.contains("profile") {
                claims["name"] = identity.displayName
                claims["given_name"] = given
                claims["family_name"] = family
                claims["picture"] = googlePicture(identity)
            }
        case .microsoft:
            claims["ver"] = "2.0"
            claims["oid"] = identity.subject
            claims["tid"] = identity.tenantId
            claims["nbf"] = now
            // Microsoft's `sub` is pairwise: a different value for each app.
            claims["sub"] = sha256Hex(identity.subject + "|" + clientId).prefix(43).description
            claims["uti"] = SecureRandom.bytes(16).base64URLEncodedString()
            if scopes.contains("profile") {
                claims["name"] = identity.displayName
                claims["preferred_username"] = identity.email
            }
            if let email { claims["email"] = email }
        case .facebook:
            break
        }
        return claims
    }

    /// The provider's refusal as Firebase passes it on: `INVALID_IDP_RESPONSE` with the provider's own words.
    private static func idpRefusal(_ providerText: String) -> BackendFailure {
        .badRequest("INVALID_IDP_RESPONSE : \(providerText)")
    }

    /// `tenant` (common, organizations, consumers, a directory GUID or a domain) and `prompt`, as
    /// the Microsoft identity platform checks them, with its AADSTS errors.
    private static func checkMicrosoftRequest(_ parameters: [String: String], identity: SimulatedIdentityRecord,
                                              firstAuthorization: Bool) throws {
        let tenant = (parameters["tenant"] ?? "common").lowercased()
        let personal = identity.accountType == "personal"
        let domain = identity.email?.split(separator: "@").last.map(String.init)
        let notInTenant = idpRefusal(
            "AADSTS50020: User account '\(identity.email ?? identity.subject)' from identity provider does not exist in tenant '\(tenant)' and cannot access the application.")
        switch tenant {
        case "common":
            break
        case "organizations":
            guard !personal else {
                throw idpRefusal("AADSTS500200: User account '\(identity.email ?? identity.subject)' is a personal Microsoft account. Personal Microsoft accounts are not supported for the organizations endpoint.")
            }
        case "consumers":
            guard personal else { throw notInTenant }
        default:
            if UUID(uuidString: tenant) != nil {
                guard identity.tenantId == tenant else { throw notInTenant }
            } else if tenant.contains(".") {
                guard !personal, let domain,
                      SimulatedProvider.microsoftDirectory(ofDomain: domain) == SimulatedProvider.microsoftDirectory(ofDomain: tenant)
                else { throw notInTenant }
            } else {
                throw idpRefusal("AADSTS90002: Tenant '\(tenant)' not found. Use common, organizations, consumers, a directory id or a domain.")
            }
        }
        switch parameters["prompt"] {
        case nil, "login", "consent", "select_account":
            break
        case "none":
            guard !firstAuthorization else {
                throw idpRefusal("interaction_required: AADSTS50058: prompt=none, and no one has signed in to this application with Microsoft yet; sign in once without prompt=none.")
            }
        case let other?:
            throw idpRefusal("AADSTS90023: Unsupported 'prompt' value '\(other)'. Use login, none, consent or select_account.")
        }
    }

    /// Apple's first-authorization `user` object; the name never appears in its ID tokens.
    private static func appleUserJSON(_ identity: SimulatedIdentityRecord, shareEmail: Bool) -> String? {
        let (given, family) = split(identity.displayName)
        var user: [String: Any] = ["name": ["firstName": given ?? "", "lastName": family ?? ""]]
        if shareEmail, let email = identity.emailHidden == true ? identity.relayEmail : identity.email { user["email"] = email }
        return (try? JSONSerialization.data(withJSONObject: user, options: [.sortedKeys])).map { String(decoding: $0, as: UTF8.self) }
    }

    static func split(_ name: String?) -> (given: String?, family: String?) {
        guard let name else { return (nil, nil) }
        let parts = name.split(separator: " ", maxSplits: 1)
        return (parts.first.map(String.init), parts.count > 1 ? String(parts[1]) : nil)
    }

    static func googlePicture(_ identity: SimulatedIdentityRecord) -> String {
        "https://lh3.googleusercontent.com/a/sim-\(identity.subject.suffix(10))=s96-c"
    }

    private static func newRelayEmail() -> String {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789")
        var generator = SystemRandomNumberGenerator()
        return String((0..<10).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &generator)] }) + "@privaterelay.appleid.com"
    }

    static func sha256Hex(_ text: String) -> String {
        SHA256.hash(data: Data(text.utf8)).hexadecimal
    }
}

extension SimulatedIdentityRecord {
    var wire: SimulatedIdentity {
        SimulatedIdentity(subject: subject, displayName: displayName, email: email, accountType: accountType, tenantId: tenantId,
                          authorized: authorizedAt != nil, emailHidden: emailHidden)
    }
}
