import AuthClient
import Foundation

extension EffectRunner {
    func perform(_ effect: PendingLinkFeature.Effect) async -> PendingLinkFeature.Event {
        switch effect {
        case let .fetchSignInMethods(email):
            return .signInMethodsFetched(email: email, await result { try await self.auth.fetchSignInMethods(forEmail: email) })
        }
    }
}
