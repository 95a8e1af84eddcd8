import Foundation
import IdentityToolkit

/// `projects/{p}/tenants` (v2): create, list, get, patch and delete a project's tenants, with the
/// emulator's answers. An administrator's only, as every path that names a project.
extension EmbeddedBackend {
    private static let projectsPrefix = "/identitytoolkit.googleapis.com/v2/projects/"
    static let tenantStates: Set<String> = ["STATE_UNSPECIFIED", "DISABLED", "ENABLED", "MANDATORY"]
    static let tenantSecondFactors: Set<String> = ["PROVIDER_UNSPECIFIED", "PHONE_SMS"]

    /// Where this project's tenants are kept: beside its database.
    var tenants: TenantDirectory {
        TenantDirectory(root: URL(fileURLWithPath: store.pool.path).deletingLastPathComponent().appendingPathComponent("tenants", isDirectory: true))
    }

    /// Answers a tenant-management path, or nil for any other.
    func routeTenants(_ path: String, request: WireRequest, query: [URLQueryItem]) throws -> Data? {
        guard path.hasPrefix(Self.projectsPrefix) else { return nil }
        let parts = path.dropFirst(Self.projectsPrefix.count).split(separator: "/", omittingEmptySubsequences: false)
        guard (2...3).contains(parts.count), parts[1] == "tenants", !parts[0].isEmpty else { return nil }
        let context = try RequestContext(request: request, query: query, adminToken: configuration.adminToken)
        guard context.isAdmin else { throw BackendFailure.targetProjectNeedsAdministrator }
        try requireServedProject(String(parts[0]))
        let method = request.method.uppercased()
        guard parts.count == 3 else {
            switch method {
            case "POST":
                let body = try tenantBody(request.body)
                return try encode(tenants.create { TenantSettings(project: projectId, tenantId: $0, body: body) })
            case "GET":
                return try encode(listTenants(query: query))
            default:
                throw BackendFailure.notFound(path)
            }
        }
        let id = String(parts[2])
        guard TenantDirectory.isValidId(id) else { throw BackendFailure.invalidTenantId(id) }
        switch method {
        case "GET":
            // A tenant named before it was created is made, every method on, as the emulator makes it.
            return try encode(tenants.read(id) ?? tenants.update(id) { $0 ?? .implicit(project: projectId, tenantId: id) })
        case "PATCH":
            let body = try tenantBody(request.body)
            let mask = query.first { $0.name == "updateMask" }?.value ?? ""
            return try encode(tenants.update(id) { existing in
                guard !mask.isEmpty else { return TenantSettings(project: projectId, tenantId: id, body: body) }
                var tenant = existing ?? .implicit(project: projectId, tenantId: id)
                tenant.apply(body, updateMask: mask)
                return tenant
            })
        case "DELETE":
            try tenants.remove(id)
            return Data("{}".utf8)
        default:
            throw BackendFailure.notFound(path)
        }
    }

    private func tenantBody(_ data: Data) throws -> TenantBody {
        let body = try decode(TenantBody.self, data)
        if let state = body.mfaConfig?.state, !Self.tenantStates.contains(state) {
            throw BackendFailure.invalidArgument("Invalid value at 'mfaConfig.state' (\(state))")
        }
        if let provider = body.mfaConfig?.enabledProviders?.first(where: { !Self.tenantSecondFactors.contains($0) }) {
            throw BackendFailure.invalidArgument("Invalid value at 'mfaConfig.enabledProviders' (\(provider))")
        }
        return body
    }

    /// A page of `pageSize` tenants (20 unless said, at most 1000; a negative size, every one), and a
    /// token whenever the page is full, as the emulator pages them.
    private func listTenants(query: [URLQueryItem]) throws -> ListTenantsResponse {
        let requested = query.first { $0.name == "pageSize" }?.value.flatMap { Double($0) }.map { Int($0.rounded(.down)) } ?? 0
        let pageSize = min(requested == 0 ? 20 : requested, 1000)
        var page = try tenants.list(after: query.first { $0.name == "pageToken" }?.value)
        var nextPageToken: String?
        if pageSize > 0, page.count >= pageSize {
            page = Array(page.prefix(pageSize))
            nextPageToken = page.last?.tenantId
        }
        return ListTenantsResponse(tenants: page, nextPageToken: nextPageToken)
    }
}
