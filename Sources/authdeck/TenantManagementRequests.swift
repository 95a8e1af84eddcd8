import Foundation
import IdentityToolkit

// The tenant management `authdeck ssh` does on a shared backend, as the Admin SDKs' `tenant_mgt` does
// it (`projects/{projectId}/tenants…`, v2), and the emulator's wipe of one tenant's accounts.

/// `POST /v2/projects/{projectId}/tenants`: a tenant with every sign-in method a visitor's console walks.
struct CreateTenantRequest: AdministratorRequest, Equatable {
    static let projectMethod = "/tenants"
    typealias Response = Tenant

    struct MultiFactorConfig: Codable, Sendable, Equatable {
        var state: String
        var enabledProviders: [String]
    }

    var projectId: String
    /// 4 to 20 characters, a letter first, then letters, digits and hyphens (Identity Platform's rule).
    var displayName: String
    var allowPasswordSignup = true
    var enableEmailLinkSignin = true
    var enableAnonymousUser = true
    var mfaConfig = MultiFactorConfig(state: "ENABLED", enabledProviders: ["PHONE_SMS"])

    init(projectId: String, displayName: String) {
        self.projectId = projectId
        self.displayName = displayName
    }

    var resolvedEndpoint: Endpoint { .v2("projects/\(projectId)/tenants") }

    enum CodingKeys: String, CodingKey { case displayName, allowPasswordSignup, enableEmailLinkSignin, enableAnonymousUser, mfaConfig }
}

/// `DELETE /v2/projects/{projectId}/tenants/{tenantId}`: the tenant and everything in it.
struct DeleteTenantRequest: AdministratorRequest, Equatable {
    static let projectMethod = "/tenants"
    static let httpMethod = "DELETE"
    typealias Response = EmptyAnswer

    var projectId: String
    var tenantId: String

    var resolvedEndpoint: Endpoint { .v2("projects/\(projectId)/tenants/\(tenantId)") }

    func encode(to encoder: any Encoder) throws {}
}

/// `DELETE /emulator/v1/projects/{projectId}/tenants/{tenantId}/accounts`: every account of the tenant,
/// and on `authdeck serve` its outbox too. Emulators only.
struct EmptyTenantRequest: EmulatorAdministratorRequest, Equatable {
    static let endpoint = Endpoint(host: .emulator, path: "/v1/projects/{projectId}/tenants/{tenantId}/accounts")
    static let httpMethod = "DELETE"
    typealias Response = EmptyAnswer

    var projectId: String
    var tenantId: String

    var resolvedEndpoint: Endpoint { Endpoint(host: .emulator, path: "/v1/projects/\(projectId)/tenants/\(tenantId)/accounts") }

    func encode(to encoder: any Encoder) throws {}
}

/// `{}`.
struct EmptyAnswer: Codable, Sendable, Equatable {}
