import Foundation
import IdentityToolkit

/// What a tenant's settings allow, checked before its endpoints run, with the emulator's answers: a
/// tenant with `disableAuth` serves nothing; one without a sign-in method refuses an app that uses
/// it (an administrator still creates and manages accounts as given).
extension EmbeddedBackend {
    /// The tenant's settings as they are now (a patch takes effect at the next request); a tenant
    /// deleted meanwhile is not found.
    func tenantSettings(_ tenantId: String) throws -> TenantSettings {
        let directory = URL(fileURLWithPath: store.pool.path).deletingLastPathComponent().deletingLastPathComponent()
        guard let settings = try TenantDirectory(root: directory).read(tenantId) else { throw BackendFailure.tenantNotFound }
        return settings
    }

    /// An administrator's endpoint in a tenant: every one but a batch delete needs the tenant enabled.
    func checkTenantAdministration(_ tail: String, tenantId: String) throws {
        guard tail != "/accounts:batchDelete" else { return }
        guard try !tenantSettings(tenantId).disableAuth else { throw BackendFailure.projectDisabled }
    }

    /// A client endpoint (a POST by path) in a tenant. The token endpoint is the tenant's whatever its settings.
    func checkTenantPolicy(_ path: String, request: WireRequest, context: RequestContext, tenantId: String) throws {
        guard path != SecureTokenRequest.endpoint.emulatorPath else { return }
        let tenant = try tenantSettings(tenantId)
        guard !tenant.disableAuth else { throw BackendFailure.projectDisabled }
        guard !context.isAdmin else { return }
        switch path {
        case SignUpRequest.endpoint.emulatorPath:
            let body = try decode(MethodFields.self, request.body)
            if body.idToken != nil || body.password != nil || body.email != nil {
                guard tenant.allowPasswordSignup else { throw BackendFailure.operationNotAllowed }
            } else {
                guard tenant.enableAnonymousUser else { throw BackendFailure.adminOnlyOperation }
            }
        case SignInWithPasswordRequest.endpoint.emulatorPath, ResetPasswordRequest.endpoint.emulatorPath:
            guard tenant.allowPasswordSignup else { throw BackendFailure.passwordLoginDisabled }
        case SignInWithEmailLinkRequest.endpoint.emulatorPath:
            guard tenant.enableEmailLinkSignin else { throw BackendFailure.operationNotAllowed }
        case SendOobCodeRequest.endpoint.emulatorPath:
            guard try decode(MethodFields.self, request.body).requestType?.name != "EMAIL_SIGNIN" || tenant.enableEmailLinkSignin else {
                throw BackendFailure.operationNotAllowed
            }
        case StartMfaEnrollmentRequest.endpoint.emulatorPath, FinalizeMfaEnrollmentRequest.endpoint.emulatorPath:
            let body = try decode(MethodFields.self, request.body)
            guard body.phoneEnrollmentInfo == nil && body.phoneVerificationInfo == nil || tenant.allowsSmsSecondFactor else {
                throw BackendFailure.smsMultiFactorDisabled
            }
        default:
            return
        }
    }

    /// The fields that say which sign-in method a request uses.
    private struct MethodFields: Decodable {
        struct Present: Decodable {}
        var idToken: String?
        var email: String?
        var password: String?
        var requestType: EnumField<OobRequestTypeNames>?
        var phoneEnrollmentInfo: Present?
        var phoneVerificationInfo: Present?
    }
}

extension TenantSettings {
    var allowsSmsSecondFactor: Bool {
        (mfaConfig.state == "ENABLED" || mfaConfig.state == "MANDATORY") && mfaConfig.enabledProviders?.contains("PHONE_SMS") == true
    }
}
