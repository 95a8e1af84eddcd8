import NIOCore

/// What a session may be: a visitor (no key, `none` authentication) or an operator (a key from
/// the operators file). The console decides what each may do.
public enum SSHRole: String, Sendable, Equatable {
    case visitor
    case `operator`
}

/// The limits a public SSH host needs, each a command-line flag.
public struct SSHLimits: Sendable, Equatable {
    public var maxSessions = 50
    public var maxSessionsPerAddress = 4
    /// From the TCP connection to an open session channel (handshake, authentication, pty, shell).
    public var loginTimeout: TimeAmount = .seconds(20)
    /// No input from the visitor for this long ends the session, with a notice.
    public var idleTimeout: TimeAmount = .minutes(15)
    public var maxDuration: TimeAmount = .hours(2)

    public init() {}
}

/// How a session's console is started: this same binary, in console mode, with the role's
/// arguments. `environment` carries what only the consoles may know (the backend's admin token),
/// never in the arguments, which every local user can read in the process list.
public struct ConsoleLauncher: Sendable {
    public var executable: String
    public var arguments: @Sendable (SSHRole) -> [String]
    public var environment: [String: String]

    public init(executable: String, arguments: @escaping @Sendable (SSHRole) -> [String], environment: [String: String]) {
        self.executable = executable
        self.arguments = arguments
        self.environment = environment
    }
}

public struct SSHServerSettings: Sendable {
    public var host: String
    public var port: Int
    public var hostKey: HostKey
    /// Names that log in with no password and no key, as visitors (`demo`).
    public var visitorNames: Set<String>
    public var operatorKeys: OperatorKeys
    public var limits: SSHLimits
    public var launcher: ConsoleLauncher

    public init(host: String, port: Int, hostKey: HostKey, visitorNames: Set<String>, operatorKeys: OperatorKeys,
                limits: SSHLimits, launcher: ConsoleLauncher) {
        self.host = host
        self.port = port
        self.hostKey = hostKey
        self.visitorNames = visitorNames
        self.operatorKeys = operatorKeys
        self.limits = limits
        self.launcher = launcher
    }
}
