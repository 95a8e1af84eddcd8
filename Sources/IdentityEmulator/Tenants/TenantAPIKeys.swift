import Foundation
import IdentityToolkit

/// Each tenant's own API key (`ProjectAPIKeys`): what a visitor's console in a tenant of a shared
/// backend holds instead of the admin token. A request with it is answered in that tenant only, and it
/// opens that tenant's emulator endpoints (outbox, settings, accounts wipe, lock-outs); nothing of the
/// project's own, of another tenant, nor any administrator path.
extension BackendProjects {
    /// The tenant a request with a tenant's key is answered in: the key's, whether the request names it
    /// or names none (as a project's key names its project: the token endpoint and the SDKs' calls with
    /// only an ID token name none, and are then refused there for a token of anyone else). Another tenant,
    /// another project, or a path of the project's own (its outbox, its administration) is refused.
    static func tenant(_ named: String?, of request: WireRequest, allowedBy scope: ProjectAPIKeys.Scope,
                       in backend: EmbeddedBackend) throws -> String {
        guard let keyTenant = scope.tenantId, backend.projectId == scope.projectId else { throw BackendFailure.keyOfAnotherTenant(scope) }
        if let named {
            guard named == keyTenant else { throw BackendFailure.keyOfAnotherTenant(scope) }
            return named
        }
        let end = request.path.firstIndex(of: "?") ?? request.path.endIndex
        guard projectNamed(in: request.path[..<end]) == nil else { throw BackendFailure.keyOfAnotherTenant(scope) }
        return keyTenant
    }

    /// On a shared backend, a request naming a tenant of the default project without a key that reaches
    /// it (that tenant's; the default project has none there, any key being the emulator's) is the
    /// administrator's or refused: tenant ids are not secret, and anyone's key would otherwise sign up,
    /// lock out and mail that tenant's users. Asked whether the tenant exists or not, so that the refusal
    /// tells nothing of which do. Paths that name the project keep their own rule (`routeProjectScoped`),
    /// and a request naming no tenant whose token is a tenant's is served there: the token is the credential.
    static func requireTenantKey(_ request: WireRequest, in backend: EmbeddedBackend) throws {
        guard let adminToken = backend.configuration.adminToken, !isAdministrator(request, adminToken: adminToken) else { return }
        let end = request.path.firstIndex(of: "?") ?? request.path.endIndex
        guard projectNamed(in: request.path[..<end]) == nil else { return }
        throw BackendFailure.tenantNeedsItsKey
    }

    /// `GET /emulator/v1/projects/{p}/tenants/{t}/apiKey` (`TenantAPIKeyRequest`), answered here since the
    /// key needs no database; nil for any other path. The administrator's on a shared backend, open on
    /// loopback as the emulator's endpoints are. A tenant not made first is not made here: the key of a
    /// tenant that does not exist would open nothing.
    func tenantAPIKey(_ request: WireRequest) throws -> Data? {
        let path = request.path.prefix { $0 != "?" }
        guard path.hasSuffix("/apiKey") else { return nil }
        let rest = path.dropFirst(Self.listingPath.count)
        guard rest.first == "/" else { return nil }
        let parts = rest.dropFirst().split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 4, parts[1] == "tenants" else { return nil }
        guard request.method.uppercased() == "GET" else { throw BackendFailure.notFound(String(path)) }
        if let adminToken = defaultProject.configuration.adminToken {
            guard Self.isAdministrator(request, adminToken: adminToken) else { throw BackendFailure.unauthenticated }
        }
        let (projectId, tenantId) = (String(parts[0]), String(parts[2]))
        guard projectId == defaultProject.projectId || ProjectId.isValid(projectId) else { throw BackendFailure.invalidProjectId(projectId) }
        guard TenantDirectory.isValidId(tenantId) else { throw BackendFailure.invalidTenantId(tenantId) }
        guard exists(projectId), try tenantDirectory(of: projectId).read(tenantId) != nil else { throw BackendFailure.tenantNotFound }
        return try WireCoding.encoder().encode(TenantAPIKeyResponse(apiKey: keys().apiKey(for: projectId, tenant: tenantId)))
    }

    /// Where a project's tenants are kept, found without opening its database.
    func tenantDirectory(of projectId: String) -> TenantDirectory {
        guard projectId != defaultProject.projectId else { return defaultProject.tenants }
        return TenantDirectory(root: projectDirectory(projectId).appendingPathComponent("tenants", isDirectory: true))
    }
}
