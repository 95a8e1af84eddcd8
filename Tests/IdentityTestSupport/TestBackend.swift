import Foundation
import IdentityEmulator
import IdentityServer
import IdentityToolkit
import Logging
import ServiceLifecycle
import Synchronization

/// How a test reaches the embedded backend: in process, or over HTTP through the server that
/// `authdeck serve` runs, on loopback. Tests take it as an argument so that the same scenario
/// runs over both: `@Test(arguments: BackendTransport.allCases)`.
public enum BackendTransport: String, CaseIterable, Sendable, CustomStringConvertible {
    case inProcess = "in process"
    case http = "HTTP"

    public var description: String { rawValue }
}

/// A real embedded backend on a temporary data directory, and, for `.http`, its HTTP server on
/// a free loopback port. Obtain one with `withTestBackend`, which also stops it.
public final class TestBackend: Sendable {
    public let transportKind: BackendTransport
    public let directory: URL
    public let backend: EmbeddedBackend
    /// What the HTTP server serves (`.http` only): `backend` as the default project, and any other.
    public let projects: BackendProjects?
    /// `127.0.0.1:PORT` for `.http` (what `FIREBASE_AUTH_EMULATOR_HOST` would say); nil in process.
    public let emulatorAddress: EmulatorAddress?
    private let httpTransports = Mutex<[HTTPTransport]>([])

    init(transportKind: BackendTransport, directory: URL, backend: EmbeddedBackend, projects: BackendProjects?, emulatorAddress: EmulatorAddress?) {
        self.transportKind = transportKind
        self.directory = directory
        self.backend = backend
        self.projects = projects
        self.emulatorAddress = emulatorAddress
    }

    /// A new client-side transport to this backend, with its own exchange log, as a separate
    /// process would have. HTTP transports are shut down when `withTestBackend` returns.
    public func makeTransport(exchanges: ExchangeLog = ExchangeLog()) -> any IdentityBackend {
        guard let emulatorAddress else { return backend.transport(exchanges: exchanges) }
        let transport = HTTPTransport(target: .emulator(emulatorAddress), apiKey: "test-api-key", exchanges: exchanges,
                                      // Generous: the suite runs tests in parallel on few cores, and a
                                      // call queued behind busy connections waits under this timeout.
                                      connectTimeout: .seconds(60), requestTimeout: .seconds(120))
        httpTransports.withLock { $0.append(transport) }
        return transport
    }

    /// A transport whose administrator requests carry `administrator` (`Bearer owner` unless told),
    /// as the Admin SDKs' calls do.
    public func makeAdministratorTransport(_ administrator: any AdministratorCredential = StaticAdministratorCredential.owner,
                                           exchanges: ExchangeLog = ExchangeLog()) -> any IdentityBackend {
        guard let emulatorAddress else { return InProcessTransport(handler: backend, exchanges: exchanges, administrator: administrator) }
        let transport = HTTPTransport(target: .emulator(emulatorAddress), apiKey: "test-api-key", exchanges: exchanges,
                                      administrator: administrator, connectTimeout: .seconds(60), requestTimeout: .seconds(120))
        httpTransports.withLock { $0.append(transport) }
        return transport
    }

    func shutdownTransports() async {
        for transport in httpTransports.withLock({ $0 }) { try? await transport.shutdown() }
    }
}

/// Runs `body` with a fresh embedded backend reached through `transport`; afterwards stops the
/// HTTP server and client connections and removes the temporary directory (unless one was given).
public func withTestBackend<T>(
    _ transport: BackendTransport,
    configuration: EmbeddedBackendConfiguration = EmbeddedBackendConfiguration(),
    clock: @escaping @Sendable () -> Date = Date.init,
    directory: URL? = nil,
    isolation: isolated (any Actor)? = #isolation,
    _ body: (TestBackend) async throws -> T
) async throws -> T {
    let root = directory ?? FileManager.default.temporaryDirectory.appendingPathComponent("authdeck-test-\(UUID().uuidString)")
    defer { if directory == nil { try? FileManager.default.removeItem(at: root) } }
    let backend = try EmbeddedBackend(dataDirectory: root, configuration: configuration, clock: clock)
    guard transport == .http else {
        return try await body(TestBackend(transportKind: transport, directory: root, backend: backend, projects: nil, emulatorAddress: nil))
    }
    // Served as `authdeck serve` serves it: the data directory's project, and others on request.
    let projects = BackendProjects(defaultProject: backend, dataDirectory: root)
    return try await withServedHandler(projects) { port in
        let served = TestBackend(transportKind: transport, directory: root, backend: backend, projects: projects,
                                 emulatorAddress: EmulatorAddress(host: "127.0.0.1", port: port))
        do {
            let value = try await body(served)
            await served.shutdownTransports()
            return value
        } catch {
            await served.shutdownTransports()
            throw error
        }
    }
}

public enum TestBackendError: Error {
    case serverDidNotStart
}
