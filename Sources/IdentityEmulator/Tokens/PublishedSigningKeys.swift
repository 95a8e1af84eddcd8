import Foundation

/// The ID-token signer's public keys, where Google publishes its own (under the emulator-style
/// host prefix), so that any standard JWT library can verify the tokens this backend mints.
/// They are public: no API key is needed, as at Google.
extension EmbeddedBackend {
    static let jwksPath = "/www.googleapis.com/service_accounts/v1/jwk/securetoken@system.gserviceaccount.com"
    static let x509Path = "/www.googleapis.com/robot/v1/metadata/x509/securetoken@system.gserviceaccount.com"

    /// `{kid: PEM certificate}`, as Google's x509 metadata document.
    public func publicKeysX509() -> Data { signer.x509Certificates() }

    /// `GET /`: the emulator's status check, which tools poll to see that it is up.
    static let statusAnswer = Data(#"{"authEmulator":{"docs":"https://firebase.google.com/docs/emulator-suite","ready":true}}"#.utf8)

    /// The answers to GET requests.
    func routeGet(_ path: String, query: [URLQueryItem]) async throws -> Data {
        // `@` may arrive percent-encoded.
        switch path.removingPercentEncoding ?? path {
        case Self.jwksPath: return publicKeysJWKS()
        case Self.x509Path: return publicKeysX509()
        case Self.emailActionPath: return try await encode(applyEmailAction(query))
        case "/": return Self.statusAnswer
        default: throw BackendFailure.notFound(path)
        }
    }
}
