import Foundation
import IdentityToolkit

extension EmbeddedBackend {
    /// The endpoints of email actions, phone verification and multi-factor authentication.
    private static let verificationPaths: Set<String> = [
        SendOobCodeRequest.endpoint, ResetPasswordRequest.endpoint, SendVerificationCodeRequest.endpoint,
        SignInWithPhoneNumberRequest.endpoint, StartMfaEnrollmentRequest.endpoint, FinalizeMfaEnrollmentRequest.endpoint,
        WithdrawMfaRequest.endpoint, StartMfaSignInRequest.endpoint, FinalizeMfaSignInRequest.endpoint,
    ].reduce(into: []) { $0.insert($1.emulatorPath) }

    static func isVerificationPath(_ path: String) -> Bool { verificationPaths.contains(path) }

    func routeVerification(path: String, body: Data, context: RequestContext) async throws -> Data? {
        switch path {
        case SendOobCodeRequest.endpoint.emulatorPath:
            return try await encode(sendOobCode(decode(SendOobCodeBody.self, body), context: context))
        case ResetPasswordRequest.endpoint.emulatorPath:
            return try await encode(resetPassword(decode(ResetPasswordBody.self, body)))
        case SendVerificationCodeRequest.endpoint.emulatorPath:
            return try await encode(sendVerificationCode(decode(SendVerificationCodeBody.self, body)))
        case SignInWithPhoneNumberRequest.endpoint.emulatorPath:
            return try await encode(signInWithPhoneNumber(decode(PhoneSignInBody.self, body)))
        case StartMfaEnrollmentRequest.endpoint.emulatorPath:
            return try await encode(startMfaEnrollment(decode(StartMfaEnrollmentBody.self, body)))
        case FinalizeMfaEnrollmentRequest.endpoint.emulatorPath:
            return try await encode(finalizeMfaEnrollment(decode(FinalizeMfaEnrollmentBody.self, body)))
        case WithdrawMfaRequest.endpoint.emulatorPath:
            return try await encode(withdrawMfa(decode(WithdrawMfaBody.self, body)))
        case StartMfaSignInRequest.endpoint.emulatorPath:
            return try await encode(startMfaSignIn(decode(StartMfaSignInBody.self, body)))
        case FinalizeMfaSignInRequest.endpoint.emulatorPath:
            return try await encode(finalizeMfaSignIn(decode(FinalizeMfaSignInBody.self, body)))
        default:
            return nil
        }
    }
}
