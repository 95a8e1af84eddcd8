import AppData
import AuthClient
import Foundation
import TerminalUI

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

/// The request to a provider before it is sent (Firebase's `OAuthProvider`): scopes and custom
/// parameters; for Microsoft also `tenant`, `prompt` and `login_hint`.
public struct ProviderForm: Equatable, Sendable {
    public enum Field: Equatable, Sendable { case tenant, prompt, loginHint, scopes, parameters }

    public var provider: FederatedProvider
    public var purpose: FederatedPurpose
    public var tenant = TextField(text: "common", maxLength: 100)
    public var prompt = TextField(maxLength: 20)
    public var loginHint = TextField(maxLength: 254)
    public var scopes: TextField
    public var parameters = TextField(maxLength: 300)
    public var focus: Field

    public init(provider: FederatedProvider, purpose: FederatedPurpose) {
        self.provider = provider
        self.purpose = purpose
        scopes = TextField(text: provider.defaultScopes.joined(separator: " "), maxLength: 300)
        focus = provider == .microsoft ? .tenant : .scopes
    }

    var fields: [Field] {
        provider == .microsoft ? [.tenant, .prompt, .loginHint, .scopes, .parameters] : [.scopes, .parameters]
    }

    subscript(field: Field) -> TextField {
        get {
            switch field {
            case .tenant: tenant
            case .prompt: prompt
            case .loginHint: loginHint
            case .scopes: scopes
            case .parameters: parameters
            }
        }
        set {
            switch field {
            case .tenant: tenant = newValue
            case .prompt: prompt = newValue
            case .loginHint: loginHint = newValue
            case .scopes: scopes = newValue
            case .parameters: parameters = newValue
            }
        }
    }

    mutating func moveFocus(by step: Int) {
        let all = fields
        let index = all.firstIndex(of: focus) ?? 0
        focus = all[(index + step + all.count) % all.count]
    }

    /// The provider the form describes, or what is wrong with it; nothing is sent before this passes.
    func oauthProvider() -> Result<OAuthProvider, FormProblem> {
        var parameters: [String: String] = [:]
        for pair in self.parameters.text.split(whereSeparator: \.isWhitespace) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2, !parts[0].isEmpty else {
                return .failure(FormProblem(field: .parameters, message: "Write custom parameters as key=value, separated by spaces ('\(pair)' is not)."))
            }
            parameters[String(parts[0])] = String(parts[1])
        }
        if provider == .microsoft {
            for (name, field) in [("tenant", tenant), ("prompt", prompt), ("login_hint", loginHint)] {
                let value = field.text.trimmingCharacters(in: .whitespaces)
                if !value.isEmpty { parameters[name] = value }
            }
        }
        let scopes = scopes.text.split(whereSeparator: \.isWhitespace).map(String.init)
        do {
            return .success(try OAuthProvider(providerID: provider.id, scopes: scopes, customParameters: parameters).validated())
        } catch {
            return .failure(FormProblem(field: .parameters, message: error.description))
        }
    }

    struct FormProblem: Error, Equatable {
        var field: Field
        var message: String
    }
}

/// The simulated provider's consent screen: pick or add an identity, see what is asked, consent or cancel.
public struct ConsentState: Equatable, Sendable {
    public enum Directory: Equatable, Sendable {
        case loading
        case loaded(SimulatedIdentityProviders.Directory)
        /// The backend has no simulated providers (production, the Firebase Auth Emulator).
        case unavailable(String)
    }

    public var provider: OAuthProvider
    public var purpose: FederatedPurpose
    public var directory: Directory = .loading
    /// Over the identities, then the "add a new identity" row.
    public var selection = 0
    /// Apple's Hide My Email, asked on the first authorization only.
    public var hideEmail = false
    public var newIdentity: NewIdentityForm?

    public init(provider: OAuthProvider, purpose: FederatedPurpose) {
        self.provider = provider
        self.purpose = purpose
    }

    var identities: [SimulatedIdentityProviders.Identity] {
        if case let .loaded(list) = directory { return list.identities }
        return []
    }

    var selectedIdentity: SimulatedIdentityProviders.Identity? {
        identities.indices.contains(selection) ? identities[selection] : nil
    }

    var isApple: Bool { provider.providerID == FederatedProvider.apple.id }

    /// The choice is Apple's only on a first authorization (a new identity's included);
    /// afterwards the first one stands.
    var canChooseHideEmail: Bool { isApple && selectedIdentity?.authorized != true }
}

public struct NewIdentityForm: Equatable, Sendable {
    public var name = TextField(maxLength: 100)
    public var email = TextField(maxLength: 254)
    public var focusOnEmail = false

    public init() {}
}

/// The sign-in methods of the account in two lists, linked and not yet linked (Keycloak's
/// account console "Linked accounts").
public struct LinkingState: Equatable, Sendable {
    public var selection: Int

    public init(selection: Int) { self.selection = selection }

