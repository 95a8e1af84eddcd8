import Foundation
import IdentityToolkit

/// An error of the Auth API: Firebase's code, its sentence, and the raw server message when
/// there was one (the console shows both: the sentence for people, the message for developers).
public struct AuthError: Error, Sendable, Equatable, CustomStringConvertible {
    public var code: AuthErrorCode
    public var serverMessage: String?
    /// With `secondFactorRequired`: the enrolled factors and the pending credential; `Auth.multiFactorResolver(for:)`
    /// finishes the sign-in with one of them.
    public var multiFactorChallenge: MultiFactorChallenge?
    /// `credentialAlreadyInUse`, `emailAlreadyInUse`, `accountExistsWithDifferentCredential`: a
    /// credential that signs in to the account that owns the identity, without the provider again.
    public var updatedCredential: AuthCredential?
    /// The email the conflict is about.
    public var email: String?

    public init(_ code: AuthErrorCode, serverMessage: String? = nil, updatedCredential: AuthCredential? = nil, email: String? = nil) {
        self.code = code
        self.serverMessage = serverMessage
        self.updatedCredential = updatedCredential
        self.email = email
    }

    public var message: String { code.localizedDescription }

    public var description: String {
        if let serverMessage { return "\(message) [\(serverMessage)]" }
        return message
    }

    /// The single place where backend failures become `AuthError`s.
    static func from(_ error: any Error) -> AuthError {
        switch error {
        case let error as AuthError:
            return error
        case let error as IdentityToolkitError:
            switch error {
            case let .server(_, message):
                return AuthError(AuthErrorCode(serverCode: error.serverCode ?? ""), serverMessage: message)
            case let .malformedResponse(detail):
                return AuthError(.internalError, serverMessage: detail)
            case let .network(detail):
                return AuthError(.networkError, serverMessage: detail)
            }
        default:
            return AuthError(.internalError, serverMessage: String(describing: error))
        }
    }
}
