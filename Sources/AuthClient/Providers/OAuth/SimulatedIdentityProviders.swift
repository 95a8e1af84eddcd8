import Foundation
import IdentityToolkit

/// The embedded backend's simulated providers, as an app reaches them: the analogue of
/// `OAuthProvider.getCredentialWith(_:)` opening the Firebase Auth Emulator's provider widget.
/// Everything goes through the `IdentityBackend`, so it works in process and against `authdeck serve`.
public struct SimulatedIdentityProviders: Sendable {
    let backend: any IdentityBackend
    /// Sent with every call: on a shared backend the people added with it are this caller's alone.
    let ownerSecret: String?

    public init(backend: any IdentityBackend, ownerSecret: String? = nil) {
        self.backend = backend
        self.ownerSecret = ownerSecret
    }

    /// A person the simulated provider knows.
    public struct Identity: Sendable, Equatable {
        /// The provider's stable id for the person (`sub`; Microsoft: the `oid`).
        public var subject: String
        public var displayName: String?
        public var email: String?
        /// Microsoft: `personal` (a Microsoft account) or `work` (work or school); nil elsewhere.
        public var accountType: String?
        /// Microsoft: the directory (`tid`) the account lives in.
        public var tenantId: String?
        /// True once the person has consented to this app: Apple then no longer shares the name,
        /// and keeps the email choice made the first time.
        public var authorized: Bool
        /// Apple: whether the person chose Hide My Email (set on the first authorization).
        public var emailHidden: Bool?

        public init(subject: String, displayName: String? = nil, email: String? = nil, accountType: String? = nil,
                    tenantId: String? = nil, authorized: Bool = false, emailHidden: Bool? = nil) {
            self.subject = subject
            self.displayName = displayName
            self.email = email
            self.accountType = accountType
            self.tenantId = tenantId
            self.authorized = authorized
            self.emailHidden = emailHidden
        }

        init(_ wire: SimulatedIdentity) {
            self.init(subject: wire.subject, displayName: wire.displayName, email: wire.email, accountType: wire.accountType,
                      tenantId: wire.tenantId, authorized: wire.authorized, emailHidden: wire.emailHidden)
        }
    }

    /// A provider as configured for this project, and the people it knows.
    public struct Directory: Sendable, Equatable {
        public var providerID: String
        /// The app's id at the provider (`aud` of its ID tokens): what the Firebase console keeps per provider.
        public var clientID: String
        public var issuer: String
        public var identities: [Identity]

        public init(providerID: String, clientID: String, issuer: String, identities: [Identity]) {
            self.providerID = providerID
            self.clientID = clientID
            self.issuer = issuer
            self.identities = identities
        }
    }

    /// The provider's client id for this project and the people it knows.
    public func directory(for providerID: String) async throws -> Directory {
        let list = try await call(SimulatedIdpListRequest(providerId: providerID, ownerSecret: ownerSecret))
        return Directory(providerID: list.providerId, clientID: list.clientId, issuer: list.issuer, identities: list.identities.map(Identity.init))
    }

    public func addIdentity(providerID: String, displayName: String, email: String) async throws -> Identity {
        Identity(try await call(SimulatedIdpAddIdentityRequest(providerId: providerID, displayName: displayName, email: email, ownerSecret: ownerSecret)))
    }

    /// The person consents to `provider`'s request; the answer becomes a credential. The SHA-256
    /// of `rawNonce` goes to the provider, the raw nonce stays in the credential for the backend.
    public func authorize(_ provider: OAuthProvider, subject: String, rawNonce: String?, hideEmail: Bool? = nil) async throws -> ProviderAuthorization {
        let provider = try provider.validated()
        let hashedNonce = rawNonce.map(OAuthProvider.sha256)
        let answer = try await call(SimulatedIdpAuthorizeRequest(
            providerId: provider.providerID, subject: subject, scopes: provider.scopes,
            customParameters: provider.customParameters, nonce: hashedNonce, hideEmail: hideEmail, ownerSecret: ownerSecret))
        let nonce = answer.idToken == nil ? nil : rawNonce
        return ProviderAuthorization(
            credential: Self.credential(provider.providerID, answer, rawNonce: nonce), rawNonce: nonce, hashedNonce: nonce.map(OAuthProvider.sha256),
            idTokenClaims: answer.idToken.flatMap(UnverifiedJWT.claims(of:)),
            grantedScopes: (answer.scope ?? "").split(separator: " ").map(String.init))
    }

    private func call<R: IdentityRequest>(_ request: R) async throws -> R.Response {
        do {
            return try await backend.call(request)
        } catch let IdentityToolkitError.server(status, message) where status == 404 {
            // Google and the Firebase Auth Emulator have no simulated providers; say so in one way.
            throw AuthError(.operationNotAllowed, serverMessage: message.hasPrefix("NOT_FOUND") ? message : "NOT_FOUND : \(message)")
        } catch {
            throw AuthError.from(error)
        }
    }

    /// The credential each provider's SDK helper makes of its answer.
    private static func credential(_ providerID: String, _ answer: SimulatedIdpAuthorizeResponse, rawNonce: String?) -> AuthCredential {
        switch (providerID, answer.idToken, answer.accessToken) {
        case let (AppleAuthProvider.id, idToken?, _) where rawNonce != nil:
            OAuthProvider.appleCredential(idToken: idToken, rawNonce: rawNonce ?? "", fullName: fullName(inAppleUser: answer.user))
        case let (GoogleAuthProvider.id, idToken?, accessToken):
            GoogleAuthProvider.credential(withIDToken: idToken, accessToken: accessToken, rawNonce: rawNonce)
        case let (FacebookAuthProvider.id, nil, accessToken?):
            FacebookAuthProvider.credential(withAccessToken: accessToken)
        default:
            OAuthProvider.credential(providerID: providerID, idToken: answer.idToken, rawNonce: rawNonce, accessToken: answer.accessToken)
        }
    }

    private static func fullName(inAppleUser json: String?) -> OAuthCredential.FullName? {
        guard let json, let user = try? JSONDecoder().decode([String: JSONValue].self, from: Data(json.utf8)),
              let name = user["name"] else { return nil }
        let given = name["firstName"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 }
        let family = name["lastName"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 }
        return given == nil && family == nil ? nil : OAuthCredential.FullName(givenName: given, familyName: family)
    }
}

/// What a consent produced: the credential, and what the inspector shows about it.
public struct ProviderAuthorization: Sendable, Equatable {
    public var credential: AuthCredential
    public var rawNonce: String?
    /// The SHA-256 (hex) of the raw nonce: what the ID token's `nonce` claim must be.
    public var hashedNonce: String?
    /// The provider's ID token, decoded (not verified: that is the backend's job).
    public var idTokenClaims: [String: JSONValue]?
    public var grantedScopes: [String]

    public init(credential: AuthCredential, rawNonce: String?, hashedNonce: String?, idTokenClaims: [String: JSONValue]?, grantedScopes: [String]) {
        self.credential = credential
        self.rawNonce = rawNonce
        self.hashedNonce = hashedNonce
        self.idTokenClaims = idTokenClaims
        self.grantedScopes = grantedScopes
    }
}
