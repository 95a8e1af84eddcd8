import Foundation
import IdentityToolkit

extension EmbeddedBackend {
    /// The endpoints of email actions, phone verification and multi-factor authentication.
    static let verificationRoutes: [(String, PostRoute)] = [
        (SendOobCodeRequest.endpoint.emulatorPath, { backend, request, context in
            try await backend.encode(backend.sendOobCode(backend.decode(SendOobCodeBody.self, request.body), context: context))
        }),
        (ResetPasswordRequest.endpoint.emulatorPath, { backend, request, _ in
            try await backend.encode(backend.resetPassword(backend.decode(ResetPasswordBody.self, request.body)))
        }),
        (SendVerificationCodeRequest.endpoint.emulatorPath, { backend, request, _ in
            try await backend.encode(backend.sendVerificationCode(backend.decode(SendVerificationCodeBody.self, request.body)))
        }),
        (SignInWithPhoneNumberRequest.endpoint.emulatorPath, { backend, request, _ in
            try await backend.encode(backend.signInWithPhoneNumber(backend.decode(PhoneSignInBody.self, request.body)))
        }),
        (StartMfaEnrollmentRequest.endpoint.emulatorPath, { backend, request, _ in
            try await backend.encode(backend.startMfaEnrollment(backend.decode(StartMfaEnrollmentBody.self, request.body)))
        }),
        (FinalizeMfaEnrollmentRequest.endpoint.emulatorPath, { backend, request, _ in
            try await backend.encode(backend.finalizeMfaEnrollment(backend.decode(FinalizeMfaEnrollmentBody.self, request.body)))
        }),
        (WithdrawMfaRequest.endpoint.emulatorPath, { backend, request, _ in
            try await backend.encode(backend.withdrawMfa(backend.decode(WithdrawMfaBody.self, request.body)))
        }),
        (StartMfaSignInRequest.endpoint.emulatorPath, { backend, request, _ in
            try await backend.encode(backend.startMfaSignIn(backend.decode(StartMfaSignInBody.self, request.body)))
        }),
        (FinalizeMfaSignInRequest.endpoint.emulatorPath, { backend, request, _ in
            try await backend.encode(backend.finalizeMfaSignIn(backend.decode(FinalizeMfaSignInBody.self, request.body)))
        }),
    ]
}
