import AuthClient

/// The teaching pane's steps of an enrollment: the code texted or the TOTP secret made, the QR code
/// shown, and the enrollment with the code typed here.
extension SecondFactorEnrollmentFeature {
    func teaching(for effect: ConsoleEffect, in input: TeachingInput) -> TeachingContext? {
        guard case let .secondFactorEnrollment(enrollment) = effect else { return nil }
        switch enrollment {
        case let .startPhoneEnrollment(number):
            return TeachingContext(.smsEnrollmentSendCode(phoneNumber: number))
        case .generateTotpSecret:
            return TeachingContext(.totpSecret(email: input.user?.email ?? ""))
        case let .enroll(.totpEnrollment(_, code), displayName):
            return TeachingContext(.totpEnrollmentFinish(displayName: displayName, code: code))
        case let .enroll(.phone, displayName):
            guard case let .namingPhone(_, verificationID, code, _) = step else { return nil }
            return TeachingContext(.smsEnrollmentFinish(displayName: displayName, verificationID: verificationID, code: code))
        case .enroll(.totpSignIn, _):
            return nil
        }
    }

    /// The secret arrived and its QR code is in front of the user.
    func teachingAfterResult(in input: TeachingInput) -> TeachingContext? {
        guard case .scanning = step, input.shown?.step.kind != .totpQRCode else { return nil }
        return TeachingContext(steps: [.totpSecret(email: input.user?.email ?? ""), .totpQRCode(accountName: accountName, issuer: Self.issuer)])
    }
}
