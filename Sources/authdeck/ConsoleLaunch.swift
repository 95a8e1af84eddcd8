import AppData
import ArgumentParser
import AuthClient
import AuthDeckApp
import Foundation
import IdentityEmulator
import IdentityToolkit
import Logging
import TerminalUI

/// The console's options as plain values, and the console itself. `AuthDeckCommand` fills it
/// through ArgumentParser; `plain(arguments:)` fills it directly for the command lines people and
/// `authdeck ssh` type most, because ArgumentParser reflects over every command (Mirror, dynamic
/// casts), and the runtime's conformance scans that sets off cost a sixth of a start's CPU.
struct ConsoleLaunch {
    var data: String?
    var noColor = false
    var recentLoginWindow: Int?
    var emulator: String?
    var project: String?
    var apiKey: String?
    var readOnly = false
    var sshRole: SSHConsoleRole?
    var keepSession = false
    /// The teaching pane's language at full width; nil shows all four.
    var sdk: SDKPlatform?
    /// The Identity Platform tenant the console signs in to; nil for the project's own users.
    var tenant: String?
    let environment = Environment.process

    /// `[console] [--data DIR] [--no-color] [--emulator HOST:PORT] [--project ID] [--ssh-role ROLE] [--keep-session] [--sdk LANGUAGE]
    /// [--recent-login-window SECONDS]`, each at most once,
    /// values neither empty nor starting with `-`, and valid; nil for anything else (ArgumentParser then
    /// reads it, with its help, its errors and every other option).
    static func plain(arguments: [String]) -> ConsoleLaunch? {
        var launch = ConsoleLaunch()
        var rest = arguments[...]
        if rest.first == "console" { rest.removeFirst() }
        // An array, not a Set: a Set<String> first made here cost a conformance scan of the whole binary.
        var seen: [String] = []
        while let argument = rest.popFirst() {
            let (name, attached) = argument.firstIndex(of: "=").map { (String(argument[..<$0]), Optional(String(argument[argument.index(after: $0)...]))) }
                ?? (argument, nil)
            guard !seen.contains(name) else { return nil }
            seen.append(name)
            if name == "--no-color", attached == nil {
                launch.noColor = true
                continue
            }
            if name == "--keep-session", attached == nil {
                launch.keepSession = true
                continue
            }
            guard let value = attached ?? rest.popFirst(), !value.isEmpty, !value.hasPrefix("-") else { return nil }
            switch name {
            case "--data": launch.data = value
            case "--emulator": launch.emulator = value
            case "--project": launch.project = value
            case "--tenant": launch.tenant = value
            case "--ssh-role":
                guard let role = SSHConsoleRole(rawValue: value) else { return nil }
                launch.sshRole = role
            case "--sdk":
                guard let sdk = SDKPlatform(option: value) else { return nil }
                launch.sdk = sdk
            case "--recent-login-window":
                guard let seconds = Int(value) else { return nil }
                launch.recentLoginWindow = seconds
            default: return nil
            }
        }
        return (try? launch.validate()) == nil ? nil : launch
    }

    func validate() throws {
        let choice = try backendChoice()
        if let tenant { try ConsoleTenant.validate(tenant) }
        if let recentLoginWindow {
            guard recentLoginWindow >= 1 else { throw ValidationError("--recent-login-window must be at least 1 second.") }
            // Under `authdeck ssh`, the served embedded backend's window, which the console only names.
            guard choice == .embedded || sshRole != nil else {
                throw ValidationError("--recent-login-window applies to the embedded backend only; the emulator or project decides it.")
            }
        }
    }

    /// A visitor's project of its own on the backend `authdeck ssh` serves, which its API key opens:
    /// everything in it is the visitor's, its whole outbox included.
    var ownProject: String? {
        guard sshRole == .visitor, emulator != nil, let project, environment[BackendChoice.apiKeyVariable]?.isEmpty == false else { return nil }
        return project
    }

    func backendChoice() throws -> BackendChoice {
        try BackendChoice.resolve(emulator: emulator, project: project, apiKey: apiKey, environment: environment)
    }

