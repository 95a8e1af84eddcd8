import AsyncHTTPClient
import Foundation
import NIOCore
import NIOFoundationCompat
import NIOPosix
import Synchronization

/// Sends typed requests over HTTP to the Firebase Auth Emulator (or `authdeck serve`) or to
/// Google's production endpoints. The JSON is the same as in process; server errors decode to
/// the same `IdentityToolkitError.server`, so one mapping to `AuthErrorCode` (in AuthClient) serves every backend.
///
/// Owns an `HTTPClient`: call `shutdown()` once the transport is no longer used.
public final class HTTPTransport: IdentityBackend {
    public let target: HTTPBackendTarget
    public let exchanges: ExchangeLog
    private let apiKey: String
    /// Sent as `Authorization: Bearer …` on the emulator's administrator endpoints (the outboxes),
    /// which `authdeck serve --admin-token` guards; never on client calls, which must stay app calls.
    private let emulatorAdminToken: String?
    /// Sent as `Authorization: Bearer …` on administrator requests (`projects/{projectId}/…`), in place of the API key.
    private let administrator: (any AdministratorCredential)?
    private let configuration: HTTPClient.Configuration
    /// Made at the first request: a console's first frame needs no connection, and a client starts
    /// the event loop threads (each SSH visitor is a console process of its own).
    private let clientState = Mutex(ClientState.notMade)
    private let requestTimeout: TimeAmount

    private enum ClientState {
        case notMade
        case made(HTTPClient)
        case shutDown
    }

    /// A response larger than this is refused rather than buffered.
    static let maxResponseSize = 8 * 1024 * 1024

    /// - Parameters:
    ///   - apiKey: the project's Web API key; the emulator accepts any non-empty key.
    ///   - emulatorAdminToken: the administrator secret of an `authdeck serve --admin-token`, for its outboxes.
    ///   - administrator: the credential of administrator requests (`owner`, an admin token, a service account's access token).
    ///   - connectTimeout: how long to wait for a TCP connection.
    ///   - requestTimeout: how long a whole exchange may take, connection included.
    public init(target: HTTPBackendTarget, apiKey: String, exchanges: ExchangeLog = ExchangeLog(), emulatorAdminToken: String? = nil,
                administrator: (any AdministratorCredential)? = nil, connectTimeout: Duration = .seconds(10), requestTimeout: Duration = .seconds(30)) {
        self.target = target
        self.apiKey = apiKey
        self.emulatorAdminToken = emulatorAdminToken
        self.administrator = administrator
        self.exchanges = exchanges
        self.requestTimeout = TimeAmount(requestTimeout)
        var configuration = HTTPClient.Configuration()
        configuration.timeout = .init(connect: TimeAmount(connectTimeout), read: TimeAmount(requestTimeout))
        // A refused connection fails the call at once instead of being retried until the deadline:
        // the operator should see "cannot connect" now, not a timeout in 30 seconds.
        configuration.connectionPool.retryConnectionEstablishment = false
        configuration.redirectConfiguration = .disallow
        self.configuration = configuration
    }

    private func client() throws -> HTTPClient {
        try clientState.withLock { state in
            switch state {
            case let .made(client):
                return client
            case .notMade:
                let client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
                state = .made(client)
                return client
            case .shutDown:
                throw HTTPClientError.alreadyShutdown
            }
        }
    }

    /// The full URL of an endpoint, with the API key as the SDKs send it (`?key=`).
    public func url(for endpoint: Endpoint) -> String {
        let base = target.baseURL(for: endpoint)
        return base + (base.contains("?") ? "&key=" : "?key=") + (apiKey.addingPercentEncoding(withAllowedCharacters: .urlQueryValueAllowed) ?? apiKey)
    }

