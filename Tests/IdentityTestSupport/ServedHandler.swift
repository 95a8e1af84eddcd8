import IdentityServer
import IdentityToolkit
import Logging
import ServiceLifecycle

/// Runs `body` with `handler` served over HTTP on a free loopback port (as `authdeck serve` serves a
/// backend), the port given; afterwards stops the server, whatever `body` did.
public func withServedHandler<T>(
    _ handler: any WireHandler,
    idleTimeout: Duration = IdentityServer.idleTimeout,
    isolation: isolated (any Actor)? = #isolation,
    _ body: (Int) async throws -> T
) async throws -> T {
    var logger = Logger(label: "authdeck.test-server")
    logger.logLevel = .warning
    let (ports, portContinuation) = AsyncStream<Int>.makeStream()
    let application = IdentityServer(backend: handler, host: "127.0.0.1", port: 0, idleTimeout: idleTimeout, logger: logger)
        .application { port in portContinuation.yield(port) }
    let group = ServiceGroup(configuration: .init(services: [application], logger: logger))
    let serving = Task {
        // Ends the wait for a port when the server could not start.
        defer { portContinuation.finish() }
        try await group.run()
    }
    var iterator = ports.makeAsyncIterator()
    guard let port = await iterator.next() else {
        try await serving.value
        throw TestBackendError.serverDidNotStart
    }
    let result: Result<T, any Error>
    do {
        result = .success(try await body(port))
    } catch {
        result = .failure(error)
    }
    await group.triggerGracefulShutdown()
    try await serving.value
    return try result.get()
}