    /// Runs on its caller's executor (the main thread, for `authdeck`) up to the terminal's own thread:
    /// a hop to Swift's cooperative pool first would wait for one of its threads to start.
    nonisolated(nonsending) func run() async throws {
        // Curses takes over the terminal on the terminal's own thread while this one opens the data
        // directory and picks the backend: the first frame waits for the longer of the two, not both.
        let noColor = noColor
        let served = sshRole != nil
        let terminal = TerminalThread { () throws -> Terminal in
            do {
                let terminal = try Terminal()
                // `authdeck ssh` stops its consoles with SIGTERM: the visitor is told why the session ends.
                if served { terminal.farewells[SIGTERM] = SSHConsoleRole.stoppingNotice }
                try terminal.start(noColor: noColor)
                return terminal
            } catch {
                throw StartupError("AuthDeck needs an interactive terminal: \(error).")
            }
        }
        do {
            try await run(terminal: terminal)
        } catch {
            // A start that failed before the console ran gives the terminal back before the error is told.
            await terminal.cancel()
            throw error
        }
    }

    private nonisolated(nonsending) func run(terminal: TerminalThread<Terminal>) async throws {
        let directory = try StartupSteps.openDataDirectory(explicit: data, environment: environment)
        let logger = Logger(label: "authdeck")
        let choice = try backendChoice()
        let backendName = sshRole.map { $0.statusName(project: ownProject) } ?? choice.statusName(dataDirectory: directory.path, home: environment["HOME"])
        // A visitor's data directory is their project's own, on a backend whose port changes at each start.
        // A tenant's session has a file of its own beside the project's, so signing in to one keeps the other.
        let backendSession = tenant.map { choice.sessionFileName.replacingOccurrences(of: ".json", with: "-tenant-\($0).json") } ?? choice.sessionFileName
        let sessionFile = directory.filePath(sshRole == nil ? backendSession : "session.json")
        let keeps = sshRole == nil || keepSession
        let sessionStore: any SessionStore = keeps ? FileSessionStore(url: URL(fileURLWithPath: sessionFile)) : InMemorySessionStore()
        // access(2), not FileManager: making `FileManager.default` is work the first frame can do without.
        let session = SessionPlan(store: sessionStore, saved: keeps && access(sessionFile, F_OK) == 0)
        switch choice {
        case .embedded:
            try await runEmbedded(terminal: terminal, directory: directory, session: session, backendName: backendName, logger: logger)
        case let .emulator(address, project):
            // The emulator takes any non-empty API key. An `authdeck serve --admin-token` keeps its outboxes
            // for administrators: the same variable that gives serve its token gives it to the console.
            let adminToken = environment[ServeCommand.adminTokenVariable].flatMap { $0.isEmpty ? nil : $0 }
            // The emulator's outboxes are per project: --project, else GCLOUD_PROJECT as the Firebase tools name it;
            // a server that answers with the project it serves is followed to it.
            let projectId = project ?? environment["GCLOUD_PROJECT"] ?? EmbeddedBackendConfiguration.defaultProjectId
            // A served backend may be shared (an admin token, `authdeck ssh`): the people this console adds
            // at the simulated providers are its own, under a secret that lives as long as the console.
            // The emulator takes any key; a served backend's project keys (`AUTHDECK_API_KEY`) choose the project.
            var apiKey = environment[BackendChoice.apiKeyVariable].flatMap { $0.isEmpty ? nil : $0 }
            // A shared serve serves a tenant with its own key only: its administrator asks for it.
            if apiKey == nil, let tenant, let adminToken {
                apiKey = await ConsoleTenant.apiKey(of: tenant, projectId: projectId, address: address, adminToken: adminToken)
            }
            try await runRemote(terminal: terminal, choice: choice, transport: HTTPTransport(target: .emulator(address), apiKey: apiKey ?? "authdeck", emulatorAdminToken: adminToken),
                                outboxProject: projectId, simulatedIdentityOwner: Self.newOwnerSecret(),
                                directory: directory, session: session, backendName: backendName, logger: logger)
        case let .project(_, apiKey):
            try await runRemote(terminal: terminal, choice: choice, transport: HTTPTransport(target: .production, apiKey: apiKey), outboxProject: nil,
                                simulatedIdentityOwner: nil, directory: directory, session: session, backendName: backendName, logger: logger)
        }
        logger.info("console quit")
    }