    public func call<R: IdentityRequest>(_ request: R) async throws -> R.Response {
        let endpoint = request.resolvedEndpoint
        // The emulator's own endpoints (outboxes, the simulated providers) do not exist at Google.
        if endpoint.host == .emulator, target == .production {
            throw IdentityToolkitError.server(status: 404, message: "NOT_FOUND : \(endpoint.emulatorPath) exists only on emulators")
        }
        let isGet = R.httpMethod == "GET"
        let isDelete = R.httpMethod == "DELETE"
        let body = isGet || isDelete ? Data() : try WireCoding.encoder().encode(request)
        // An administrator request carries the administrator's token instead of the app's key; so does an
        // emulator administrator's request where no emulator token was given (an administrator's transport).
        let forAdministrator = R.self is any AdministratorRequest.Type || (emulatorAdminToken == nil && R.self is any EmulatorAdministratorRequest.Type)
        let administrator = forAdministrator ? self.administrator : nil
        var http = HTTPClientRequest(url: administrator == nil ? url(for: endpoint) : target.baseURL(for: endpoint))
        http.method = isGet ? .GET : isDelete ? .DELETE : .POST
        http.headers.add(name: "Accept", value: "application/json")
        if !body.isEmpty {
            http.headers.add(name: "Content-Type", value: "application/json")
            http.body = .bytes(ByteBuffer(bytes: body))
        }
        // The inspector shows that a credential went with the call, never the credential itself.
        var authorization: String?
        if let emulatorAdminToken, R.self is any EmulatorAdministratorRequest.Type {
            http.headers.add(name: "Authorization", value: "Bearer \(emulatorAdminToken)")
            authorization = "Bearer " + Redaction.hide(emulatorAdminToken)
        }
        if let administrator {
            let token = try await administrator.bearerToken()
            http.headers.add(name: "Authorization", value: "Bearer \(token)")
            authorization = "Bearer " + Redaction.hide(token)
        }

        let date = Date()
        let started = ContinuousClock.now
        let response: WireResponse
        do {
            let answer = try await client().execute(http, timeout: requestTimeout)
            let bytes = try await answer.body.collect(upTo: Self.maxResponseSize)
            response = WireResponse(status: Int(answer.status.code), body: Data(buffer: bytes))
        } catch {
            let failure = IdentityToolkitError.network(describe(error))
            await exchanges.record(Exchange(
                date: date, method: R.httpMethod, path: target.recordedPath(for: endpoint), status: 0,
                latency: Self.seconds(ContinuousClock.now - started), requestBody: body,
                responseBody: Self.transportErrorBody(failure), authorization: authorization))
            throw failure
        }
        await exchanges.record(Exchange(
            date: date, method: R.httpMethod, path: target.recordedPath(for: endpoint), status: response.status,
            latency: Self.seconds(ContinuousClock.now - started), requestBody: body, responseBody: response.body,
            authorization: authorization))
        return try WireCoding.decode(R.Response.self, from: response)
    }

    /// Closes the connections. Calls made afterwards fail with `networkError`.
    public func shutdown() async throws {
        let previous = clientState.withLock { state in
            defer { state = .shutDown }
            return state
        }
        if case let .made(client) = previous { try await client.shutdown() }
    }

    /// One sentence for the operator that names the backend and what went wrong.
    private func describe(_ error: any Error) -> String {
        switch error {
        case let error as HTTPClientError where error == .connectTimeout:
            return "no connection to \(target) within the connect timeout"
        case let error as HTTPClientError where error == .getConnectionFromPoolTimeout:
            return "too many calls were waiting for a connection to \(target)"
        case let error as HTTPClientError where [.readTimeout, .deadlineExceeded].contains(error):
            return "no answer from \(target) within \(Double(requestTimeout.nanoseconds) / 1e9) seconds"
        case let error as HTTPClientError where error == .remoteConnectionClosed:
            return "\(target) closed the connection before answering"
        case let error as HTTPClientError where error == .alreadyShutdown:
            return "the connection to \(target) was shut down"
        case is NIOTooManyBytesError:
            return "the answer from \(target) was larger than \(Self.maxResponseSize / 1024 / 1024) MiB"
        case let error as NIOConnectionError:
            if error.connectionErrors.contains(where: { ($0.error as? IOError)?.errnoCode == ECONNREFUSED }) {
                return "\(target) refused the connection (is it running?)"
            }
            if error.connectionErrors.isEmpty, error.dnsAError != nil || error.dnsAAAAError != nil {
                return "the host name \(error.host) could not be resolved"
            }
            return "cannot reach \(target): \(error)"
        case let error as IOError where error.errnoCode == ECONNREFUSED:
            return "\(target) refused the connection (is it running?)"
        default:
            return "cannot reach \(target): \(error)"
        }
    }

