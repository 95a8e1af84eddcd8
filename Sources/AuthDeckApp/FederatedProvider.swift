import AuthClient
import Foundation

/// The federated providers the console offers, with what the console asks each for by default.
public enum FederatedProvider: String, CaseIterable, Equatable, Sendable {
    case apple = "apple.com"
    case microsoft = "microsoft.com"
    case google = "google.com"
    case facebook = "facebook.com"

    public var id: String { rawValue }

    var name: String {
        switch self {
        case .apple: "Apple"
        case .microsoft: "Microsoft"
        case .google: "Google"
        case .facebook: "Facebook"
        }
    }

    var defaultScopes: [String] {
        switch self {
        case .apple: ["email", "name"]
        case .microsoft, .google: ["openid", "email", "profile"]
        case .facebook: ["email", "public_profile"]
        }
    }

    /// Facebook's classic login has no ID token, so nothing to bind a nonce to.
    var usesNonce: Bool { self != .facebook }

    static func named(_ providerID: String) -> FederatedProvider? { FederatedProvider(rawValue: providerID) }

    /// `apple.com` → `Apple`; anything else keeps its id.
    static func displayName(_ providerID: String) -> String {
        named(providerID)?.name ?? (providerID == EmailAuthProvider.id ? "Email and password" : providerID)
    }
}

/// Why a provider is being asked: to sign in, to link it to the signed-in account, to confirm
/// it's the signed-in user before a sensitive operation, or to sign in to an account that
/// already has the email of a pending credential, which is then linked to it.
public enum FederatedPurpose: Equatable, Sendable {
    case signIn
    case link
    case reauthenticate(SensitiveOperation)
    case signInToLink(PendingLink)

    var needsUser: Bool {
        switch self {
        case .link, .reauthenticate: true
        case .signIn, .signInToLink: false
        }
    }
}

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
