import Foundation
import IdentityToolkit

/// The embedded backend's simulated providers, as an app reaches them: the analogue of
/// `OAuthProvider.getCredentialWith(_:)` opening the Firebase Auth Emulator's provider widget.
/// Everything goes through the `IdentityBackend`, so it works in process and against `authdeck serve`.
public struct SimulatedIdentityProviders: Sendable {
    public let backend: any IdentityBackend
    /// Sent with every call: on a shared backend the people added with it are this caller's alone.
    public let ownerSecret: String?

    public init(backend: any IdentityBackend, ownerSecret: String? = nil) {
        self.backend = backend
        self.ownerSecret = ownerSecret
    }

    /// The provider's client id for this project and the people it knows.
    public func directory(for providerID: String) async throws -> SimulatedIdpListResponse {
        try await call(SimulatedIdpListRequest(providerId: providerID, ownerSecret: ownerSecret))
    }

    public func addIdentity(providerID: String, displayName: String, email: String) async throws -> SimulatedIdentity {
        try await call(SimulatedIdpAddIdentityRequest(providerId: providerID, displayName: displayName, email: email, ownerSecret: ownerSecret))
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
