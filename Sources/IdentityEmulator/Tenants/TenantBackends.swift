import Foundation
import IdentityToolkit

/// Each tenant's accounts live in a database of their own, `tenants/<id>/identity.sqlite` beside the
/// tenant's settings, for the reasons a project has its own: no query of one tenant can reach another's
/// rows (nor the project's), and deleting a tenant deletes its directory. A tenant's database is opened,
/// leased and closed as a project's is, within the same descriptor budget (`OpenProjects`).
extension BackendProjects {
    private static let scopedPrefixes = ["/identitytoolkit.googleapis.com/v1/projects/", "/emulator/v1/projects/"]
    private static let tenantManagementPrefix = "/identitytoolkit.googleapis.com/v2/projects/"

    /// The tenant a request names: its path's (`…/projects/{p}/tenants/{t}/…`), else its body's
    /// `tenantId`, else a GET's `tenantId` parameter (an email action link, `accounts:batchGet`). nil:
    /// the project's own accounts, unless its token is a tenant's (`TenantHandOff`). A `tenantId` that is
    /// not a string is refused, never taken for none: the request would act on the project's accounts.
    /// Managing tenants (`v2/projects/{p}/tenants`) is the project's, whatever tenant the request names.
    static func tenantNamed(in request: WireRequest, by project: EmbeddedBackend) throws -> String? {
        let path = request.path
        if path.hasPrefix(scopedPrefixes[0]) || path.hasPrefix(scopedPrefixes[1]) {
            let end = path.firstIndex(of: "?") ?? path.endIndex
            if let tenant = ProjectScopedPath(String(path[..<end]))?.tenantId { return String(tenant) }
        }
        if EmbeddedBackend.mayNameTenant(request.body), !path.hasPrefix(tenantManagementPrefix) {
            struct Tenant: Decodable { var tenantId: String? }
            if let tenant = try project.decode(Tenant.self, request.body).tenantId, !tenant.isEmpty { return tenant }
        }
        if request.method.utf8.count == 3, request.method.uppercased() == "GET", !path.hasPrefix(tenantManagementPrefix),
           let mark = path.firstIndex(of: "?") {
            let query = FormEncoding.items(String(path[path.index(after: mark)...]))
            if let tenant = query.first(where: { $0.name == "tenantId" })?.value, !tenant.isEmpty { return tenant }
        }
        return nil
    }

    /// The tenant a `DELETE projects/{p}/tenants/{t}` removes.
    static func tenantDeleted(by request: WireRequest) -> String? {
        guard request.method.utf8.count == 6, request.method.uppercased() == "DELETE", request.path.hasPrefix(tenantManagementPrefix) else {
            return nil
        }
        let parts = request.path.dropFirst(tenantManagementPrefix.count).split(separator: "?", maxSplits: 1)[0]
            .split(separator: "/", omittingEmptySubsequences: false)
        return parts.count == 3 && parts[1] == "tenants" ? String(parts[2]) : nil
    }

    /// Answers `request` in the accounts of `project`'s tenant. One handed off by the project (its token
    /// was the tenant's) is not handed on: a token of yet another tenant is refused there.
    func answer(_ request: WireRequest, inTenant tenantId: String, of project: EmbeddedBackend, handedOff: Bool = false) async -> WireResponse {
        let backend: EmbeddedBackend
        do {
            backend = try tenant(tenantId, of: project, request: request, mayCreate: !handedOff)
        } catch {
            return failure(opening: error).response
        }
        defer { open.release(backend) }
        let response = await backend.answer(request)
        // A request whose tenant was deleted under it (its database closed, its files gone) failed for that,
        // even if a tenant of that id has been made again since.
        if response.status >= 500, !open.holds(backend) {
            return BackendFailure.tenantNotFound.response
        }
        return response
    }

    /// The tenant's database, leased (release it). A tenant named before it was made is made, every
    /// method on, as the emulator makes it; on a shared backend only by the administrator, so that an
    /// app cannot fill the disk with tenants. Blocks on SQLite: call it off Swift's cooperative pool.
    private func tenant(_ id: String, of project: EmbeddedBackend, request: WireRequest, mayCreate: Bool) throws -> EmbeddedBackend {
        guard TenantDirectory.isValidId(id) else { throw BackendFailure.invalidTenantId(id) }
        let key = Self.openKey(of: id, in: project)
        if let backend = open.lease(key) { return backend }
        let tenants = project.tenants
        if try tenants.read(id) == nil {
            let adminToken = project.configuration.adminToken
            guard mayCreate, adminToken == nil || Self.isAdministrator(request, adminToken: adminToken) else { throw BackendFailure.tenantNotFound }
            _ = try tenants.update(id) { $0 ?? .implicit(project: project.projectId, tenantId: id) }
        }
        return try changes.withLock { _ in
            if let backend = open.lease(key) { return backend }
            close(open.takeIdle(limit: open.count + 1 - DescriptorBudget.openProjects()))
            // Opened while no removal runs; deleted meanwhile, its database is not made again.
            guard let backend = try tenants.whileExisting(id, {
                try EmbeddedBackend(project: project.projectId, databasePath: tenants.databasePath(id), sharing: project, tenantId: id)
            }) else { throw BackendFailure.tenantNotFound }
            open.insert(key, backend)
            return backend
        }
    }

    /// A tenant's deletion: its database is closed before its directory goes, and once more after, in
    /// case a request opened it in between, so that no later tenant of that id finds the old one open.
    /// Anyone else's is refused with nothing closed: closing would fail the tenant's requests under way.
    func deleteTenant(_ id: String, of project: EmbeddedBackend, _ request: WireRequest) async -> WireResponse {
        let adminToken = project.configuration.adminToken
        guard adminToken == nil || Self.isAdministrator(request, adminToken: adminToken) else { return await project.answer(request) }
        let key = Self.openKey(of: id, in: project)
        changes.withLock { _ in close(open.remove(key).map { [$0] } ?? []) }
        let response = await project.answer(request)
        changes.withLock { _ in close(open.remove(key).map { [$0] } ?? []) }
        return response
    }

    private static func openKey(of tenantId: String, in project: EmbeddedBackend) -> String {
        EmbeddedBackend.openKey(project: project.projectId, tenant: tenantId)
    }
}
