import AuthClient
import Foundation

extension EffectRunner {
    func perform(_ effect: PasswordResetFeature.Effect) async -> PasswordResetFeature.Event {
        switch effect {
        case let .sendPasswordReset(email):
            return .passwordResetSent(await result {
                try await self.auth.sendPasswordReset(withEmail: email)
                return email
            })
        case let .confirmPasswordReset(code, newPassword):
            return .passwordResetConfirmed(await result {
                let email = try await self.auth.verifyPasswordResetCode(code)
                try await self.auth.confirmPasswordReset(withCode: code, newPassword: newPassword)
                return email
            })
        }
    }
}