    /// The inspector shows a failed call like any other; this body says it never reached a server.
    private static func transportErrorBody(_ error: IdentityToolkitError) -> Data {
        guard case let .network(message) = error else { return Data() }
        return (try? JSONSerialization.data(withJSONObject: ["transportError": message], options: [.sortedKeys])) ?? Data()
    }

    private static func seconds(_ duration: Duration) -> TimeInterval {
        TimeInterval(duration.components.seconds) + TimeInterval(duration.components.attoseconds) / 1e18
    }
}

/// Where an HTTP backend lives: a Firebase Auth Emulator (or `authdeck serve`), or Google.
public enum HTTPBackendTarget: Sendable, Hashable, CustomStringConvertible {
    /// `http://HOST:PORT/<production host><path>`, the emulator's URL scheme.
    case emulator(EmulatorAddress)
    /// `https://identitytoolkit.googleapis.com/v1|v2/…` and `https://securetoken.googleapis.com/v1/token`.
    case production

    func baseURL(for endpoint: Endpoint) -> String {
        switch self {
        case let .emulator(address): "http://\(address.authority)\(endpoint.emulatorPath)"
        case .production: "https://\(endpoint.host.rawValue)\(endpoint.path)"
        }
    }

    /// What the inspector shows as the path: the one on the wire, without the API key. For the
    /// emulator that is the same path the embedded backend records; for Google, the full URL.
    public func recordedPath(for endpoint: Endpoint) -> String {
        switch self {
        case .emulator: endpoint.emulatorPath
        case .production: baseURL(for: endpoint)
        }
    }

    public var description: String {
        switch self {
        case let .emulator(address): "the emulator at \(address.authority)"
        case .production: "Google's Identity Toolkit"
        }
    }
}

/// `host:port` as `FIREBASE_AUTH_EMULATOR_HOST` spells it (no scheme); IPv6 hosts in brackets.
public struct EmulatorAddress: Sendable, Hashable, CustomStringConvertible {
    public let host: String
    public let port: Int

    public init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    /// Parses `localhost:9099`, `127.0.0.1:9099` or `[::1]:9099`; nil for anything else.
    public init?(_ text: String) {
        let text = text.trimmingCharacters(in: .whitespaces)
        guard !text.contains("/"), let colon = text.lastIndex(of: ":"),
              let port = Int(text[text.index(after: colon)...]), (1...65535).contains(port) else { return nil }
        var host = String(text[..<colon])
        if host.hasPrefix("[") && host.hasSuffix("]") {
            host = String(host.dropFirst().dropLast())
            guard host.contains(":") else { return nil }
        } else if host.contains(":") || host.contains("[") || host.contains("]") {
            return nil
        }
        guard !host.isEmpty, !host.contains(where: { $0.isWhitespace || $0 == "@" || $0 == "?" || $0 == "#" }) else { return nil }
        self.host = host
        self.port = port
    }

    /// `host:port`, with IPv6 hosts in brackets as URLs need them.
    public var authority: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }

    public var description: String { authority }
}

extension CharacterSet {
    /// Query-value characters: unreserved only, so `&`, `=` and `+` in a key cannot change the query.
    static let urlQueryValueAllowed = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
}
