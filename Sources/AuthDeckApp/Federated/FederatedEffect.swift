import AuthClient
import Foundation

/// Work the federated features ask for: the consent's and the link conflict's.
public enum FederatedEffect: Equatable, Sendable {
    case loadProviderDirectory(providerID: String)
    case addSimulatedIdentity(providerID: String, name: String, email: String)
    /// Consent at the simulated provider; the runner draws the nonce (nothing random in the model).
    case authorize(OAuthProvider, subject: String, hideEmail: Bool?)
    /// Signs in with the updated credential on the side, without touching the session, to show
    /// the account that owns the identity.
    case inspectConflictAccount(AuthCredential)
    case mergeAccounts(MergePlan)
}

/// The results of the federated features' effects: the consent's and the link conflict's.
public enum FederatedEvent: Equatable, Sendable {
    case providerDirectoryLoaded(providerID: String, Result<SimulatedIdentityProviders.Directory, AuthError>)
    case simulatedIdentityAdded(providerID: String, Result<SimulatedIdentityProviders.Identity, AuthError>)
    case providerAuthorized(Result<ProviderAuthorization, AuthError>)
    case conflictAccountLoaded(Result<AccountSnapshot, AuthError>)
    case mergeFinished(Result<MergeOutcome, AuthError>)
}
