import ArgumentParser
import AuthDeckApp

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

    @Option(name: .long, help: ArgumentHelp("Use this real Firebase / Identity Platform project (needs --api-key); with --emulator, the emulator's project whose outbox the console reads.", valueName: "ID"))
    var project: String?

    @Option(name: .long, help: ArgumentHelp("Sign in to this Identity Platform tenant of the project (the SDKs' auth.tenantId): its accounts, tokens and outbox only.", valueName: "ID"))
    var tenant: String?

    @Option(name: .long, help: ArgumentHelp("The project's Web API key (with --project); AUTHDECK_API_KEY keeps it out of the process list.", valueName: "KEY"))
    var apiKey: String?

    @Option(name: .long, help: ArgumentHelp("The teaching pane (s, or F4 in forms) shows this language at full width; l there cycles through all four.", valueName: "swift|kotlin|js|cpp"))
    var sdk: SDKPlatform?

    @Flag(name: .long, help: "Accounts view: show everything, offer no action.")
    var readOnly = false

    @Option(name: .long, help: ArgumentHelp("Set by `authdeck ssh` for its consoles: the session lives in memory only (unless --keep-session), and a visitor without a project of its own sees only its own messages.", valueName: "visitor|operator", visibility: .hidden))
    var sshRole: SSHConsoleRole?

    @Flag(name: .long, help: ArgumentHelp("Set by `authdeck ssh` for a visitor with a key: the session is kept in the data directory, to resume at the next connection.", visibility: .hidden))
    var keepSession = false

    /// The options as plain values: what runs the console, with or without ArgumentParser.
    var launch: ConsoleLaunch {
        ConsoleLaunch(data: data, noColor: noColor, recentLoginWindow: recentLoginWindow, emulator: emulator,
                      project: project, apiKey: apiKey, readOnly: readOnly, sshRole: sshRole, keepSession: keepSession, sdk: sdk, tenant: tenant)
    }

    func validate() throws { try launch.validate() }

    func run() async throws { try await launch.run() }
}

/// `--sdk`: swift, kotlin, js (or javascript), cpp (or c++).
extension SDKPlatform: ExpressibleByArgument {
    public init?(argument: String) { self.init(option: argument) }
    public static var allValueStrings: [String] { ["swift", "kotlin", "js", "cpp"] }
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

    /// What a console of `authdeck ssh` prints, on the normal screen, when the server stops it.
    static let stoppingNotice = "AuthDeck: the demo server is stopping; this session ends now."

    /// The title bar says, all the time, that the backend is shared, and a visitor's which project is theirs.
    func statusName(project: String?) -> String {
        switch self {
        case .visitor: project.map { "demo project \($0)" } ?? "shared demo server"
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