    /// Every method the console can link, in the order it lists them.
    static let methods = [EmailAuthProvider.id] + FederatedProvider.allCases.map(\.id)

    static func linked(_ user: User) -> [String] { user.providerData.map(\.providerID) }

    static func notLinked(_ user: User) -> [String] {
        let linked = Set(linked(user))
        return methods.filter { !linked.contains($0) }
    }

    static func rows(_ user: User) -> [String] { linked(user) + notLinked(user) }

    /// Opens on the first method not linked yet: what the operator most likely came for.
    static func initial(for user: User) -> LinkingState {
        LinkingState(selection: min(linked(user).count, max(rows(user).count - 1, 0)))
    }
}

/// A credential the backend verified but could not use yet (accountExistsWithDifferentCredential,
/// emailAlreadyInUse): it is linked once the operator has signed in to the account with that email.
public struct PendingLink: Equatable, Sendable {
    public enum Reason: Equatable, Sendable { case accountExists, emailInUse }

    public var credential: AuthCredential
    public var email: String?
    public var reason: Reason
    /// An anonymous account the operator was on: its cart follows to the account signed in to.
    public var previousAnonymousUid: String?

    public init(credential: AuthCredential, email: String?, reason: Reason, previousAnonymousUid: String? = nil) {
        self.credential = credential
        self.email = email
        self.reason = reason
        self.previousAnonymousUid = previousAnonymousUid
    }

    var providerID: String { credential.provider }
}

public struct PendingLinkState: Equatable, Sendable {
    public var pending: PendingLink
    public var selection = 0

    public init(pending: PendingLink) { self.pending = pending }

    /// The ways to sign in to the account with that email: anything but the pending provider itself.
    var methods: [String] {
        [EmailAuthProvider.id] + FederatedProvider.allCases.map(\.id).filter { $0 != pending.providerID }
    }
}

/// One account as the conflict screen shows it.
public struct AccountSnapshot: Equatable, Sendable {
    public var uid: String
    public var isAnonymous: Bool
    public var email: String?
    public var providerIDs: [String]
    public var cart: [CartItem]

    public init(uid: String, isAnonymous: Bool, email: String?, providerIDs: [String], cart: [CartItem]) {
        self.uid = uid
        self.isAnonymous = isAnonymous
        self.email = email
        self.providerIDs = providerIDs
        self.cart = cart
    }

    public init(user: User, cart: [CartItem]) {
        self.init(uid: user.uid, isAnonymous: user.isAnonymous, email: user.email,
                  providerIDs: user.providerData.map(\.providerID), cart: cart)
    }
}

/// The link conflict: the identity belongs to another account. Both accounts side by side,
/// and what to do: cancel, or switch to the other account with the updated credential and merge.
public struct ConflictState: Equatable, Sendable {
    public enum Other: Equatable, Sendable {
        case loading
        case loaded(AccountSnapshot)
        /// It has 2-step verification: nothing of it shows before its second factor passes, which
        /// the switch asks for (these are its factors, as the sign-in's challenge listed them).
        case needsSecondFactor([MultiFactorInfo])
        case failed(AuthError)
    }

    public enum Option: Equatable, Sendable {
        case cancel
        /// Switch, merge the cart, keep the previous account (never offered for an anonymous one).
        case mergeAndKeep
        /// Switch, merge the cart, delete the previous account.
        case mergeAndDelete
    }

    public var credential: AuthCredential
    public var email: String?
    public var previous: AccountSnapshot
    public var other: Other = .loading
    public var choice = 0

    public init(credential: AuthCredential, email: String?, previous: AccountSnapshot) {
        self.credential = credential
        self.email = email
        self.previous = previous
    }

    var providerID: String { credential.provider }

    var options: [Option] {
        switch other {
        case .loaded, .needsSecondFactor:
            return previous.isAnonymous ? [.cancel, .mergeAndDelete] : [.cancel, .mergeAndKeep, .mergeAndDelete]
        case .loading, .failed:
            return [.cancel]
        }
    }
}

/// The merge after a link conflict, as the effect runner performs it: a sign-in with the updated
/// credential (and the other account's second factor, if it has them), then the previous account's
/// cart into the account signed in to, and the previous account deleted if asked.
public struct MergePlan: Equatable, Sendable {
    public var credential: AuthCredential
    public var previousUid: String
    public var deletePrevious: Bool

    public init(credential: AuthCredential, previousUid: String, deletePrevious: Bool) {
        self.credential = credential
        self.previousUid = previousUid
        self.deletePrevious = deletePrevious
    }
}

public struct MergeOutcome: Equatable, Sendable {
    public var result: AuthDataResult
    /// Set when the previous account was to be deleted and could not be (it is kept, its cart empty).
    public var deletionFailure: AuthError?

    public init(result: AuthDataResult, deletionFailure: AuthError? = nil) {
        self.result = result
        self.deletionFailure = deletionFailure
    }
}
