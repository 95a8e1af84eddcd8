import ArgumentParser
import AuthAdmin
import IdentityEmulator
import IdentityToolkit

/// `--tenant ID`: the Identity Platform tenant a console (or `authdeck accounts`) works in.
enum ConsoleTenant {
    /// Identity Platform's tenant ids: 1 to 63 letters, digits and hyphens, not starting with a hyphen.
    static func validate(_ id: String) throws {
        guard (1...63).contains(id.utf8.count), id.first != "-",
              id.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }) else {
            throw ValidationError("--tenant needs a tenant id: 1 to 63 letters, digits and hyphens, not starting with a hyphen (got '\(id)').")
        }
    }

    /// Looks the tenant up among the project's before anything is done in it: a mistyped id is told as a
    /// sentence, and nothing is made (the emulator and `authdeck serve` make a tenant that a request names,
    /// a `GET tenants/{id}` too, so the check lists them). A backend that does not list its tenants to the
    /// credential at hand (a served backend keeps that for its administrators) answers the tenant's
    /// requests itself.
    static func requireExisting(_ tenant: String, projectId: String, administrator: any IdentityBackend, backendName: String) async throws {
        do {
            if try await tenantIds(projectId: projectId, administrator: administrator).contains(tenant) { return }
        } catch IdentityToolkitError.server {
            return
        }
        throw StartupError(notFound(tenant, projectId: projectId, backendName: backendName))
    }

    /// Every tenant of the project, page after page.
    static func tenantIds(projectId: String, administrator: any IdentityBackend) async throws -> Set<String> {
        var ids: Set<String> = []
        var pageToken: String?
        repeat {
            let page = try await administrator.call(ListTenantsRequest(projectId: projectId, pageToken: pageToken))
            ids.formUnion(page.tenants?.map(\.tenantId) ?? [])
            pageToken = page.nextPageToken.flatMap { $0.isEmpty ? nil : $0 }
        } while pageToken != nil
        return ids
    }

    /// The tenant's own API key on a shared `authdeck serve`, asked with the admin token: there a request
    /// naming a tenant is served with that tenant's key only. Nil where none is given (the Firebase Auth
    /// Emulator has no such endpoint and takes any key; a tenant not made is told by the tenant check).
    static func apiKey(of tenant: String, projectId: String, address: EmulatorAddress, adminToken: String) async -> String? {
        let transport = HTTPTransport(target: .emulator(address), apiKey: "authdeck", emulatorAdminToken: adminToken,
                                      connectTimeout: .seconds(5), requestTimeout: .seconds(10))
        let key = try? await transport.call(TenantAPIKeyRequest(projectId: projectId, tenantId: tenant)).apiKey
        try? await transport.shutdown()
        return key
    }

    static func notFound(_ tenant: String, projectId: String, backendName: String) -> String {
        "There is no tenant \(tenant) in project \(projectId) on \(backendName) (TENANT_NOT_FOUND): create it first "
            + "(the Admin SDK's tenant_mgt.create_tenant, or POST /v2/projects/\(projectId)/tenants), or check the id."
    }
}

/// The tenant check of a console on an emulator or a real project, with the administrator credential
/// the accounts view would use: `owner` (or `AUTHDECK_ADMIN_TOKEN`), or the service account.
struct ConsoleTenantCheck: Sendable {
    let tenant: String
    let projectId: String
    let target: HTTPBackendTarget
    let administrator: any AdministratorCredential
    let backendName: String

    /// Nil where there is no administrator credential (a real project without a service-account key).
    init?(tenant: String, choice: BackendChoice, environment: Environment, backendName: String) {
        self.tenant = tenant
        self.backendName = backendName
        switch choice {
        case .embedded:
            return nil
        case let .emulator(address, project):
            projectId = project ?? environment["GCLOUD_PROJECT"] ?? EmbeddedBackendConfiguration.defaultProjectId
            target = .emulator(address)
            administrator = StaticAdministratorCredential(token: environment[ServeCommand.adminTokenVariable].flatMap { $0.isEmpty ? nil : $0 } ?? "owner")
        case let .project(id, _):
            guard let path = environment[ServiceAccountKey.environmentVariable], !path.isEmpty,
                  let key = try? ServiceAccountKey(contentsOf: path) else { return nil }
            projectId = id
            target = .production
            administrator = ServiceAccountCredential(key: key)
        }
    }

    func run() async throws {
        let transport = HTTPTransport(target: target, apiKey: "authdeck", administrator: administrator)
        let outcome: Result<Void, any Error>
        do {
            try await ConsoleTenant.requireExisting(tenant, projectId: projectId, administrator: transport, backendName: backendName)
            outcome = .success(())
        } catch {
            outcome = .failure(error)
        }
        try? await transport.shutdown()
        try? await (administrator as? ServiceAccountCredential)?.shutdown()
        try outcome.get()
    }
}
