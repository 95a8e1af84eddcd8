import Foundation
import IdentityToolkit

extension EmbeddedBackend {
    /// The endpoints of sign-ins without a password: custom tokens, email links, `createAuthUri`.
    private static let passwordlessPaths: Set<String> = [
        SignInWithCustomTokenRequest.endpoint, SignInWithEmailLinkRequest.endpoint, CreateAuthUriRequest.endpoint,
    ].reduce(into: []) { $0.insert($1.emulatorPath) }

    static func isPasswordlessPath(_ path: String) -> Bool { passwordlessPaths.contains(path) }

    func routePasswordless(path: String, body: Data, context: RequestContext) async throws -> Data? {
        switch path {
        case SignInWithCustomTokenRequest.endpoint.emulatorPath:
            return try await encode(signInWithCustomToken(decode(CustomTokenBody.self, body)))
        case SignInWithEmailLinkRequest.endpoint.emulatorPath:
            return try await encode(signInWithEmailLink(decode(EmailLinkSignInBody.self, body)))
        case CreateAuthUriRequest.endpoint.emulatorPath:
            return try encode(createAuthUri(decode(CreateAuthUriBody.self, body)))
        default:
            return nil
        }
    }
}
