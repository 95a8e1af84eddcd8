import ArgumentParser
import AuthDeckApp
import Foundation
import IdentityEmulator
import IdentityServer
import Logging
import NIOCore
import ServiceLifecycle
import SSHServer
import TerminalUI

/// `authdeck ssh`: every visitor who runs `ssh -p 2222 ada@host` gets a console of their own
/// (a process on its own pty), all on one backend, and is ada in the presenter's room.
struct SSHCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ssh",
        abstract: "Serve the console over SSH: one console per visitor, all on one shared backend.",
        discussion: """
            Visitors log in under any name, which is how the room names them, with no password and no key; \
            operators with a key from --operators, under their own name (the names operators use log in only \
            with an operator's key). The embedded backend is served to the consoles on \
            loopback with an admin token only they receive, and each visitor works in a project of their own; \
            --emulator or --project puts the consoles on that backend instead, each visitor in an Identity \
            Platform tenant of their own that this host makes and removes (--shared-project: all in the \
            project itself). Stops on SIGINT, SIGTERM or SIGHUP, telling every console first.
            """)

    @Option(name: .long, help: ArgumentHelp("Address to listen on.", valueName: "HOST"))
    var host = "0.0.0.0"

    @Option(name: .long, help: ArgumentHelp("Port to listen on (0 picks a free one and prints it).", valueName: "PORT"))
    var port = 2222

    @Option(name: .long, help: ArgumentHelp("Data directory (default: $XDG_DATA_HOME/authdeck, else ~/.local/share/authdeck).", valueName: "DIR"))
    var data: String?

    @Option(name: .long, help: ArgumentHelp("An authorized_keys file: its keys log in as operators under any name but --visitor-user's; the local part of each key's comment (alice of alice@laptop) and every name an operator logs in under are then refused to visitors.", valueName: "FILE"))
    var operators: String?

    @Option(name: .long, help: ArgumentHelp("A user name that is always a visitor's, even with an operator's key, so that an operator can try the visitors' side (repeatable; default demo); the first is the one the printed QR code types. Any other name is a visitor's too unless it comes with an operator's key.", valueName: "NAME"))
    var visitorUser: [String] = []

    @Option(name: .long, help: ArgumentHelp("Sessions (consoles) open at once, at most: a room's worth; 200 at once reached sign-in within 2.5 s (p99) on 2 cores.", valueName: "N"))
    var maxSessions = 200

    @Option(name: .long, help: ArgumentHelp("Sessions from one address (an IPv6 /64) at once, at most; operators are not counted.", valueName: "N"))
    var maxSessionsPerAddress = 4

    @Option(name: .long, help: ArgumentHelp("Places beyond --max-sessions that only operators may take, so that a full room never keeps them out.", valueName: "N"))
    var operatorReserve = 4

    @Option(name: .long, help: ArgumentHelp("Keys or passwords one connection may try before it is closed (as OpenSSH's MaxAuthTries); an address whose connections keep trying them in vain is refused for a while.", valueName: "N"))
    var maxAuthTries = 6

    @Option(name: .long, help: ArgumentHelp("An address whose connections' failed tries never get it refused (as OpenSSH's PerSourcePenaltyExemptList), for a room behind one NAT address, which one attendee's failed tries would otherwise close to everyone there; repeat for more. Its connections still end after --max-auth-tries.", valueName: "ADDRESS"))
    var penaltyExempt: [String] = []

    @Option(name: .long, help: ArgumentHelp("Connections not yet logged in, at once, at most: their own pool, so that connections which never log in take no session's place; when it is full, the one that has waited longest without logging in is closed to make room.", valueName: "N"))
    var maxHandshakes = 256

    @Option(name: .long, help: ArgumentHelp("Connections not yet logged in from one address, at most (default 8, or --max-sessions-per-address if higher, for a room behind one address).", valueName: "N"))
    var maxHandshakesPerAddress: Int?

    @Option(name: .long, help: ArgumentHelp("Seconds from connecting to logged in (a visitor without a key presses Enter at the password prompt), so that a silent client soon gives its place back.", valueName: "SECONDS"))
    var handshakeTimeout = 10

    @Option(name: .long, help: ArgumentHelp("Seconds from connecting to a running console, at most (a session that never starts one gives its place back).", valueName: "SECONDS"))
    var loginTimeout = 20

    @Option(name: .long, help: ArgumentHelp("Seconds without input, from login, after which a session is closed, with a notice.", valueName: "SECONDS"))
    var idleTimeout = 15 * 60

    @Option(name: .long, help: ArgumentHelp("Seconds a session may last, from login.", valueName: "SECONDS"))
    var maxDuration = 2 * 60 * 60

    @Option(name: .long, help: ArgumentHelp("Embedded backend: seconds after a sign-in during which sensitive operations are allowed (default 300); lower it so that the room sees reauthentication without a wait.", valueName: "SECONDS"))
    var recentLoginWindow: Int?

    @Flag(name: .long, help: "Every console draws without colour.")
    var noColor = false

    @Option(name: .long, help: ArgumentHelp("Every console's teaching pane shows this language at full width (l there cycles).", valueName: "swift|kotlin|js|cpp"))
    var sdk: SDKPlatform?

    @Flag(name: .long, help: "Also print the command visitors type as a QR code, for the projector.")
    var qr = false

    @Option(name: .long, help: ArgumentHelp("Visitors' projects (embedded backend) or tenants (--emulator, --project) this host keeps at once, at most; at the limit an empty one makes room, never one holding work.", valueName: "N"))
    var maxVisitorProjects = BackendProjects.defaultMaximumProjects

    @Option(name: .long, help: ArgumentHelp("Hours after a visitor without a key leaves that their project or tenant is removed (at once when it holds nothing).", valueName: "HOURS"))
    var guestProjectHours = 24

    @Option(name: .long, help: ArgumentHelp("Days unused after which a visitor key's project or tenant is removed.", valueName: "DAYS"))
    var visitorProjectDays = 30

    @Option(name: .long, help: ArgumentHelp("Consoles use this Firebase Auth Emulator (or `authdeck serve`, with its admin token in AUTHDECK_ADMIN_TOKEN) instead of the embedded backend; each visitor gets a tenant of their own there (with --project: of that project).", valueName: "HOST:PORT"))
    var emulator: String?

    @Option(name: .long, help: ArgumentHelp("Consoles use this real Identity Platform project (needs --api-key or AUTHDECK_API_KEY); each visitor gets a tenant of their own there, managed with the service account of GOOGLE_APPLICATION_CREDENTIALS.", valueName: "ID"))
    var project: String?

    @Flag(name: .long, help: "With --emulator or --project: every console in the backend's project itself, no tenant per visitor (and no reset).")
    var sharedProject = false

    @Option(name: .long, help: ArgumentHelp("The project's Web API key (with --project).", valueName: "KEY"))
    var apiKey: String?

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be between 0 and 65535.") }
        guard maxSessions >= 1, maxSessionsPerAddress >= 1, maxHandshakes >= 1, (maxHandshakesPerAddress ?? 1) >= 1, maxAuthTries >= 1 else {
            throw ValidationError("--max-sessions, --max-sessions-per-address, --max-handshakes, --max-handshakes-per-address and --max-auth-tries must be at least 1.")
        }
        guard operatorReserve >= 0 else { throw ValidationError("--operator-reserve must be 0 or more.") }
        for address in penaltyExempt where !SourcePenalties.isAddress(address) {
            throw ValidationError("--penalty-exempt takes an IPv4 or IPv6 address, not \"\(address)\".")
        }
        guard loginTimeout >= 1, idleTimeout >= 1, maxDuration >= 1, handshakeTimeout >= 1 else { throw ValidationError("Timeouts must be at least 1 second.") }
        if let recentLoginWindow {
            guard recentLoginWindow >= 1 else { throw ValidationError("--recent-login-window must be at least 1 second.") }
            guard emulator == nil, project == nil else {
                throw ValidationError("--recent-login-window applies to the embedded backend only; the emulator or project decides it.")
            }
        }
        guard maxVisitorProjects >= 1, guestProjectHours >= 1, visitorProjectDays >= 1 else {
            throw ValidationError("--max-visitor-projects, --guest-project-hours and --visitor-project-days must be at least 1.")
        }
        for name in visitorUser where name.isEmpty || name.contains(where: { !($0.isLetter || $0.isNumber || "-_.".contains($0)) }) {
            throw ValidationError("--visitor-user must be a user name: letters, digits, '-', '_' and '.' (got '\(name)').")
        }
        if sharedProject, try backendChoice() == .embedded {
            throw ValidationError("--shared-project applies to --emulator or --project: the embedded backend gives each visitor a project of its own.")
        }
        _ = try backendChoice()
    }

    private func backendChoice() throws -> BackendChoice {
        try BackendChoice.resolve(emulator: emulator, project: project, apiKey: apiKey, environment: .process)
    }

    func run() async throws {
        let directory = try StartupSteps.openDataDirectory(explicit: data)
        let logger = Logger(label: "authdeck.ssh")
        let hostKey: HostKey
        let operatorKeys: OperatorKeys
        do {
            hostKey = try HostKey.loadOrCreate(at: directory.file("ssh_host_ed25519_key"))
            operatorKeys = try operators.map { try OperatorKeys.load(from: URL(fileURLWithPath: $0)) } ?? OperatorKeys()
        } catch {
            throw StartupError(String(describing: error))
        }
        for reason in operatorKeys.skipped { logger.warning("operators file: \(reason)") }

        var limits = SSHLimits()
        limits.maxSessions = maxSessions
        limits.maxSessionsPerAddress = maxSessionsPerAddress
        limits.operatorReserve = operatorReserve
        limits.maxAuthTries = maxAuthTries
        for address in penaltyExempt { limits.penalties.exempt(address: address) }
        limits.maxHandshakes = maxHandshakes
        limits.maxHandshakesPerAddress = maxHandshakesPerAddress ?? max(limits.maxHandshakesPerAddress, maxSessionsPerAddress)
        limits.handshakeTimeout = .seconds(Int64(handshakeTimeout))
        limits.loginTimeout = .seconds(Int64(loginTimeout))
        limits.idleTimeout = .seconds(Int64(idleTimeout))
        limits.maxDuration = .seconds(Int64(maxDuration))

        let choice = try backendChoice()
        // The recent-login window is the shared backend's; a console is told it only to name it.
        let consoleOptions = (noColor ? ["--no-color"] : []) + (sdk.map { ["--sdk", $0.rawValue] } ?? [])
            + (recentLoginWindow.map { ["--recent-login-window", String($0)] } ?? [])
        let dataPath = directory.path
        var visitorSettings = VisitorSandboxes<VisitorProjects>.Settings(maximum: maxVisitorProjects)
        visitorSettings.guestLifetime = TimeInterval(guestProjectHours) * 3600
        visitorSettings.keyedLifetime = TimeInterval(visitorProjectDays) * 24 * 3600
        let backendServer: SharedBackend?
        let tenants: SharedBackendTenants?
        let launcher: ConsoleLauncher
        switch choice {
        case .embedded:
            let shared = try await SharedBackend.start(directory: directory, visitorSettings: visitorSettings,
                                                       recentLoginWindow: recentLoginWindow.map(TimeInterval.init), maxSessions: maxSessions, logger: logger)
            backendServer = shared
            tenants = nil
            launcher = ConsoleLauncher(executable: Self.executablePath()) { [consoleOptions] visit in
                var plan = try await shared.plan(for: visit, dataPath: dataPath)
                plan.arguments += consoleOptions
                plan.environment.merge(Self.operatorEnvironment(visit)) { _, named in named }
                return plan
            }
        case .emulator, .project:
            backendServer = nil
            let projectPlan = Self.projectPlan(choice, dataPath: dataPath, consoleOptions: consoleOptions)
            if sharedProject {
                tenants = nil
                launcher = ConsoleLauncher(executable: Self.executablePath()) { visit in projectPlan(visit) }
            } else {
                var tenantSettings = VisitorSandboxes<VisitorTenants>.Settings(maximum: maxVisitorProjects)
                tenantSettings.guestLifetime = visitorSettings.guestLifetime
                tenantSettings.keyedLifetime = visitorSettings.keyedLifetime
                // The host's calls to the backend end well within the login time: a visitor whose sandbox waits on a
                // backend that does not answer is told so, not dropped without a word.
                let shared = try await SharedBackendTenants.start(choice: choice, directory: directory, settings: tenantSettings,
                                                                  requestTimeout: .seconds(max(1, min(8, loginTimeout / 2))), environment: .process)
                tenants = shared
                // Operators work in the project itself, with the administrator's credential.
                launcher = ConsoleLauncher(executable: Self.executablePath()) { [consoleOptions] visit in
                    guard visit.role == .visitor else { return projectPlan(visit) }
                    var plan = try await shared.visitorPlan(for: visit)
                    plan.arguments += consoleOptions
                    return plan
                }
            }
        }
        let demoReset = backendServer?.visitors.demoReset ?? tenants?.visitors.demoReset
        let settings = SSHServerSettings(host: host, port: port, hostKey: hostKey,
                                         visitorNames: Set(visitorUser.isEmpty ? ["demo"] : visitorUser),
                                         operatorKeys: operatorKeys, limits: limits, launcher: launcher, demoReset: demoReset)
        let server: SSHServer
        do {
            server = try await SSHServer.start(settings: settings, logger: logger)
        } catch {
            await backendServer?.stop()
            await tenants?.stop()
            throw StartupError("Cannot listen for SSH on \(host):\(port): \(error)")
        }
        let authority = host.contains(":") ? "[\(host)]:\(server.port)" : "\(host):\(server.port)"
        FileHandle.standardOutput.write(Data("authdeck ssh: listening on \(authority), host key 256 \(hostKey.fingerprint) (ED25519)\n".utf8))
        let visitorCommand = "ssh -p \(server.port) \(visitorUser.first ?? "demo")@\(Self.addressForVisitors(host))"
        let sandbox: String? = tenants != nil ? "tenant" : backendServer != nil ? "project" : nil
        var invitation = "authdeck ssh: visitors type `ssh -p \(server.port) NAME@\(Self.addressForVisitors(host))` and check the host key above;\n"
            + "authdeck ssh: NAME is how the room shows them (ada, not a presenter's name; a taken one becomes ada-2)"
            + (sandbox.map { ", and whoever offers a key gets their \($0) back with it" } ?? "") + "\n"
            // A room behind one NAT address is one address to the host: the presenter must know before the fifth visitor is refused.
            + "authdeck ssh: at most \(maxSessionsPerAddress) sessions come from one address (--max-sessions-per-address): raise it for a room behind one NAT address\n"
        if qr, let code = QRCode(encoding: visitorCommand, errorCorrection: .medium) {
            // Dark modules on a light ground whatever the terminal's colours, as scanners expect.
            invitation += code.text().split(separator: "\n").map { "\u{1B}[30;47m\($0)\u{1B}[0m\n" }.joined()
        } else if qr, let reason = QRCode.unavailableReason {
            FileHandle.standardError.write(Data("authdeck ssh: no QR code: \(reason)\n".utf8))
        }
        FileHandle.standardOutput.write(Data(invitation.utf8))
        logger.info("ssh listening", metadata: ["address": "\(authority)", "hostKey": "\(hostKey.fingerprint)",
                                               "operators": "\(operatorKeys.keys.count)", "data": "\(dataPath)"])

        await TerminationSignal.wait()
        logger.info("ssh stopping", metadata: ["sessions": "\(server.openConnections)"])
        await server.shutdown()
        await backendServer?.stop()
        await tenants?.stop()
        logger.info("ssh stopped")
    }

    /// A console in the backend's project itself: every console with --shared-project, an operator's
    /// otherwise. The admin token of a served backend goes with an operator's, as the accounts view needs
    /// it, and never with a visitor's, which works as any client of the backend does.
    static func projectPlan(_ choice: BackendChoice, dataPath: String, consoleOptions: [String]) -> @Sendable (ConsoleVisit) -> ConsolePlan {
        var arguments: [String] = []
        var environment: [String: String] = [:]
        var operatorsToken: [String: String] = [:]
        switch choice {
        case .embedded:
            break
        case let .emulator(address, project):
            if let token = Environment.process[ServeCommand.adminTokenVariable], !token.isEmpty {
                operatorsToken[ServeCommand.adminTokenVariable] = token
            }
            arguments = ["--emulator", address.authority] + (project.map { ["--project", $0] } ?? [])
        case let .project(id, key):
            arguments = ["--project", id]
            environment[BackendChoice.apiKeyVariable] = key
        }
        return { [arguments, environment, operatorsToken] visit in
            let given = visit.role == .operator ? environment.merging(operatorsToken) { _, token in token } : environment
            return ConsolePlan(arguments: ["console", "--data", dataPath, "--ssh-role", visit.role.rawValue] + arguments + consoleOptions,
                               environment: given.merging(Self.operatorEnvironment(visit)) { _, named in named })
        }
    }

    /// How the audit log names an operator: their key's comment in the operators file and its fingerprint.
    /// It reaches the console in its environment, beside what else the plan gives it.
    static func operatorEnvironment(_ visit: ConsoleVisit) -> [String: String] {
        guard visit.role == .operator, let fingerprint = visit.keyFingerprint else { return [:] }
        return [ConsoleAccountsAccess.operatorNameVariable: visit.keyComment.map { "\($0) (\(fingerprint))" } ?? fingerprint]
    }

    /// What visitors type to reach a server listening on `host`: the host itself, or for a wildcard
    /// address this machine's first address others can reach (its name when it has none).
    static func addressForVisitors(_ host: String) -> String {
        guard host == "0.0.0.0" || host == "::" || host == "[::]" else { return host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host }
        var addresses: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&addresses) == 0, let first = addresses else { return ProcessInfo.processInfo.hostName }
        defer { freeifaddrs(addresses) }
        for entry in sequence(first: first, next: { $0.pointee.ifa_next }) {
            guard let address = entry.pointee.ifa_addr, address.pointee.sa_family == sa_family_t(AF_INET),
                  entry.pointee.ifa_flags & UInt32(IFF_LOOPBACK) == 0, entry.pointee.ifa_flags & UInt32(IFF_UP) != 0 else { continue }
            var text = [CChar](repeating: 0, count: Int(INET_ADDRSTRLEN))
            let found = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { inet in
                var raw = inet.pointee.sin_addr
                return inet_ntop(AF_INET, &raw, &text, socklen_t(text.count)) != nil
            }
            if found { return String(cString: text) }
        }
        return ProcessInfo.processInfo.hostName
    }

    /// This binary, by a path that still works after a `cd`: the consoles are started from it.
    static func executablePath() -> String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }
}

/// SIGINT, SIGTERM or SIGHUP, whichever comes first (the server was maybe started from an SSH
/// session of its own that dropped).
enum TerminationSignal {
    static func wait() async {
        let (stream, continuation) = AsyncStream.makeStream(of: Int32.self)
        let sources = [SIGINT, SIGTERM, SIGHUP].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { continuation.yield(number) }
            source.resume()
            return source
        }
        _ = await stream.first(where: { _ in true })
        sources.forEach { $0.cancel() }
    }
}
