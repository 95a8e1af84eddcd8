import AuthClient
import Foundation

extension EffectRunner {
    func perform(_ effect: EmailLinkFeature.Effect) async -> EmailLinkFeature.Event {
        switch effect {
        case let .sendSignInLink(email):
            return .signInLinkSent(await result {
                try await self.auth.sendSignInLink(toEmail: email)
                return email
            })
        }
    }
}