    /// The saved session's store, and whether it holds one (the first screen depends on it).
    private struct SessionPlan {
        let store: any SessionStore
        let saved: Bool
    }

    /// The embedded backend and the app data open on their own thread once the first frame is drawn.
    /// The identity database is checked first: a damaged one stops the start before the app data is created.
    private nonisolated(nonsending) func runEmbedded(terminal: TerminalThread<Terminal>, directory: DataDirectory, session: SessionPlan, backendName: String, logger: Logger) async throws {
        var configuration = EmbeddedBackendConfiguration()
        configuration.recentLoginWindow = TimeInterval(recentLoginWindow ?? RecentLoginWindow.firebase.seconds)
        let opening = OpeningThread(name: "opening data") { [configuration] in
            let backend = try StartupSteps.openEmbeddedBackend(in: directory, configuration: configuration, logger: logger)
            // Every project of the data directory, as `authdeck serve` holds them: an `authdeck ssh` there keeps its visitors'.
            let projects = BackendProjects(defaultProject: backend, dataDirectory: directory.url)
            return (backend: backend, projects: projects, cart: try Self.openCart(in: directory, logger: logger))
        }
        let accounts = try ConsoleAccountsAccess.make(choice: .embedded, embedded: { try await opening.value.projects }, role: sshRole,
                                                      readOnly: readOnly, tenant: tenant, directory: directory, environment: environment)
        let sessionStore = session.store
        let reach: AuthEmulatorOutbox.Reach = sshRole == .visitor ? .project : .everyProject
        let tenant = tenant
        let result: Result<Void, any Error>
        do {
            try await runConsole(terminal: terminal, sessionSaved: session.saved, open: {
                let (backend, projects, cart) = try await opening.value
                // A tenant's requests are routed as `authdeck serve` routes them, through the projects.
                let transport = tenant == nil ? backend.transport() : InProcessTransport(handler: projects)
                if let tenant {
                    try await ConsoleTenant.requireExisting(tenant, projectId: backend.projectId, administrator: projects.administratorTransport(),
                                                            backendName: backendName)
                }
                // The outbox's reads are the session's exchanges too: the inspector lists them beside the rest.
                let outboxTransport = reach == .everyProject || tenant != nil ? projects.administratorTransport(exchanges: transport.exchanges) : transport
                return ConsoleServices(auth: Auth(backend: transport, tenantID: tenant, sessionStore: sessionStore), cart: cart,
                                       outbox: AuthEmulatorOutbox(backend: outboxTransport, projectId: backend.projectId, tenantId: tenant,
                                                                  reach: tenant == nil ? reach : .project))
            }, accounts: accounts.connection, backendName: backendName, directory: directory, logger: logger)
            result = .success(())
        } catch {
            result = .failure(error)
        }
        await accounts.shutdown()
        // Also when the console ended before the backend was open (or asked for it: a terminal that could not
        // start): the process never exits half-way through opening it, and an error opening it is still this start's.
        let opened = await opening.outcome
        if case let .success((backend, projects, _)) = opened {
            projects.closeOtherProjects()
            // Closed, the database is stamped intact: the next start skips reading all of it.
            do { try backend.close() } catch { logger.warning("could not close the data", metadata: ["error": "\(error)"]) }
        }
        try result.get()
        _ = try opened.get()
    }

    private static func openCart(in directory: DataDirectory, logger: Logger) throws -> CartStore {
        do {
            return try CartStore(path: directory.filePath("appdata.sqlite"))
        } catch {
            logger.critical("cannot open the data", metadata: ["error": "\(error)"])
            throw StartupError(String(describing: error))
        }
    }

