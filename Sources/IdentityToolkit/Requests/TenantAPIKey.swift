import Foundation

/// `GET /emulator/v1/projects/{projectId}/tenants/{tenantId}/apiKey`: the Web API key of one tenant on
/// an `authdeck serve`. AuthDeck's own: a client request with it is served only in that tenant, and on
/// a shared serve it opens that tenant's outbox, settings and accounts wipe, and nothing else. An
/// administrator's call on a shared serve; a tenant not made first is `TENANT_NOT_FOUND` (400). The
/// Firebase Auth Emulator has no such endpoint (404): its caller keeps the key it has.
public struct TenantAPIKeyRequest: EmulatorAdministratorRequest, Equatable {
    public static let endpoint = Endpoint(host: .emulator, path: "/v1/projects/{projectId}/tenants/{tenantId}/apiKey")
    public static let httpMethod = "GET"
    public typealias Response = TenantAPIKeyResponse

    public var projectId: String
    public var tenantId: String

    public init(projectId: String, tenantId: String) {
        self.projectId = projectId
        self.tenantId = tenantId
    }

    public var resolvedEndpoint: Endpoint {
        Endpoint(host: .emulator, path: "/v1/projects/\(projectId)/tenants/\(tenantId)/apiKey")
    }
}

public struct TenantAPIKeyResponse: Codable, Sendable, Equatable {
    public var apiKey: String

    public init(apiKey: String) { self.apiKey = apiKey }
}
