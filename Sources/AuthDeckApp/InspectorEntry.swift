import Foundation
import IdentityToolkit

/// One backend call as the inspector lists it: secrets already shortened, ID tokens decoded.
public struct InspectorEntry: Equatable, Sendable {
    public var date: Date
    public var method: String
    public var path: String
    public var status: Int
    public var latencyMilliseconds: Int
    public var request: String
    public var response: String
    /// The `Authorization` header, its credential hidden; only calls to the emulator's administrator endpoints carry one.
    public var authorization: String?
    /// Claims of the ID token the response carried, if any.
    public var idTokenClaims: [String: JSONValue]?

    public init(_ exchange: Exchange) {
        date = exchange.date
        method = exchange.method
        path = exchange.path
        status = exchange.status
        latencyMilliseconds = Int((exchange.latency * 1000).rounded())
        request = Redaction.redactJSON(exchange.requestBody)
        response = Redaction.redactJSON(exchange.responseBody)
        authorization = exchange.authorization
        idTokenClaims = Self.idToken(in: exchange.responseBody).flatMap(UnverifiedJWT.claims(of:))
    }

    /// The call never got an HTTP answer (the transport records status 0 then).
    public var isFailure: Bool { status == 0 }

    static func idToken(in body: Data) -> String? {
        guard let object = try? JSONDecoder().decode([String: JSONValue].self, from: body) else { return nil }
        return (object["idToken"] ?? object["id_token"])?.stringValue
    }
}
