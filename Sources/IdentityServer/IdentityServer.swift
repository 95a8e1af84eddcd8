import Foundation
import Hummingbird
import HummingbirdCore
import IdentityToolkit
import Logging
import NIOCore
import ServiceLifecycle

/// The embedded backend over HTTP on the Firebase Auth Emulator's paths (`authdeck serve`).
/// Every request goes to the backend's `handle(WireRequest)` unchanged; the server adds only
/// what HTTP itself needs: a body-size limit, the bounds of `ConnectionLimits` and a log line per request.
public struct IdentityServer: Sendable {
    /// Requests with a larger body are refused with 413 before the backend sees them.
    public static let maxRequestBodySize = 1024 * 1024
    /// A connection that sends nothing for this long is closed, one in the middle of a request's body
    /// included, so a client that stops half-way cannot hold it open. Longer than AsyncHTTPClient's 60 s pool
    /// idle time, so a client's kept-alive connection is never closed just as it sends the next request.
    public static let idleTimeout: Duration = .seconds(75)

    public let backend: any WireHandler
    public let host: String
    public let port: Int
    let idleTimeout: Duration
    let limits: ConnectionLimits
    let logger: Logger

    public init(backend: any WireHandler, host: String = "127.0.0.1", port: Int = 9099, idleTimeout: Duration = idleTimeout,
                limits: ConnectionLimits = ConnectionLimits(), logger: Logger = Logger(label: "authdeck.serve")) {
        self.backend = backend
        self.host = Self.unbracketed(host)
        self.port = port
        self.idleTimeout = idleTimeout
        self.limits = limits
        self.logger = logger
    }

    /// A Hummingbird application that serves until it is cancelled or shut down gracefully (run it
    /// in a `ServiceGroup`). `onListening` gets the bound port, which is the real one when `port` is 0.
    /// Its connections run on the backend's preferred executor, where the backend answers without a
    /// hop to other threads.
    public func application(onListening: @escaping @Sendable (Int) async -> Void = { _ in }) -> some Service {
        let ledger = ConnectionLedger(limits: limits)
        MemoryTrim.mapLargeBlocks()
        let logger = logger
        return ExecutorPreferringService(executor: backend.preferredExecutor, service: Application(
            responder: BackendResponder(backend: backend, logger: logger),
            server: .http1(configuration: HTTP1Channel.Configuration(
                additionalChannelHandlers: [ConnectionGuard(ledger: ledger, logger: logger)], idleTimeout: TimeAmount(idleTimeout))),
            configuration: ApplicationConfiguration(address: .hostname(host, port: port), serverName: "authdeck"),
            onServerRunning: { channel in await onListening(channel.localAddress?.port ?? port) },
            logger: logger))
    }

    /// Whether `host` only accepts connections from this machine. Anything else needs an admin
    /// token, since the emulator's `Bearer owner` convention would hand out admin rights to anyone.
    public static func isLoopback(_ host: String) -> Bool {
        let bare = unbracketed(host)
        if bare.lowercased() == "localhost" || bare == "::1" { return true }
        let octets = bare.split(separator: ".", omittingEmptySubsequences: false)
        return octets.count == 4 && octets[0] == "127" && octets.allSatisfy { UInt8($0) != nil }
    }

    /// `[::1]` → `::1`: URLs bracket IPv6 addresses, but binding takes the bare address.
    static func unbracketed(_ host: String) -> String {
        host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
    }
}

/// Runs a service with a task executor preference, which its child tasks (the server's connections) inherit.
struct ExecutorPreferringService<Wrapped: Service>: Service {
    let executor: (any TaskExecutor)?
    let service: Wrapped

    func run() async throws {
        try await withTaskExecutorPreference(executor) { try await service.run() }
    }
}

/// A request's context with its connection, which a CONNECT answer closes.
struct ServerRequestContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    let channel: any Channel

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        channel = source.channel
    }
}

/// Hands each HTTP request to the backend as a `WireRequest` and its answer back as HTTP.
struct BackendResponder: HTTPResponder {
    typealias Context = ServerRequestContext

    let backend: any WireHandler
    let logger: Logger

    func respond(to request: Request, context: Context) async throws -> Response {
        if request.method == .connect { return Self.refuseConnect(on: context.channel) }
        let started = ContinuousClock.now
        let answer = await answer(request)
        let elapsed = ContinuousClock.now - started
        // The query is left out: it carries the API key.
        logger.info("request", metadata: [
            "method": .string(request.method.rawValue), "path": .string(request.uri.path), "status": .string(String(answer.status)),
            "ms": .string(String(elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000)),
        ])
        var headers: HTTPFields = [.contentType: "application/json; charset=UTF-8"]
        // Out of file descriptors, say: worth another try a moment later (a refused database is not).
        if let seconds = answer.retryAfter { headers[.retryAfter] = String(seconds) }
        return Response(status: HTTPResponse.Status(code: answer.status), headers: headers,
                        body: ResponseBody(byteBuffer: ByteBuffer(bytes: answer.body)))
    }

    private func answer(_ request: Request) async -> WireResponse {
        if let length = request.headers[.contentLength].flatMap(Int.init), length > IdentityServer.maxRequestBodySize {
            return Self.payloadTooLarge
        }
        let body: ByteBuffer
        do {
            body = try await request.body.collect(upTo: IdentityServer.maxRequestBodySize)
        } catch is NIOTooManyBytesError {
            return Self.payloadTooLarge
        } catch {
            return WireResponse(status: 400, body: WireCoding.errorBody(status: 400, message: "INVALID_ARGUMENT : The request body could not be read."))
        }
        var headers: [String: String] = [:]
        for field in request.headers {
            headers[field.name.canonicalName, default: ""] += headers[field.name.canonicalName] == nil ? field.value : ", " + field.value
        }
        return await backend.handle(WireRequest(
            method: request.method.rawValue, path: request.head.path ?? "/", headers: headers,
            body: Data(body.readableBytesView)))
    }

    /// A proxy request. SwiftNIO sends no body and no length in any answer to CONNECT (a 2xx one would
    /// open a tunnel), so the client reads the answer to the end of the connection: the connection's
    /// output is closed once the 405 is written, which ends the answer cleanly.
    private static func refuseConnect(on channel: any Channel) -> Response {
        Response(status: .methodNotAllowed, headers: [.allow: "GET, POST", .connection: "close"],
                 body: ResponseBody { writer in
                     try await writer.finish(nil)
                     channel.close(mode: .output, promise: nil)
                 })
    }

    static let payloadTooLarge = WireResponse(status: 413, body: WireCoding.errorBody(
        status: 413, message: "INVALID_ARGUMENT : Request payload size exceeds the limit: \(IdentityServer.maxRequestBodySize) bytes."))
}