    /// The Firebase Auth Emulator or a real project over HTTP; the app data opens at its first use (a visitor
    /// who leaves before signing in never opens it). `outboxProject`: the project whose outboxes are read, nil where there are none.
    private nonisolated(nonsending) func runRemote(terminal: TerminalThread<Terminal>, choice: BackendChoice, transport: HTTPTransport, outboxProject: String?, simulatedIdentityOwner: String?,
                           directory: DataDirectory, session: SessionPlan, backendName: String, logger: Logger) async throws {
        let accounts: ConsoleAccountsAccess
        do {
            accounts = try ConsoleAccountsAccess.make(choice: choice, embedded: nil, role: sshRole, readOnly: readOnly, tenant: tenant,
                                                      directory: directory, environment: environment)
        } catch {
            try? await transport.shutdown()
            throw error
        }
        let cart = CartStore(openingAtFirstUse: directory.filePath("appdata.sqlite"))
        let sessionStore = session.store
        let tenant = tenant
        let tenantCheck = tenant.flatMap { ConsoleTenantCheck(tenant: $0, choice: choice, environment: environment, backendName: backendName) }
        let result: Result<Void, any Error>
        do {
            try await runConsole(terminal: terminal, sessionSaved: session.saved, open: {
                do {
                    try await tenantCheck?.run()
                } catch let IdentityToolkitError.network(reason) {
                    // Told as the console's last words on the terminal: a sentence, not the error's case.
                    throw StartupError("AuthDeck could not start: \(reason). Try again in a moment.")
                }
                return ConsoleServices(auth: Auth(backend: transport, tenantID: tenant, sessionStore: sessionStore), cart: cart,
                                       outbox: outboxProject.map {
                                           AuthEmulatorOutbox(backend: transport, projectId: $0, tenantId: tenant,
                                                              reach: sshRole == .operator && tenant == nil ? .everyProject : .project)
                                       })
            }, simulatedIdentityOwner: simulatedIdentityOwner, accounts: accounts.connection,
            backendName: backendName, directory: directory, logger: logger)
            result = .success(())
        } catch {
            result = .failure(error)
        }
        await accounts.shutdown()
        try? await transport.shutdown()
        try result.get()
    }

    /// The console's loop on the terminal's thread, which curses was started on (`run()`).
    private nonisolated(nonsending) func runConsole(terminal: TerminalThread<Terminal>, sessionSaved: Bool,
                                                    open: @escaping @Sendable () async throws -> ConsoleServices, simulatedIdentityOwner: String? = nil,
                                                    accounts: AccountsConnection?, backendName: String, directory: DataDirectory, logger: Logger) async throws {
        let dataPath = directory.path
        let audience = sshRole.map { ownProject != nil ? .everyone : $0.audience } ?? .everyone
        // Logged as the services open, once the first frame is drawn: a process's first log line reads the time
        // zone file (glibc's gmtime_r does, for UTC too). The fields in the message, as the log writes metadata:
        // a metadata dictionary cost a scan of every protocol conformance.
        let logStartThenOpen: @Sendable () async throws -> ConsoleServices = {
            logger.info("console started backend=\(backendName) data=\(dataPath)")
            return try await open()
        }
        // Under `authdeck ssh`, the room channel the server gave this console.
        let room = sshRole == nil ? nil : RoomClient(variable: environment[RoomClient.variable])
        let sdk = sdk
        let tenant = tenant
        // The embedded backend's option (`authdeck ssh` passes its own on); an emulator's or a project's window is Firebase's.
        let recentLoginWindow = recentLoginWindow.map(RecentLoginWindow.init(seconds:)) ?? .firebase
        try await terminal.run { terminal in
            defer { terminal.stop() }
            try ConsoleApp.run(terminal: terminal, sessionSaved: sessionSaved, open: logStartThenOpen, simulatedIdentityOwner: simulatedIdentityOwner,
                               audience: audience, accounts: accounts, room: room, backendName: backendName, tenant: tenant, remoteTerminal: sshRole != nil,
                               recentLoginWindow: recentLoginWindow, sdk: sdk, logger: logger)
        }
    }

    /// 32 random bytes as hex (not `String(format:)`, whose first use costs a console's start a scan of
    /// every protocol conformance).
    private static func newOwnerSecret() -> String {
        var generator = SystemRandomNumberGenerator()
        let digits = Array("0123456789abcdef".utf8)
        return String(decoding: (0..<32).flatMap { _ in
            let byte = UInt8.random(in: .min ... .max, using: &generator)
            return [digits[Int(byte >> 4)], digits[Int(byte & 0x0f)]]
        }, as: UTF8.self)
    }
}
