import AppData
import ArgumentParser
import AuthClient
import AuthDeckApp
import Foundation
import IdentityEmulator
import IdentityToolkit
import Logging
import TerminalUI

@main
struct AuthDeckCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "authdeck",
        abstract: "A terminal account console for Firebase Authentication.",
        discussion: """
            Runs on an embedded Identity-Toolkit-compatible backend (SQLite, no set-up, no network).
            Data, keys, the saved session and the log live in the data directory.
            """,
        version: "0.1.0")

    @Option(name: .long, help: ArgumentHelp("Data directory (default: $XDG_DATA_HOME/authdeck, else ~/.local/share/authdeck).", valueName: "DIR"))
    var data: String?

    @Flag(name: .long, help: "Draw without colour (also when NO_COLOR is set or TERM=dumb).")
    var noColor = false

    @Option(name: .long, help: ArgumentHelp("Embedded backend: seconds after a sign-in during which sensitive operations are allowed (default 300). Lower it to demo reauthentication.", valueName: "SECONDS"))
    var recentLoginWindow: Int = 300

    func validate() throws {
        guard recentLoginWindow >= 1 else { throw ValidationError("--recent-login-window must be at least 1 second.") }
    }

    func run() async throws {
        let directory: DataDirectory
        do {
            directory = try DataDirectory.prepare(DataDirectory.resolve(explicit: data))
        } catch {
            throw StartupError(String(describing: error))
        }
        let makeHandler = try FileLogHandler.open(directory.file("authdeck.log"))
        LoggingSystem.bootstrap(makeHandler)
        let logger = Logger(label: "authdeck")

        var configuration = EmbeddedBackendConfiguration()
        configuration.recentLoginWindow = TimeInterval(recentLoginWindow)
        let backend: EmbeddedBackend
        let cart: CartStore
        do {
            backend = try EmbeddedBackend(dataDirectory: directory.url, configuration: configuration)
            cart = try CartStore(path: directory.file("appdata.sqlite").path)
        } catch {
            logger.critical("cannot open the data", metadata: ["error": "\(error)"])
            throw StartupError(String(describing: error))
        }
        let transport = backend.transport()
        let auth = Auth(backend: transport, sessionStore: FileSessionStore(url: directory.file("session.json")))
        let outbox = AuthEmulatorOutbox(backend: transport, projectId: backend.projectId)
        let terminal: Terminal
        do {
            terminal = try Terminal()
            try terminal.start(noColor: noColor)
        } catch {
            throw StartupError("AuthDeck needs an interactive terminal (\(error)).")
        }
        logger.info("console started", metadata: ["data": "\(directory.url.path)", "project": "\(backend.projectId)"])
        defer { terminal.stop() }
        try ConsoleApp.run(terminal: terminal, auth: auth, cart: cart, outbox: outbox, backendName: "embedded · \(backend.projectId)", logger: logger)
        logger.info("console quit")
    }
}

/// A failure before the console starts: printed as one clear line, without the usage text
/// (the command line was fine; the environment was not).
struct StartupError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
