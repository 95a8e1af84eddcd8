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
            let nonce = FederatedProvider.named(provider.providerID)?.usesNonce == false ? nil : Self.hexNonce()
            return .providerAuthorized(await result {
                try await providers.authorize(provider, subject: subject, rawNonce: nonce, hideEmail: hideEmail)
            })
        }
    }

    /// 32 random bytes as 64 lower-case hex digits: the nonce the SDK pane's code generates, so that
    /// the value it shows for this run is one that code could have made.
    static func hexNonce() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<32).map { _ in String(format: "%02x", UInt8.random(in: .min ... .max, using: &generator)) }.joined()
    }
}
