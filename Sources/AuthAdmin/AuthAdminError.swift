import Foundation
import IdentityToolkit

/// What can go wrong for the operator, in one sentence each.
public enum AuthAdminError: Error, Equatable, CustomStringConvertible {
    /// The backend refused the call: its message (`USER_NOT_FOUND`, `INSUFFICIENT_PERMISSION`, …).
    case backend(status: Int, message: String)
    /// The backend could not be reached.
    case network(String)
    /// Custom claims that Firebase would refuse; nothing was sent.
    case invalidClaims(String)
    /// The service-account key file (named) cannot be used.
    case serviceAccount(file: String, reason: String)
    /// The token endpoint refused the service account's assertion.
    case tokenExchange(String)
    case notFound(uid: String)

    public var description: String {
        switch self {
        case let .backend(_, message): message
        case let .network(message): message
        case let .invalidClaims(reason): "custom claims refused: \(reason)"
        case let .serviceAccount(file, reason): "service account \(file): \(reason)"
        case let .tokenExchange(reason): "access token refused: \(reason)"
        case let .notFound(uid): "no account \(uid)"
        }
    }

    static func from(_ error: any Error) -> any Error {
        switch error {
        case let IdentityToolkitError.server(status, message): AuthAdminError.backend(status: status, message: message)
        case let IdentityToolkitError.network(message): AuthAdminError.network(message)
        default: error
        }
    }
}
