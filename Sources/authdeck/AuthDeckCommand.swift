import AppData
import ArgumentParser
import AuthClient
import AuthDeckApp
import Foundation
import IdentityEmulator
import IdentityToolkit
import Logging
import TerminalUI

/// The console (the TUI): `authdeck` without a subcommand.
struct AuthDeckCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "console",
        abstract: "The account console (the default command).",
        discussion: """
            Runs on an embedded Identity-Toolkit-compatible backend (SQLite, no set-up, no network), \
            or on a Firebase Auth Emulator (--emulator, or FIREBASE_AUTH_EMULATOR_HOST), or on a real \
            Firebase project (--project with --api-key). Data, keys, the saved session and the log \
            live in the data directory.
            """)

    @Option(name: .long, help: ArgumentHelp("Data directory (default: $XDG_DATA_HOME/authdeck, else ~/.local/share/authdeck).", valueName: "DIR"))
    var data: String?

    @Flag(name: .long, help: "Draw without colour (also when NO_COLOR is set or TERM=dumb).")
    var noColor = false

    @Option(name: .long, help: ArgumentHelp("Embedded backend: seconds after a sign-in during which sensitive operations are allowed (default 300). Lower it to demo reauthentication.", valueName: "SECONDS"))
    var recentLoginWindow: Int?

    @Option(name: .long, help: ArgumentHelp("Use the Firebase Auth Emulator (or `authdeck serve`) at HOST:PORT; overrides FIREBASE_AUTH_EMULATOR_HOST. A serve with --admin-token shows its outboxes only when AUTHDECK_ADMIN_TOKEN holds that token.", valueName: "HOST:PORT"))
    var emulator: String?

    @Option(name: .long, help: ArgumentHelp("Use this real Firebase / Identity Platform project (needs --api-key).", valueName: "ID"))
    var project: String?

    @Option(name: .long, help: ArgumentHelp("The project's Web API key (with --project); AUTHDECK_API_KEY keeps it out of the process list.", valueName: "KEY"))
    var apiKey: String?

    @Option(name: .long, help: ArgumentHelp("Set by `authdeck ssh` for its consoles: the session lives in memory only, and a visitor's outbox shows only its own messages.", valueName: "visitor|operator", visibility: .hidden))
    var sshRole: SSHConsoleRole?

    func validate() throws {
        let choice = try backendChoice()
        if let recentLoginWindow {
            guard recentLoginWindow >= 1 else { throw ValidationError("--recent-login-window must be at least 1 second.") }
            guard choice == .embedded else {
                throw ValidationError("--recent-login-window applies to the embedded backend only; the emulator or project decides it.")
            }
        }
    }

    func backendChoice() throws -> BackendChoice {
        try BackendChoice.resolve(emulator: emulator, project: project, apiKey: apiKey,
                                  environment: ProcessInfo.processInfo.environment)
    }

    func run() async throws {
        let directory = try StartupSteps.openDataDirectory(explicit: data)
        let logger = Logger(label: "authdeck")

        let choice = try backendChoice()
        // The identity database is checked first: a damaged one stops the start before anything is created.
        var embedded: EmbeddedBackend?
        if choice == .embedded {
            var configuration = EmbeddedBackendConfiguration()
            configuration.recentLoginWindow = TimeInterval(recentLoginWindow ?? 300)
            embedded = try StartupSteps.openEmbeddedBackend(in: directory, configuration: configuration, logger: logger)
        }
        let cart: CartStore
        do {
            cart = try CartStore(path: directory.file("appdata.sqlite").path)
        } catch {
            logger.critical("cannot open the data", metadata: ["error": "\(error)"])
            throw StartupError(String(describing: error))
        }
        let backendName = sshRole?.statusName ?? choice.statusName(dataDirectory: directory.url, home: ProcessInfo.processInfo.environment["HOME"])
        let sessionStore: any SessionStore = sshRole == nil ? FileSessionStore(url: directory.file(choice.sessionFileName)) : InMemorySessionStore()
        switch choice {
        case .embedded:
            guard let backend = embedded else { return }
            let transport = backend.transport()
            try await runConsole(auth: Auth(backend: transport, sessionStore: sessionStore), cart: cart,
                                 outbox: AuthEmulatorOutbox(backend: transport, projectId: backend.projectId),
                                 backendName: backendName, directory: directory, logger: logger)
            // Closed, the database is stamped intact: the next start skips reading all of it.
            do { try backend.close() } catch { logger.warning("could not close the data", metadata: ["error": "\(error)"]) }
        case let .emulator(address):
            // The emulator takes any non-empty API key. An `authdeck serve --admin-token` keeps its outboxes
            // for administrators: the same variable that gives serve its token gives it to the console.
            let adminToken = ProcessInfo.processInfo.environment[ServeCommand.adminTokenVariable].flatMap { $0.isEmpty ? nil : $0 }
            let transport = HTTPTransport(target: .emulator(address), apiKey: "authdeck", emulatorAdminToken: adminToken)
            try await withHTTPTransport(transport) { transport in
                // The emulator's outboxes are per project; the Firebase tools name it in GCLOUD_PROJECT.
                let projectId = ProcessInfo.processInfo.environment["GCLOUD_PROJECT"] ?? EmbeddedBackendConfiguration.defaultProjectId
                // A served backend may be shared (an admin token, `authdeck ssh`): the people this console adds
                // at the simulated providers are its own, under a secret that lives as long as the console.
                try await runConsole(auth: Auth(backend: transport, sessionStore: sessionStore), cart: cart,
                               outbox: AuthEmulatorOutbox(backend: transport, projectId: projectId),
                               simulatedIdentityOwner: Self.newOwnerSecret(),
                               backendName: backendName, directory: directory, logger: logger)
            }
        case let .project(_, apiKey):
            try await withHTTPTransport(HTTPTransport(target: .production, apiKey: apiKey)) { transport in
                try await runConsole(auth: Auth(backend: transport, sessionStore: sessionStore), cart: cart, outbox: nil,
                                     backendName: backendName, directory: directory, logger: logger)
            }
        }
        logger.info("console quit")
    }

    /// The terminal is made, used and given back on its own thread (`TerminalThread`).
    private func runConsole(auth: Auth, cart: CartStore, outbox: AuthEmulatorOutbox?, simulatedIdentityOwner: String? = nil,
                            backendName: String, directory: DataDirectory, logger: Logger) async throws {
        let noColor = noColor
        let dataPath = directory.url.path
        let audience = sshRole?.audience ?? .everyone
        try await TerminalThread.run {
            let terminal: Terminal
            do {
                terminal = try Terminal()
                try terminal.start(noColor: noColor)
            } catch {
                throw StartupError("AuthDeck needs an interactive terminal (\(error)).")
            }
            logger.info("console started", metadata: ["data": "\(dataPath)", "backend": "\(backendName)"])
            defer { terminal.stop() }
            try ConsoleApp.run(terminal: terminal, auth: auth, cart: cart, outbox: outbox, simulatedIdentityOwner: simulatedIdentityOwner,
                               audience: audience, backendName: backendName, logger: logger)
        }
    }

    /// 32 random bytes as hex.
    private static func newOwnerSecret() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<32).map { _ in String(format: "%02x", UInt8.random(in: .min ... .max, using: &generator)) }.joined()
    }

    /// Runs `body` and then closes the transport's connections, whether `body` threw or not.
    private func withHTTPTransport(_ transport: HTTPTransport, _ body: (HTTPTransport) async throws -> Void) async throws {
        let result: Result<Void, any Error>
        do {
            try await body(transport)
            result = .success(())
        } catch {
            result = .failure(error)
        }
        try? await transport.shutdown()
        try result.get()
    }
}

/// A failure before the console starts: printed as one clear line, without the usage text
/// (the command line was fine; the environment was not).
struct StartupError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// What a console started by `authdeck ssh` is for.
enum SSHConsoleRole: String, ExpressibleByArgument {
    case visitor
    case `operator`

    /// The title bar says, all the time, that the backend is shared.
    var statusName: String {
        switch self {
        case .visitor: "shared demo server"
        case .operator: "shared demo server (operator)"
        }
    }

    var audience: ConsoleAudience {
        switch self {
        case .visitor: .visitor
        case .operator: .everyone
        }
    }
}
