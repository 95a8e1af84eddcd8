import AuthClient
import Foundation

extension EffectRunner {
    func perform(_ effect: SecondFactorSignInFeature.Effect) async -> SecondFactorSignInFeature.Event {
        switch effect {
        case let .startSecondFactorSignIn(hint, challenge):
            let session = auth.multiFactorResolver(for: challenge).session
            return .codeSent(await result {
                try await PhoneAuthProvider.provider(auth: self.auth).verifyPhoneNumber(with: hint, multiFactorSession: session)
            })
        case let .resolveSignIn(challenge, assertion):
            let resolver = auth.multiFactorResolver(for: challenge)
            return .secondFactorSignInFinished(await signedIn { try await resolver.resolveSignIn(with: assertion) })
        case let .resolveMerge(challenge, assertion, plan):
            let resolver = auth.multiFactorResolver(for: challenge)
            return .secondFactorMergeFinished(await merge(plan) { try await resolver.resolveSignIn(with: assertion) })
        }
    }
}
