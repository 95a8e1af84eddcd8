import Foundation
import IdentityToolkit

extension EmbeddedBackend {
    /// The endpoints of sign-ins without a password: custom tokens, email links, `createAuthUri`.
    static let passwordlessRoutes: [(String, PostRoute)] = [
        (SignInWithCustomTokenRequest.endpoint.emulatorPath, { backend, request, _ in
            try await backend.encode(backend.signInWithCustomToken(backend.decode(CustomTokenBody.self, request.body)))
        }),
        (SignInWithEmailLinkRequest.endpoint.emulatorPath, { backend, request, _ in
            try await backend.encode(backend.signInWithEmailLink(backend.decode(EmailLinkSignInBody.self, request.body)))
        }),
        (CreateAuthUriRequest.endpoint.emulatorPath, { backend, request, _ in
            try backend.encode(backend.createAuthUri(backend.decode(CreateAuthUriBody.self, request.body)))
        }),
    ]
}
