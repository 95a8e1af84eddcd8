import Foundation
import IdentityToolkit

extension EmbeddedBackend {
    /// The endpoints of email actions, phone verification and multi-factor authentication.
    private static let verificationPaths: Set<String> = [
        SendOobCodeRequest.endpoint, ResetPasswordRequest.endpoint, SendVerificationCodeRequest.endpoint,
        SignInWithPhoneNumberRequest.endpoint, StartMfaEnrollmentRequest.endpoint, FinalizeMfaEnrollmentRequest.endpoint,
        WithdrawMfaRequest.endpoint, StartMfaSignInRequest.endpoint, FinalizeMfaSignInRequest.endpoint,
    ].reduce(into: []) { $0.insert($1.emulatorPath) }

    static func isVerificationPath(_ path: String) -> Bool {
        verificationPaths.contains(path) || projectScopedSendOobCode(path) != nil
    }

    /// `/identitytoolkit.googleapis.com/v1/projects/{id}/accounts:sendOobCode`: where the Admin SDK sends it.
    private static func projectScopedSendOobCode(_ path: String) -> String? {
        let prefix = "/identitytoolkit.googleapis.com/v1/projects/"
        let suffix = "/accounts:sendOobCode"
        guard path.hasPrefix(prefix), path.hasSuffix(suffix), path.count > prefix.count + suffix.count else { return nil }
        return String(path.dropFirst(prefix.count).dropLast(suffix.count))
    }

    func routeVerification(path: String, body: Data, context: RequestContext) throws -> Data? {
        switch path {
        case SendOobCodeRequest.endpoint.emulatorPath:
            return try encode(sendOobCode(decode(SendOobCodeBody.self, body), context: context))
        case ResetPasswordRequest.endpoint.emulatorPath:
            return try encode(resetPassword(decode(ResetPasswordBody.self, body)))
        case SendVerificationCodeRequest.endpoint.emulatorPath:
            return try encode(sendVerificationCode(decode(SendVerificationCodeBody.self, body)))
        case SignInWithPhoneNumberRequest.endpoint.emulatorPath:
            return try encode(signInWithPhoneNumber(decode(PhoneSignInBody.self, body)))
        case StartMfaEnrollmentRequest.endpoint.emulatorPath:
            return try encode(startMfaEnrollment(decode(StartMfaEnrollmentBody.self, body)))
        case FinalizeMfaEnrollmentRequest.endpoint.emulatorPath:
            return try encode(finalizeMfaEnrollment(decode(FinalizeMfaEnrollmentBody.self, body)))
        case WithdrawMfaRequest.endpoint.emulatorPath:
            return try encode(withdrawMfa(decode(WithdrawMfaBody.self, body)))
        case StartMfaSignInRequest.endpoint.emulatorPath:
            return try encode(startMfaSignIn(decode(StartMfaSignInBody.self, body)))
        case FinalizeMfaSignInRequest.endpoint.emulatorPath:
            return try encode(finalizeMfaSignIn(decode(FinalizeMfaSignInBody.self, body)))
        default:
            guard let project = Self.projectScopedSendOobCode(path) else { return nil }
            guard project == projectId else { throw BackendFailure.notFound(path) }
            return try encode(sendOobCode(decode(SendOobCodeBody.self, body), context: context))
        }
    }

    /// `GET /emulator/v1/projects/{id}/oobCodes|verificationCodes`: the outboxes. Like the emulator's,
    /// they need no credentials; another project's outbox is empty.
    func routeEmulatorOutbox(method: String, path: String) throws -> Data? {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 6, parts[1] == "emulator", parts[2] == "v1", parts[3] == "projects",
              parts[5] == "oobCodes" || parts[5] == "verificationCodes" else { return nil }
        guard method == "GET" else { throw BackendFailure.notFound(path) }
        let ours = parts[4] == projectId
        if parts[5] == "oobCodes" {
            return try encode(ours ? listOobCodes() : ListOobCodesResponse(oobCodes: []))
        }
        return try encode(ours ? listVerificationCodes() : ListVerificationCodesResponse(verificationCodes: []))
    }
}
