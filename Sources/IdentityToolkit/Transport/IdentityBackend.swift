import Foundation

/// Where a request goes. The path is the one the Firebase Auth Emulator serves:
/// the production host name followed by the production path.
public struct Endpoint: Sendable, Hashable, CustomStringConvertible {
    public enum Host: String, Sendable {
        case identityToolkit = "identitytoolkit.googleapis.com"
        case secureToken = "securetoken.googleapis.com"
        /// The emulator's own endpoints (`/emulator/...`: outboxes, simulated providers); they exist only on emulators.
        case emulator = "emulator"
    }

    public let host: Host
    /// The production path, e.g. `/v1/accounts:signUp`.
    public let path: String

    public init(host: Host, path: String) {
        self.host = host
        self.path = path
    }

    public static func v1(_ method: String) -> Endpoint { Endpoint(host: .identityToolkit, path: "/v1/" + method) }
    public static func v2(_ method: String) -> Endpoint { Endpoint(host: .identityToolkit, path: "/v2/" + method) }
    public static let secureToken = Endpoint(host: .secureToken, path: "/v1/token")

    /// The path under which the emulator (and `authdeck serve`) answers this endpoint.
    public var emulatorPath: String { "/" + host.rawValue + path }

    public var description: String { emulatorPath }
}

/// A request of the Identity Toolkit REST API. Each request names its response type,
/// so a backend call is typed end to end (the pattern of firebase-ios-sdk's `AuthRPCRequest`).
public protocol IdentityRequest: Encodable, Sendable {
    associatedtype Response: Decodable, Sendable
    static var endpoint: Endpoint { get }
    /// Where this request goes; differs from `endpoint` only for paths that name a project.
    var resolvedEndpoint: Endpoint { get }
    /// `POST` with a JSON body, or `GET` or `DELETE` with none.
    static var httpMethod: String { get }
}

extension IdentityRequest {
    public var resolvedEndpoint: Endpoint { Self.endpoint }
    public static var httpMethod: String { "POST" }
}

/// Anything that answers Identity Toolkit requests: the embedded backend in process,
/// or an HTTP transport to the Firebase Auth Emulator or to Google.
public protocol IdentityBackend: Sendable {
    func call<R: IdentityRequest>(_ request: R) async throws -> R.Response
    /// Observers see every exchange (the inspector); secrets are theirs to shorten.
    var exchanges: ExchangeLog { get }
}
