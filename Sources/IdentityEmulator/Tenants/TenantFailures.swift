import Foundation

/// The emulator's answers about tenants: a token or body of another tenant, a tenant switched off,
/// a sign-in method the tenant does not allow.
extension BackendFailure {
    static let tenantIdMismatch = badRequest("TENANT_ID_MISMATCH")
    static let projectDisabled = badRequest("PROJECT_DISABLED")
    static let passwordLoginDisabled = badRequest("PASSWORD_LOGIN_DISABLED")
    static let adminOnlyOperation = badRequest("ADMIN_ONLY_OPERATION")
    static let smsMultiFactorDisabled = badRequest("OPERATION_NOT_ALLOWED : SMS based MFA not enabled.")
    /// A tenant named on a shared backend without its key (`BackendProjects.requireTenantKey`): Google's
    /// answer to a key it does not take, and what to send instead.
    static let tenantNeedsItsKey = badRequest(
        "API key not valid. Please pass a valid API key. : A tenant of this shared server is reached with its own API key, which the server's administrator gives out.")
    /// A tenant's API key (`ProjectAPIKeys`) on a request for anything but that tenant.
    static func keyOfAnotherTenant(_ scope: ProjectAPIKeys.Scope) -> BackendFailure {
        badRequest("TENANT_ID_MISMATCH : This API key belongs to tenant \(scope.tenantId ?? "") of project \(scope.projectId), and reaches nothing else.")
    }
}

/// Thrown by a backend handed a token of one of its project's tenants (an ID or refresh token whose
/// tenant the body did not name): the server answers the request in that tenant's database instead.
struct TenantHandOff: Error {
    let tenantId: String
}
