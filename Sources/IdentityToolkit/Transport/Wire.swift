import Foundation

/// One HTTP-shaped exchange. The embedded backend, the HTTP transport and `authdeck serve`
/// all speak in these, so the JSON that crosses the wire is the same JSON in every mode.
public struct WireRequest: Sendable {
    public var method: String
    public var path: String
    public var headers: [String: String]
    public var body: Data

    public init(method: String = "POST", path: String, headers: [String: String] = [:], body: Data = Data()) {
        self.method = method
        self.path = path
        self.headers = headers
        self.body = body
    }
}

public struct WireResponse: Sendable {
    public var status: Int
    public var body: Data
    /// Seconds after which the same request may well succeed (HTTP's `Retry-After`); nil: retrying
    /// will not help by itself.
    public var retryAfter: Int?

    public init(status: Int, body: Data, retryAfter: Int? = nil) {
        self.status = status
        self.body = body
        self.retryAfter = retryAfter
    }
}

/// Answers wire requests; the embedded backend is one.
public protocol WireHandler: Sendable {
    func handle(_ request: WireRequest) async -> WireResponse
    /// Where a server should run the tasks that call `handle` (nil: Swift's default executor).
    var preferredExecutor: (any TaskExecutor)? { get }
}

extension WireHandler {
    public var preferredExecutor: (any TaskExecutor)? { nil }
}

public enum WireCoding {
    public static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    public static func decoder() -> JSONDecoder { JSONDecoder() }

    /// Google's JSON error shape: `{"error":{"code":400,"message":"CODE : detail","errors":[…]}}`.
    public static func errorBody(status: Int, message: String) -> Data {
        var error: [String: Any] = [
            "code": status,
            "message": message,
            "errors": [["message": message, "reason": "invalid", "domain": "global"]],
        ]
        if let name = statusName(status) { error["status"] = name }
        return (try? JSONSerialization.data(withJSONObject: ["error": error], options: [.sortedKeys])) ?? Data()
    }

    static func statusName(_ status: Int) -> String? {
        switch status {
        case 400: nil
        case 401: "UNAUTHENTICATED"
        case 403: "PERMISSION_DENIED"
        case 404: "NOT_FOUND"
        case 413: "INVALID_ARGUMENT"
        case 501: "NOT_IMPLEMENTED"
        case 503: "UNAVAILABLE"
        default: status >= 500 ? "INTERNAL" : nil
        }
    }

    /// Turns a wire response into the typed response or the typed server error.
    public static func decode<R: Decodable>(_ type: R.Type, from response: WireResponse) throws -> R {
        guard (200..<300).contains(response.status) else {
            throw IdentityToolkitError.server(status: response.status, message: serverMessage(in: response.body, status: response.status))
        }
        do {
            return try decoder().decode(R.self, from: response.body)
        } catch {
            throw IdentityToolkitError.malformedResponse(String(describing: error))
        }
    }

    static func serverMessage(in body: Data, status: Int) -> String {
        struct Envelope: Decodable {
            struct Body: Decodable { let message: String? }
            let error: Body?
        }
        if let envelope = try? decoder().decode(Envelope.self, from: body), let message = envelope.error?.message {
            return message
        }
        // Not an Identity Toolkit answer (a proxy's or web server's page, or nothing): say so, with its text
        // without markup, cut on a character.
        let text = String(decoding: body, as: UTF8.self)
            .replacingOccurrences(of: "<[^>]*>", with: " ", options: .regularExpression)
            .split(whereSeparator: \.isWhitespace).joined(separator: " ")
        let shown = text.isEmpty ? "an empty body" : "\"\(text.count > 120 ? text.prefix(119) + "…" : text)\""
        let hint = status == 404 ? " Is this address an Auth Emulator or Identity Toolkit? Check the host, port and project." : ""
        return "\(nonAPICodePrefix)\(status) : The server answered HTTP \(status) with \(shown), not an Identity Toolkit error.\(hint)"
    }

    /// The code of an answer that is not an Identity Toolkit error: `HTTP_404`.
    public static let nonAPICodePrefix = "HTTP_"
}

/// Sends typed requests through a `WireHandler` in the same process.
public struct InProcessTransport: IdentityBackend {
    public let handler: any WireHandler
    public let apiKey: String
    public let exchanges: ExchangeLog
    /// The credential of administrator requests, sent as `Authorization: Bearer …` in place of the API key.
    public let administrator: (any AdministratorCredential)?
    private let clock: @Sendable () -> Date

    public init(handler: any WireHandler, apiKey: String = "authdeck-embedded", exchanges: ExchangeLog = ExchangeLog(),
                administrator: (any AdministratorCredential)? = nil, clock: @escaping @Sendable () -> Date = Date.init) {
        self.handler = handler
        self.apiKey = apiKey
        self.exchanges = exchanges
        self.administrator = administrator
        self.clock = clock
    }

    public func call<R: IdentityRequest>(_ request: R) async throws -> R.Response {
        let path = request.resolvedEndpoint.emulatorPath
        let body = R.httpMethod == "GET" ? Data() : try WireCoding.encoder().encode(request)
        var headers = ["x-goog-api-key": apiKey, "content-type": "application/json"]
        var authorization: String?
        if R.self is any AdministratorRequest.Type || R.self is any EmulatorAdministratorRequest.Type, let administrator {
            let token = try await administrator.bearerToken()
            headers = ["authorization": "Bearer \(token)", "content-type": "application/json"]
            authorization = "Bearer " + Redaction.hide(token)
        }
        let wire = WireRequest(method: R.httpMethod, path: path, headers: headers, body: body)
        let started = clock()
        let response = await handler.handle(wire)
        await exchanges.record(Exchange(
            date: started, method: wire.method, path: path, status: response.status,
            latency: clock().timeIntervalSince(started), requestBody: body, responseBody: response.body,
            authorization: authorization))
        return try WireCoding.decode(R.Response.self, from: response)
    }
}
