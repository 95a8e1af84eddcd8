import Foundation

// Identity Platform tenants: how a request names the tenant whose accounts it acts on. A client
// request carries `tenantId` in its body (the SDKs' `auth.tenantId`); an administrator request
// has the tenant in its path (`projects/{projectId}/tenants/{tenantId}/accounts…`).

/// A client request sent within a tenant: the request's own body with `tenantId` beside its fields.
public struct TenantScopedRequest<Base: IdentityRequest>: IdentityRequest {
    public typealias Response = Base.Response
    public static var endpoint: Endpoint { Base.endpoint }
    public static var httpMethod: String { Base.httpMethod }

    public let base: Base
    public let tenantId: String

    public init(_ base: Base, tenantId: String) {
        self.base = base
        self.tenantId = tenantId
    }

    public var resolvedEndpoint: Endpoint { base.resolvedEndpoint }

    private enum CodingKeys: String, CodingKey { case tenantId }

    /// The base's fields, then `tenantId` in the same JSON object (a keyed container asked for twice
    /// at one level is the same object).
    public func encode(to encoder: any Encoder) throws {
        try base.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(tenantId, forKey: .tenantId)
    }
}

/// An administrator request on one tenant's accounts: the base's path with `tenants/{tenantId}`
/// after the project, as the Admin SDKs' `auth_for_tenant` sends it.
public struct TenantAdministratorRequest<Base: AdministratorRequest>: AdministratorRequest {
    public typealias Response = Base.Response
    public static var projectMethod: String { Base.projectMethod }
    public static var httpMethod: String { Base.httpMethod }

    public let base: Base
    public let tenantId: String

    public init(_ base: Base, tenantId: String) {
        self.base = base
        self.tenantId = tenantId
    }

    public var projectId: String { base.projectId }

    public var resolvedEndpoint: Endpoint {
        let endpoint = base.resolvedEndpoint
        let project = "/projects/\(projectId)"
        guard let range = endpoint.path.range(of: project) else { return endpoint }
        var path = endpoint.path
        path.replaceSubrange(range, with: project + "/tenants/\(tenantId)")
        return Endpoint(host: endpoint.host, path: path)
    }

    public func encode(to encoder: any Encoder) throws { try base.encode(to: encoder) }
}

/// `GET /v2/projects/{projectId}/tenants/{tenantId}`: whether a tenant exists, and its name.
public struct GetTenantRequest: AdministratorRequest, Equatable {
    public static let endpoint = Endpoint.v2("projects/{projectId}/tenants/{tenantId}")
    public static let projectMethod = ""
    public static let httpMethod = "GET"
    public typealias Response = Tenant

    public var projectId: String
    public var tenantId: String

    public init(projectId: String, tenantId: String) {
        self.projectId = projectId
        self.tenantId = tenantId
    }

    public var resolvedEndpoint: Endpoint { .v2("projects/\(projectId)/tenants/\(tenantId)") }
}

/// A tenant as the v2 API answers it (the fields the console shows).
public struct Tenant: Codable, Sendable, Equatable {
    /// `projects/{projectId}/tenants/{tenantId}`.
    public var name: String
    public var displayName: String?

    public init(name: String, displayName: String? = nil) {
        self.name = name
        self.displayName = displayName
    }
}
