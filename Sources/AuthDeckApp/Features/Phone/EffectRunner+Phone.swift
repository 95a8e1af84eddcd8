import AuthClient
import Foundation

extension EffectRunner {
    func perform(_ effect: PhoneFeature.Effect) async -> PhoneFeature.Event {
        switch effect {
        case let .verifyPhoneNumber(phone):
            return .codeSent(await result { try await PhoneAuthProvider.provider(auth: self.auth).verifyPhoneNumber(phone) })
        case let .signIn(credential):
            return .signInFinished(await signedIn { try await self.auth.signIn(with: .phone(credential)) })
        case let .link(credential):
            return .linkFinished(await result { try await self.auth.link(with: .phone(credential)) })
        }
    }
}
