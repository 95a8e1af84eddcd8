import Foundation
import IdentityEmulator
import IdentityServer
import Logging
import ServiceLifecycle
import SSHServer

/// The embedded backend served to the consoles on loopback. Operators' consoles get the admin
/// token and a key made for this run, and work in the data directory's own project; each visitor's
/// console gets the API key of a project of its own (`VisitorProjects`) and never the token. The
/// backend answers nothing else (`ConsoleBackendGate`).
final class SharedBackend: Sendable {
    let port: Int
    let adminToken: String
    let operatorsKey: String
    let visitors: VisitorSandboxes<VisitorProjects>
    private let task: Task<Void, any Error>
    private let group: ServiceGroup
    private let projects: BackendProjects
    private let sweeper: Task<Void, Never>
    private let logger: Logger

    private init(port: Int, adminToken: String, operatorsKey: String, visitors: VisitorSandboxes<VisitorProjects>, task: Task<Void, any Error>, group: ServiceGroup,
                 projects: BackendProjects, logger: Logger) {
        self.port = port
        self.adminToken = adminToken
        self.operatorsKey = operatorsKey
        self.visitors = visitors
        self.task = task
        self.group = group
        self.projects = projects
        self.logger = logger
        // Hourly: a key-less visitor's project is kept for hours after they leave.
        self.sweeper = visitors.sweepPeriodically(every: .seconds(3600))
    }

    static func start(directory: DataDirectory, visitorSettings: VisitorSandboxes<VisitorProjects>.Settings, recentLoginWindow: TimeInterval?,
                      maxSessions: Int, logger: Logger) async throws -> SharedBackend {
        var generator = SystemRandomNumberGenerator()
        let adminToken = (0..<4).map { _ in String(generator.next(), radix: 16) }.joined()
        let operatorsKey = (0..<4).map { _ in String(generator.next(), radix: 16) }.joined()
        var configuration = EmbeddedBackendConfiguration()
        configuration.adminToken = adminToken
        if let recentLoginWindow { configuration.recentLoginWindow = recentLoginWindow }
        let backend = try StartupSteps.openEmbeddedBackend(in: directory, configuration: configuration, logger: logger)
        let projects = BackendProjects(defaultProject: backend, dataDirectory: directory.url, maximumProjects: visitorSettings.maximum)
        let visitors = VisitorSandboxes(store: VisitorProjects(projects: projects), settings: visitorSettings)
        await visitors.sweep()
        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        // Every console connects from loopback, so one address may take all the connections.
        var limits = ConnectionLimits()
        limits.maxConnections = max(limits.maxConnections, 8 * maxSessions)
        limits.maxConnectionsPerAddress = limits.maxConnections
        let gate = ConsoleBackendGate(backend: projects, adminToken: adminToken, operatorsKey: operatorsKey)
        let application = IdentityServer(backend: gate, host: "127.0.0.1", port: 0, limits: limits, logger: logger).application { port in
            backend.setActionLinkOrigin(host: "127.0.0.1", port: port)
            continuation.yield(port)
            continuation.finish()
        }
        // A service group, so that the stop is a graceful shutdown: cancelling the server's task logs an error.
        let group = ServiceGroup(configuration: .init(services: [application], logger: logger))
        let task = Task { try await group.run() }
        guard let port = await ports.first(where: { _ in true }) else {
            task.cancel()
            throw StartupError("The shared backend did not start: \((try? await task.value).map { "\($0)" } ?? "see the log").")
        }
        return SharedBackend(port: port, adminToken: adminToken, operatorsKey: operatorsKey, visitors: visitors, task: task, group: group, projects: projects, logger: logger)
    }

    /// An operator's console: the data directory's own project, with the admin token. A visitor's:
    /// their project's directory (session and app data stay there), its API key, and a session kept
    /// across connections when the visitor has a key to come back with.
    func plan(for visit: ConsoleVisit, dataPath: String) async throws -> ConsolePlan {
        let backend = ["--emulator", "127.0.0.1:\(port)"]
        switch visit.role {
        case .operator:
            return ConsolePlan(arguments: ["console", "--data", dataPath, "--ssh-role", "operator"] + backend,
                               environment: [ServeCommand.adminTokenVariable: adminToken, BackendChoice.apiKeyVariable: operatorsKey])
        case .visitor:
            let seat = try await visitors.seat(for: visit)
            return ConsolePlan(arguments: ["console", "--data", seat.directory.path, "--ssh-role", "visitor"] + backend
                                   + ["--project", seat.access.projectId] + (seat.keyed ? ["--keep-session"] : []),
                               environment: [BackendChoice.apiKeyVariable: seat.access.apiKey], project: seat.label, name: seat.name,
                               ended: { [visitors] in await visitors.leave(seat.id) })
        }
    }

    func stop() async {
        sweeper.cancel()
        await group.triggerGracefulShutdown()
        // A connection still open after a few seconds is cut.
        let task = task
        let deadline = Task {
            try await Task.sleep(for: .seconds(5))
            task.cancel()
        }
        _ = try? await task.value
        deadline.cancel()
        do {
            try projects.close()
        } catch {
            logger.error("closing the database failed", metadata: ["error": "\(error)"])
        }
    }
}
