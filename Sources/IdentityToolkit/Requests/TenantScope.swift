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

    public var resolvedEndpoint: Endpoint { base.resolvedEndpoint.inTenant(tenantId, of: projectId) }

    public func encode(to encoder: any Encoder) throws { try base.encode(to: encoder) }
}

/// One of AuthDeck's own administrator requests (`/emulator/v1/projects/{p}/lockouts:…`) made on a
/// tenant: `tenants/{tenantId}` after the project, as serve routes every project path.
public struct TenantEmulatorRequest<Base: EmulatorAdministratorRequest>: EmulatorAdministratorRequest {
    public typealias Response = Base.Response
    public static var endpoint: Endpoint { Base.endpoint }
    public static var httpMethod: String { Base.httpMethod }

    public let base: Base
    public let projectId: String
    public let tenantId: String

    public init(_ base: Base, projectId: String, tenantId: String) {
        self.base = base
        self.projectId = projectId
        self.tenantId = tenantId
    }

    public var resolvedEndpoint: Endpoint { base.resolvedEndpoint.inTenant(tenantId, of: projectId) }

    public func encode(to encoder: any Encoder) throws { try base.encode(to: encoder) }
}

extension Endpoint {
    /// The same endpoint on one tenant of the project: `tenants/{tenantId}` after `projects/{projectId}`.
    func inTenant(_ tenantId: String, of projectId: String) -> Endpoint {
        let project = "/projects/\(projectId)"
        guard let range = path.range(of: project) else { return self }
        var path = self.path
        path.replaceSubrange(range, with: project + "/tenants/\(tenantId)")
        return Endpoint(host: host, path: path)
    }
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
