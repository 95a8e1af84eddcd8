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

/// `GET /v2/projects/{projectId}/tenants?pageSize=&pageToken=`: the project's tenants, a page at a time.
/// A read that makes nothing, where a `GET tenants/{tenantId}` of the emulator (and of `authdeck serve`)
/// makes the tenant it names.
public struct ListTenantsRequest: AdministratorRequest, Equatable {
    public static let endpoint = Endpoint.v2("projects/{projectId}/tenants")
    public static let projectMethod = "/tenants"
    public static let httpMethod = "GET"
    public typealias Response = ListTenantsResponse
    /// Identity Platform's largest page.
    public static let pageSize = 1000

    public var projectId: String
    public var pageToken: String?

    public init(projectId: String, pageToken: String? = nil) {
        self.projectId = projectId
        self.pageToken = pageToken
    }

    public var resolvedEndpoint: Endpoint {
        let token = pageToken.map { "&pageToken=" + ($0.addingPercentEncoding(withAllowedCharacters: .urlQueryValueAllowed) ?? $0) } ?? ""
        return .v2("projects/\(projectId)/tenants?pageSize=\(Self.pageSize)" + token)
    }
}

public struct ListTenantsResponse: Codable, Sendable, Equatable {
    public var tenants: [Tenant]?
    public var nextPageToken: String?

    public init(tenants: [Tenant]?, nextPageToken: String? = nil) {
        self.tenants = tenants
        self.nextPageToken = nextPageToken
    }
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

    /// The last part of `name`.
    public var tenantId: String { name.split(separator: "/").last.map(String.init) ?? name }
}
