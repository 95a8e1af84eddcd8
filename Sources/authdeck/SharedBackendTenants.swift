import AuthAdmin
import Foundation
import IdentityEmulator
import IdentityToolkit
import SSHServer

/// Visitors' tenants on a backend this host shares (`--emulator`, `--project`): each visitor's console
/// works in an Identity Platform tenant of its own (`VisitorTenants`), with the tenant's key where the
/// backend gives one, and never the administrator's credential, which only this host and the operators'
/// consoles hold.
final class SharedBackendTenants: Sendable {
    let visitors: VisitorSandboxes<VisitorTenants>
    /// How a console names the backend: `--emulator HOST:PORT --project P`, or `--project P`.
    private let backendArguments: [String]
    private let transport: HTTPTransport
    private let serviceAccount: ServiceAccountCredential?
    private let sweeper: Task<Void, Never>

    private init(visitors: VisitorSandboxes<VisitorTenants>, backendArguments: [String], transport: HTTPTransport, serviceAccount: ServiceAccountCredential?) {
        self.visitors = visitors
        self.backendArguments = backendArguments
        self.transport = transport
        self.serviceAccount = serviceAccount
        // Hourly: a key-less visitor's tenant is kept for hours after they leave.
        sweeper = visitors.sweepPeriodically(every: .seconds(3600))
    }

    /// Checks that this host may manage the project's tenants (it lists them), and sweeps the tenants
    /// whose time is up. Stops the start with what is missing when it may not. Each call to the backend,
    /// connection included, takes `requestTimeout` at most.
    static func start(choice: BackendChoice, directory: DataDirectory, settings: VisitorSandboxes<VisitorTenants>.Settings,
                      requestTimeout: Duration, environment: Environment) async throws -> SharedBackendTenants {
        let projectId: String
        let transport: HTTPTransport
        let serviceAccount: ServiceAccountCredential?
        let backendArguments: [String]
        let projectKey: String?
        let missing: String
        switch choice {
        case .embedded:
            throw StartupError("The embedded backend gives each visitor a project of its own, not a tenant.")
        case let .emulator(address, project):
            projectId = project ?? environment["GCLOUD_PROJECT"] ?? EmbeddedBackendConfiguration.defaultProjectId
            let token = environment[ServeCommand.adminTokenVariable].flatMap { $0.isEmpty ? nil : $0 } ?? "owner"
            transport = HTTPTransport(target: .emulator(address), apiKey: "authdeck", administrator: StaticAdministratorCredential(token: token),
                                      connectTimeout: requestTimeout, requestTimeout: requestTimeout)
            serviceAccount = nil
            backendArguments = ["--emulator", address.authority, "--project", projectId]
            projectKey = nil
            missing = "a shared `authdeck serve` keeps them for its administrators: give this host its admin token in \(ServeCommand.adminTokenVariable)"
        case let .project(id, key):
            guard let path = environment[ServiceAccountKey.environmentVariable], !path.isEmpty else {
                throw StartupError("authdeck ssh --project gives each visitor a tenant of \(id), which takes a service account: set "
                    + "\(ServiceAccountKey.environmentVariable) to its key file (role roles/identityplatform.admin, or Firebase Authentication Admin). "
                    + Self.sharedProjectHint)
            }
            let account: ServiceAccountKey
            do {
                account = try ServiceAccountKey(contentsOf: path)
            } catch {
                throw StartupError("\(ServiceAccountKey.environmentVariable) (\(path)): \(error). " + Self.sharedProjectHint)
            }
            projectId = id
            let credential = ServiceAccountCredential(key: account)
            serviceAccount = credential
            transport = HTTPTransport(target: .production, apiKey: key, administrator: credential, connectTimeout: requestTimeout,
                                      requestTimeout: requestTimeout)
            backendArguments = ["--project", id]
            projectKey = key
            missing = "the project must allow tenants (Identity Platform › Settings › Security › Allow tenants), and the service account "
                + "\(account.clientEmail) needs the role roles/identityplatform.admin (or Firebase Authentication Admin)"
        }
        let store = VisitorTenants(projectId: projectId, administrator: transport, root: directory.url.appendingPathComponent(VisitorTenants.directoryName),
                                   projectKey: projectKey)
        do {
            _ = try await store.tenantIds()
        } catch {
            try? await transport.shutdown()
            try? await serviceAccount?.shutdown()
            throw StartupError("authdeck ssh cannot manage the tenants of project \(projectId) (\(Self.describe(error))), which give each visitor a sandbox: "
                + "\(missing). " + Self.sharedProjectHint)
        }
        let visitors = VisitorSandboxes(store: store, settings: settings)
        await visitors.sweep()
        return SharedBackendTenants(visitors: visitors, backendArguments: backendArguments, transport: transport, serviceAccount: serviceAccount)
    }

    private static func describe(_ error: any Error) -> String {
        switch error as? IdentityToolkitError {
        case let .server(status, message)?: "HTTP \(status), \(message)"
        case let .network(message)?, let .malformedResponse(message)?: message
        case nil: "\(error)"
        }
    }

    static let sharedProjectHint = "Or start with --shared-project: every console in the project itself, with no sandboxes and no reset."

    /// A visitor's console: their sandbox's directory (session and app data stay there), their tenant,
    /// its key, and a session kept across connections when the visitor has a key to come back with.
    func visitorPlan(for visit: ConsoleVisit) async throws -> ConsolePlan {
        let seat = try await visitors.seat(for: visit)
        return ConsolePlan(arguments: ["console", "--data", seat.directory.path, "--ssh-role", "visitor"] + backendArguments
                               + ["--tenant", seat.access.tenantId] + (seat.keyed ? ["--keep-session"] : []),
                           environment: seat.access.apiKey.map { [BackendChoice.apiKeyVariable: $0] } ?? [:], project: seat.label, name: seat.name,
                           ended: { [visitors] in await visitors.leave(seat.id) })
    }

    func stop() async {
        sweeper.cancel()
        try? await transport.shutdown()
        try? await serviceAccount?.shutdown()
    }
}
