import AuthClient
import Foundation

extension EffectRunner {
    func perform(_ effect: SecondFactorEnrollmentFeature.Effect) async -> SecondFactorEnrollmentFeature.Event {
        switch effect {
        case let .startPhoneEnrollment(phone):
            control.enrolling(phoneNumber: phone)
            return .codeSent(await result {
                let session = try await self.auth.multiFactor.session()
                return try await PhoneAuthProvider.provider(auth: self.auth).verifyPhoneNumber(phone, multiFactorSession: session)
            })
        case .generateTotpSecret:
            return .totpSecretGenerated(await result {
                try await TotpMultiFactorGenerator.generateSecret(with: self.auth.multiFactor.session())
            })
        case let .enroll(assertion, displayName):
            return .enrolled(await result { try await self.auth.multiFactor.enroll(with: assertion, displayName: displayName) })
        }
    }
}
