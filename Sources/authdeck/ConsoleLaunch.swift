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
/// casts), and the runtime's conformance scans that sets off took a sixth of a start's CPU.
struct ConsoleLaunch {
    var data: String?
    var noColor = false
    var recentLoginWindow: Int?
    var emulator: String?
    var project: String?
    var apiKey: String?
    var readOnly = false
    var sshRole: SSHConsoleRole?

    /// `[console] [--data DIR] [--no-color] [--emulator HOST:PORT] [--ssh-role ROLE]`, each at most once,
    /// values neither empty nor starting with `-`, and valid; nil for anything else (ArgumentParser then
    /// reads it, with its help, its errors and every other option).
    static func plain(arguments: [String]) -> ConsoleLaunch? {
        var launch = ConsoleLaunch()
        var rest = arguments[...]
        if rest.first == "console" { rest.removeFirst() }
        var seen: Set<String> = []
        while let argument = rest.popFirst() {
            let (name, attached) = argument.firstIndex(of: "=").map { (String(argument[..<$0]), Optional(String(argument[argument.index(after: $0)...]))) }
                ?? (argument, nil)
            guard seen.insert(name).inserted else { return nil }
            if name == "--no-color", attached == nil {
                launch.noColor = true
                continue
            }
            guard let value = attached ?? rest.popFirst(), !value.isEmpty, !value.hasPrefix("-") else { return nil }
            switch name {
            case "--data": launch.data = value
            case "--emulator": launch.emulator = value
            case "--ssh-role":
                guard let role = SSHConsoleRole(rawValue: value) else { return nil }
                launch.sshRole = role
            default: return nil
            }
        }
        return (try? launch.validate()) == nil ? nil : launch
    }

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
        let accounts = try ConsoleAccountsAccess.make(choice: choice, embedded: embedded, role: sshRole, readOnly: readOnly, directory: directory,
                                                      environment: ProcessInfo.processInfo.environment)
        do {
            try await runConsole(choice: choice, embedded: embedded, cart: cart, sessionStore: sessionStore, accounts: accounts.connection,
                                 backendName: backendName, directory: directory, logger: logger)
        } catch {
            await accounts.shutdown()
            throw error
        }
        await accounts.shutdown()
        logger.info("console quit")
    }

    private func runConsole(choice: BackendChoice, embedded: EmbeddedBackend?, cart: CartStore, sessionStore: any SessionStore,
                            accounts: AccountsConnection?, backendName: String, directory: DataDirectory, logger: Logger) async throws {
        switch choice {
        case .embedded:
            guard let backend = embedded else { return }
            let transport = backend.transport()
            try await runConsole(auth: Auth(backend: transport, sessionStore: sessionStore), cart: cart,
                                 outbox: AuthEmulatorOutbox(backend: transport, projectId: backend.projectId),
                                 accounts: accounts, backendName: backendName, directory: directory, logger: logger)
            // Closed, the database is stamped intact: the next start skips reading all of it.
            do { try backend.close() } catch { logger.warning("could not close the data", metadata: ["error": "\(error)"]) }
        case let .emulator(address, project):
            // The emulator takes any non-empty API key. An `authdeck serve --admin-token` keeps its outboxes
            // for administrators: the same variable that gives serve its token gives it to the console.
            let adminToken = ProcessInfo.processInfo.environment[ServeCommand.adminTokenVariable].flatMap { $0.isEmpty ? nil : $0 }
            let transport = HTTPTransport(target: .emulator(address), apiKey: "authdeck", emulatorAdminToken: adminToken)
            try await withHTTPTransport(transport) { transport in
                // The emulator's outboxes are per project: --project, else GCLOUD_PROJECT as the Firebase tools name it;
                // a server that answers with the project it serves is followed to it.
                let projectId = project ?? ProcessInfo.processInfo.environment["GCLOUD_PROJECT"] ?? EmbeddedBackendConfiguration.defaultProjectId
                // A served backend may be shared (an admin token, `authdeck ssh`): the people this console adds
                // at the simulated providers are its own, under a secret that lives as long as the console.
                try await runConsole(auth: Auth(backend: transport, sessionStore: sessionStore), cart: cart,
                               outbox: AuthEmulatorOutbox(backend: transport, projectId: projectId),
                               simulatedIdentityOwner: Self.newOwnerSecret(), accounts: accounts,
                               backendName: backendName, directory: directory, logger: logger)
            }
        case let .project(_, apiKey):
            try await withHTTPTransport(HTTPTransport(target: .production, apiKey: apiKey)) { transport in
                try await runConsole(auth: Auth(backend: transport, sessionStore: sessionStore), cart: cart, outbox: nil,
                                     accounts: accounts, backendName: backendName, directory: directory, logger: logger)
            }
        }
    }

    /// The terminal is made, used and given back on its own thread (`TerminalThread`).
    private func runConsole(auth: Auth, cart: CartStore, outbox: AuthEmulatorOutbox?, simulatedIdentityOwner: String? = nil,
                            accounts: AccountsConnection?, backendName: String, directory: DataDirectory, logger: Logger) async throws {
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
                               audience: audience, accounts: accounts, backendName: backendName, logger: logger)
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
