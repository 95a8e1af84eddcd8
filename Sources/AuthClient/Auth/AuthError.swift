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

    /// A sentence for people. Firebase's `INVALID_IDP_RESPONSE` carries the provider's own words, and an
    /// answer that is not the API's says what came instead: those words are the sentence.
    public var message: String {
        guard let serverMessage, let colon = serverMessage.firstIndex(of: ":") else { return code.localizedDescription }
        let serverCode = serverMessage[..<colon].trimmingCharacters(in: .whitespaces)
        let detail = serverMessage[serverMessage.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        guard !detail.isEmpty else { return code.localizedDescription }
        if code == .invalidCredential, serverCode == "INVALID_IDP_RESPONSE" { return "The identity provider refused: \(detail)" }
        if serverCode.hasPrefix(WireCoding.nonAPICodePrefix) { return detail }
        return code.localizedDescription
    }

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
