import ArgumentParser
import Foundation
import IdentityEmulator
import IdentityServer
import Logging
import NIOCore
import ServiceLifecycle

/// `authdeck serve`: the embedded backend over HTTP, so that other SDKs and tools (and several
/// consoles, one per SSH connection, say) can share it.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the embedded backend over HTTP on the Firebase Auth Emulator's paths.",
        discussion: """
            Point Firebase SDKs at it with FIREBASE_AUTH_EMULATOR_HOST=HOST:PORT, and consoles with \
            `authdeck --emulator HOST:PORT`. Stops cleanly on SIGINT, SIGTERM or SIGHUP. Administrator calls use \
            the emulator's `Authorization: Bearer owner`, which is safe on loopback only: binding any \
            other address needs an admin token (--admin-token-file, AUTHDECK_ADMIN_TOKEN or --admin-token), and then only \
            `Bearer <token>` is an administrator.
            """)

    @Option(name: .long, help: ArgumentHelp("Address to listen on; any other than loopback needs --admin-token.", valueName: "HOST"))
    var host = "127.0.0.1"

    @Option(name: .long, help: ArgumentHelp("Port to listen on (9099 is the emulator's; 0 picks a free one).", valueName: "PORT"))
    var port = 9099

    @Option(name: .long, help: ArgumentHelp("Project id the tokens are issued for (default authdeck-local).", valueName: "ID"))
    var project: String?

    @Option(name: .long, help: ArgumentHelp("Data directory (default: $XDG_DATA_HOME/authdeck, else ~/.local/share/authdeck).", valueName: "DIR"))
    var data: String?

    @Option(name: .long, help: ArgumentHelp("Administrator secret: admin calls need `Authorization: Bearer SECRET`. Every local user can read it in the process list (ps): prefer --admin-token-file or AUTHDECK_ADMIN_TOKEN.", valueName: "SECRET"))
    var adminToken: String?

    @Option(name: .long, help: ArgumentHelp("File whose first line is the administrator secret (as --admin-token, kept out of the process list).", valueName: "PATH"))
    var adminTokenFile: String?

    @Option(name: .long, help: ArgumentHelp("What goes to authdeck.log: trace, debug, info (a line per request; the default), notice (no request lines: lock-outs, imports, failures), warning, error or critical. The log is bounded either way: past 8 MiB it moves to authdeck.log.1.", valueName: "LEVEL"))
    var logLevel: Logger.Level = .info

    @Option(name: .long, help: ArgumentHelp("Connections open at once, at most; beyond it a connection is closed at once.", valueName: "N"))
    var maxConnections = ConnectionLimits().maxConnections

    @Option(name: .long, help: ArgumentHelp("Connections from one address at once, at most, so that one client cannot take every connection.", valueName: "N"))
    var maxConnectionsPerAddress = ConnectionLimits().maxConnectionsPerAddress

    @Option(name: .long, help: ArgumentHelp("Seconds a request's body may take to arrive; a client that stops half-way is closed and its memory freed.", valueName: "SECONDS"))
    var bodyTimeout = 20

    @Option(name: .long, help: ArgumentHelp("Seconds a project no request uses keeps its database (and its file descriptors) open; it opens again at its next request.", valueName: "SECONDS"))
    var projectIdleTimeout = Int(BackendProjects.defaultIdleLifetime.components.seconds)

    static let adminTokenVariable = "AUTHDECK_ADMIN_TOKEN"

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be between 0 and 65535.") }
        guard maxConnections >= 1, maxConnectionsPerAddress >= 1, bodyTimeout >= 1, projectIdleTimeout >= 1 else {
            throw ValidationError("--max-connections, --max-connections-per-address, --body-timeout and --project-idle-timeout must be at least 1.")
        }
        if let project, project.isEmpty || project.contains(where: { !($0.isLetter || $0.isNumber || $0 == "-") }) {
            throw ValidationError("--project must be a project id: letters, digits and hyphens.")
        }
        guard adminToken == nil || adminTokenFile == nil else {
            throw ValidationError("Give the admin token once: --admin-token or --admin-token-file, not both.")
        }
        // The file and the variable are held to the same rule as the flag: it is what guards a reachable server.
        if let token = try resolvedAdminToken(), token.count < 16 || token.unicodeScalars.contains(where: Self.isBlankOrControl) {
            let source = adminToken != nil ? "--admin-token" : adminTokenFile.map { "The token in \($0)" } ?? Self.adminTokenVariable
            throw ValidationError("\(source) must be at least 16 characters, without spaces or control characters.")
        }
    }

    /// Spaces would not survive an `Authorization` header, and sixteen of them guard nothing.
    private static func isBlankOrControl(_ scalar: Unicode.Scalar) -> Bool {
        CharacterSet.whitespacesAndNewlines.contains(scalar) || CharacterSet.controlCharacters.contains(scalar)
    }

    /// `--admin-token`, else the first line of `--admin-token-file`, else `AUTHDECK_ADMIN_TOKEN` when set and not empty.
    private func resolvedAdminToken() throws -> String? {
        if let adminToken { return adminToken }
        if let adminTokenFile {
            let path = (adminTokenFile as NSString).expandingTildeInPath
            guard let data = FileManager.default.contents(atPath: path) else {
                throw ValidationError("Cannot read the admin token file \(adminTokenFile): \(String(cString: strerror(errno))).")
            }
            return String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).first
                .map { String($0.hasSuffix("\r") ? $0.dropLast() : $0) } ?? ""
        }
        return Environment.process[Self.adminTokenVariable].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Warnings about where the token is kept, on stderr before the server starts.
    private func warnAboutTokenExposure() {
        if adminToken != nil {
            FileHandle.standardError.write(Data(("authdeck serve: warning: --admin-token shows the token to every local user in the process list (ps); "
                + "use --admin-token-file PATH or \(Self.adminTokenVariable) instead.\n").utf8))
        }
        var status = stat()
        if let adminTokenFile, stat((adminTokenFile as NSString).expandingTildeInPath, &status) == 0, status.st_mode & 0o077 != 0 {
            FileHandle.standardError.write(Data("authdeck serve: warning: \(adminTokenFile) can be read by other users; chmod 600 it.\n".utf8))
        }
    }

    func run() async throws {
        let token = try resolvedAdminToken()
        guard IdentityServer.isLoopback(host) || token != nil else {
            throw StartupError("Refusing to listen on \(host): without an admin token anyone who can reach it would be an administrator (`Bearer owner`). Use a loopback address or give one with --admin-token-file PATH or \(Self.adminTokenVariable).")
        }
        warnAboutTokenExposure()
        let directory = try StartupSteps.openDataDirectory(explicit: data, logLevel: logLevel)
        let logger = Logger(label: "authdeck.serve")

        var configuration = EmbeddedBackendConfiguration()
        if let project { configuration.projectId = project }
        configuration.adminToken = token
        let backend = try StartupSteps.openEmbeddedBackend(in: directory, configuration: configuration, logger: logger)
        // The key an app's server signs custom tokens with; on a shared server only those are accepted.
        let serviceAccountFile: URL
        do {
            serviceAccountFile = try backend.prepareServiceAccount()
        } catch {
            throw StartupError("\(error)")
        }
        let projectId = backend.projectId
        let shared = configuration.isShared
        // Other projects beside the data directory's own, each in a directory of its own under `projects/`.
        let projects = BackendProjects(defaultProject: backend, dataDirectory: directory.url, idleLifetime: .seconds(projectIdleTimeout))
        var limits = ConnectionLimits()
        limits.maxConnections = maxConnections
        limits.maxConnectionsPerAddress = maxConnectionsPerAddress
        limits.bodyTimeout = .seconds(Int64(bodyTimeout))
        let server = IdentityServer(backend: projects, host: host, port: port, limits: limits, logger: logger)
        let host = server.host
        let application = server.application { port in
            let authority = host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
            backend.setActionLinkOrigin(host: host.contains(":") ? "[\(host)]" : host, port: port)
            Self.announce("authdeck serve: listening on http://\(authority) for project \(projectId) (FIREBASE_AUTH_EMULATOR_HOST=\(authority))")
            Self.announce("authdeck serve: service account for custom tokens: \(serviceAccountFile.path)"
                + (shared ? " (shared server: custom tokens must be signed with it)" : ""))
            logger.info("listening", metadata: ["address": "\(authority)", "project": "\(projectId)", "data": "\(directory.path)",
                                               "admin": "\(token == nil ? "Bearer owner (loopback)" : "admin token")"])
        }
        do {
            // SIGHUP too: a server started from an SSH session stops cleanly when the session drops.
            let group = ServiceGroup(configuration: .init(services: [application], gracefulShutdownSignals: [.sigterm, .sigint, .sighup],
                                                          logger: logger))
            try await group.run()
        } catch {
            logger.error("server stopped", metadata: ["error": "\(error)"])
            throw StartupError("Cannot serve on \(host):\(port): \(error)")
        }
        do {
            try projects.close()
        } catch {
            logger.error("closing the database failed", metadata: ["error": "\(error)"])
        }
        logger.info("server stopped")
    }

    /// One line on stdout, flushed at once: scripts and tests wait for it to learn the port.
    private static func announce(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }
}

extension Logger.Level: @retroactive ExpressibleByArgument {}
