import Foundation

/// What went wrong below the client: a server error message, or a transport failure.
public enum IdentityToolkitError: Error, Sendable, Equatable {
    /// The backend answered with an error; `message` is Google's `error.message`, e.g. `WEAK_PASSWORD : Password should be …`.
    case server(status: Int, message: String)
    /// The backend's answer could not be read.
    case malformedResponse(String)
    /// The backend could not be reached.
    case network(String)

    /// The code part of a server message: the text before the first `:` (as every Firebase SDK splits it).
    public var serverCode: String? {
        guard case let .server(_, message) = self else { return nil }
        return Self.split(message).code
    }

    public var serverDetail: String? {
        guard case let .server(_, message) = self else { return nil }
        return Self.split(message).detail
    }

    static func split(_ message: String) -> (code: String, detail: String?) {
        guard let colon = message.firstIndex(of: ":") else {
            return (message.trimmingCharacters(in: .whitespaces), nil)
        }
        let code = message[..<colon].trimmingCharacters(in: .whitespaces)
        let detail = message[message.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        return (code, detail.isEmpty ? nil : detail)
    }
}
