import AuthClient
import Foundation

extension EffectRunner {
    func perform(_ effect: ConsentFeature.Effect) async -> ConsentFeature.Event {
        let providers = auth.simulatedIdentityProviders(ownerSecret: simulatedIdentityOwner)
        switch effect {
        case let .loadProviderDirectory(providerID):
            return .providerDirectoryLoaded(providerID: providerID, await result { try await providers.directory(for: providerID) })
        case let .addSimulatedIdentity(providerID, name, email):
            return .simulatedIdentityAdded(providerID: providerID, await result {
                try await providers.addIdentity(providerID: providerID, displayName: name, email: email)
            })
        case let .authorize(provider, subject, hideEmail):
            let nonce = FederatedProvider.named(provider.providerID)?.usesNonce == false ? nil : OAuthProvider.randomNonce()
            return .providerAuthorized(await result {
                try await providers.authorize(provider, subject: subject, rawNonce: nonce, hideEmail: hideEmail)
            })
        }
    }
}
