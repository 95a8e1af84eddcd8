import AuthClient
import Foundation

/// The federated providers the console offers, with what the console asks each for by default.
public enum FederatedProvider: CaseIterable, Equatable, Sendable {
    case apple, microsoft, google, facebook

    /// Firebase's provider id, named once in AuthClient; Microsoft has no provider type there
    /// (the SDKs reach it through a plain `OAuthProvider`), so its id is named here.
    public var id: String {
        switch self {
        case .apple: AppleAuthProvider.id
        case .microsoft: "microsoft.com"
        case .google: GoogleAuthProvider.id
        case .facebook: FacebookAuthProvider.id
        }
    }

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

    static func named(_ providerID: String) -> FederatedProvider? { allCases.first { $0.id == providerID } }

    /// `apple.com` → `Apple`; anything else keeps its id.
    static func displayName(_ providerID: String) -> String {
        named(providerID)?.name ?? (providerID == EmailAuthProvider.id ? "Email and password"
            : providerID == PhoneAuthProvider.id ? "Phone number"
            : providerID == EmailLinkAuthSignInMethod.id ? "Email link" : providerID)
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
