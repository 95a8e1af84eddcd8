import NIOCore

/// What a session may be: a visitor (no key, `none` authentication) or an operator (a key from
/// the operators file). The console decides what each may do.
public enum SSHRole: String, Sendable, Equatable {
    case visitor
    case `operator`
}

/// The limits a public SSH host needs, each a command-line flag.
public struct SSHLimits: Sendable, Equatable {
    /// Sessions are consoles: a session's place is taken only once its connection has logged in.
    public var maxSessions = 200
    public var maxSessionsPerAddress = 4
    /// Places beyond `maxSessions` that only operators may take: a full room of visitors never
    /// keeps the presenter out.
    public var operatorReserve = 4
    /// Connections not yet in a session (key exchange, login, being told the server is full), a
    /// pool of their own so that connections which never log in cannot fill the sessions' places;
    /// beyond it a connection is closed unheard.
    public var maxHandshakes = 256
    public var maxHandshakesPerAddress = 8
    /// From the TCP connection to logged in; a silent or stalled client goes after this.
    public var handshakeTimeout: TimeAmount = .seconds(10)
    /// A key exchange's time before a full handshake pool may close it for a newcomer (ahead of
    /// those logging in): a slow network's key exchange takes well under this.
    public var handshakeGrace: TimeAmount = .seconds(2)
    /// From the TCP connection to a running console (handshake, authentication, pty, shell, the
    /// console's start), as OpenSSH's LoginGraceTime: a connection that logs in and never starts a
    /// console gives its place back after this.
    public var loginTimeout: TimeAmount = .seconds(20)
    /// No input from the visitor for this long (counted from login) ends the session, with a notice.
    public var idleTimeout: TimeAmount = .minutes(15)
    /// From login.
    public var maxDuration: TimeAmount = .hours(2)
    /// Keys or passwords one connection may try, as OpenSSH's MaxAuthTries: it is closed after
    /// 2N + 1 requests (a key's query and its signature are two, and the first `none`). One that
    /// leaves without logging in after a failed try costs its source a penalty.
    public var maxAuthTries = 6
    public var penalties = SourcePenalties()

    public init() {}
}

/// How long a source whose connections use up their authentication attempts is refused, as
/// OpenSSH's PerSourcePenalties (`authfail:5s min:15s max:600s`): each such connection adds
/// `authenticationFailure`; new connections are closed unheard while more than `enforcedFrom` is
/// left, so that a mistake or two costs nothing.
public struct SourcePenalties: Sendable, Equatable {
    public var authenticationFailure: TimeAmount = .seconds(5)
    public var enforcedFrom: TimeAmount = .seconds(15)
    public var maximum: TimeAmount = .seconds(600)
    /// Sources remembered at once, at most.
    public var maximumSources = 65536
    /// Sources never penalised, as OpenSSH's PerSourcePenaltyExemptList: a room behind one NAT
    /// address, which one attendee's failed tries would otherwise close to everyone there, the
    /// presenter too. Their connections still end after their tries. Kept as `SourceAddress` counts
    /// them (an IPv6 address stands for its /64).
    public private(set) var exempt: Set<String> = []

    public init() {}

    public mutating func exempt(address: String) { exempt.insert(SourceAddress.of(address)) }

    /// Whether `address` is an IPv4 or IPv6 address, as `exempt(address:)` takes one.
    public static func isAddress(_ address: String) -> Bool { SourceAddress.isAddress(address) }
}

/// Who a console is being started for.
public struct ConsoleVisit: Sendable {
    public let role: SSHRole
    public let user: String
    /// `SHA256:…` of the key the client authenticated with; nil when it offered none.
    public let keyFingerprint: String?
    /// An operator key's comment in the operators file.
    public let keyComment: String?
    /// The client's address, without the port.
    public let address: String
}

/// One console's command line and environment, and what to do once it has exited.
public struct ConsolePlan: Sendable {
    public var arguments: [String]
    public var environment: [String: String]
    /// The visitor's project, as the room shows it.
    public var project: String?
    /// The name their project keeps, when it keeps one: the room and the log know them by it rather
    /// than by the user name of this visit.
    public var name: String?
    /// Runs after the console exits (it may touch the data directory or the backend).
    public var ended: @Sendable () async -> Void

    public init(arguments: [String], environment: [String: String], project: String? = nil, name: String? = nil,
                ended: @escaping @Sendable () async -> Void = {}) {
        self.arguments = arguments
        self.environment = environment
        self.project = project
        self.name = name
        self.ended = ended
    }
}

/// A reason to turn a visitor away before a console starts, told to them as it is.
public struct ConsoleRefusal: Error, Sendable {
    public let message: String
    public init(_ message: String) { self.message = message }
}

/// How a session's console is started: this same binary, in console mode, with what `plan`
/// gives for the visit. The environment carries what only the console may know (the backend's
/// admin token, a project's API key), never the arguments, which every local user can read in
/// the process list. `plan` may make a sandbox (a database, a tenant over HTTP): work that blocks
/// goes to a thread pool of its own, never the caller's. It may throw a `ConsoleRefusal`.
public struct ConsoleLauncher: Sendable {
    public var executable: String
    public var plan: @Sendable (ConsoleVisit) async throws -> ConsolePlan

    public init(executable: String, plan: @escaping @Sendable (ConsoleVisit) async throws -> ConsolePlan) {
        self.executable = executable
        self.plan = plan
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
    /// What the presenter's reset empties; nil where visitors share the backend's one project.
    public var demoReset: DemoReset?
    /// Consoles are forked from a fork server of the launcher's executable, which must be this
    /// binary (`ConsoleForkServer`); false spawns each one.
    public var forkConsoles = true

    public init(host: String, port: Int, hostKey: HostKey, visitorNames: Set<String>, operatorKeys: OperatorKeys,
                limits: SSHLimits, launcher: ConsoleLauncher, demoReset: DemoReset? = nil) {
        self.demoReset = demoReset
        self.host = host
        self.port = port
        self.hostKey = hostKey
        self.visitorNames = visitorNames
        self.operatorKeys = operatorKeys
        self.limits = limits
        self.launcher = launcher
    }
}
