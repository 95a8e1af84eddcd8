import AuthAdmin
import AuthDeckApp
import Foundation
import IdentityEmulator
import IdentityToolkit

/// The console's way to the operator's accounts view on each backend, or none: a visitor over SSH
/// never gets one, nor a real project without a service account.
struct ConsoleAccountsAccess {
    let connection: AccountsConnection?
    /// What to close when the console quits.
    let shutdown: @Sendable () async -> Void

    static let auditLogFile = "audit-log.jsonl"
    /// How `authdeck ssh` names an operator's console to it: the key's comment and fingerprint.
    static let operatorNameVariable = "AUTHDECK_OPERATOR_NAME"

    /// `embedded`: the embedded backend once it is open (the console's first frame does not wait for it).
    /// `tenant`: a console in a tenant administers that tenant's accounts.
    static func make(choice: BackendChoice, embedded: (@Sendable () async throws -> BackendProjects)?, role: SSHConsoleRole?, readOnly: Bool,
                     tenant: String? = nil, directory: DataDirectory, environment: Environment) throws -> ConsoleAccountsAccess {
        let none = ConsoleAccountsAccess(connection: nil, shutdown: {})
        if role == .visitor { return none }
        let audit = AuditLog(path: directory.filePath(auditLogFile))
        let operatorName = role == .operator
            ? environment[operatorNameVariable].flatMap { $0.isEmpty ? nil : $0 } ?? "ssh operator"
            : environment["USER"].flatMap { $0.isEmpty ? nil : $0 } ?? "local operator"
        let access: OperatorAccess = readOnly ? .readOnly : .full
        switch choice {
        case .embedded:
            guard let embedded else { return none }
            // The console closes the projects when it quits.
            let connection = AccountsConnection(operatorName: operatorName, audit: audit, access: access) {
                let served = try await embedded()
                return AccountAdmin(backend: served.administratorTransport(), projectId: served.defaultProject.projectId, tenantId: tenant,
                                    capability: .authdeck)
            }
            return ConsoleAccountsAccess(connection: connection, shutdown: {})
        case let .emulator(address, project):
            // `owner` is the emulator's administrator; an `authdeck serve --admin-token` wants its token.
            let token = environment[ServeCommand.adminTokenVariable].flatMap { $0.isEmpty ? nil : $0 } ?? "owner"
            let transport = HTTPTransport(target: .emulator(address), apiKey: "authdeck", administrator: StaticAdministratorCredential(token: token))
            let projectId = project ?? environment["GCLOUD_PROJECT"] ?? EmbeddedBackendConfiguration.defaultProjectId
            let connection = AccountsConnection(operatorName: operatorName, audit: audit, access: access) {
                let capability = try await AccountAdmin.detectCapability(of: transport, projectId: projectId)
                return AccountAdmin(backend: transport, projectId: projectId, tenantId: tenant, capability: capability)
            }
            return ConsoleAccountsAccess(connection: connection, shutdown: { try? await transport.shutdown() })
        case let .project(id, _):
            guard let path = environment[ServiceAccountKey.environmentVariable], !path.isEmpty else { return none }
            // A bad key file is one line naming it, told once the terminal is given back.
            let key: ServiceAccountKey
            do { key = try ServiceAccountKey(contentsOf: path) } catch { throw StartupError(String(describing: error)) }
            let credential = ServiceAccountCredential(key: key)
            let transport = HTTPTransport(target: .production, apiKey: "", administrator: credential)
            let admin = AccountAdmin(backend: transport, projectId: id, tenantId: tenant, capability: .google)
            return ConsoleAccountsAccess(connection: AccountsConnection(admin: admin, operatorName: operatorName, audit: audit, access: access),
                                         shutdown: {
                                             try? await transport.shutdown()
                                             try? await credential.shutdown()
                                         })
        }
    }
}
