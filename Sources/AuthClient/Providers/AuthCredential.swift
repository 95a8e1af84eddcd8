import Foundation

/// A proof of identity to sign in, link or reauthenticate with.
public enum AuthCredential: Sendable, Equatable {
    case password(email: String, password: String)
    case phone(PhoneAuthCredential)
    /// A federated provider's credential (Apple, Google, Microsoft, Facebook).
    case oauth(OAuthCredential)
    /// A sign-in link emailed to `email` (`EMAIL_SIGNIN`): passwordless, under the `password` provider.
    case emailLink(email: String, link: String)

    public var provider: String {
        switch self {
        case .password, .emailLink: EmailAuthProvider.id
        case .phone: PhoneAuthProvider.id
        case let .oauth(credential): credential.providerID
        }
    }
}

public enum EmailAuthProvider {
    public static let id = "password"

    public static func credential(withEmail email: String, password: String) -> AuthCredential {
        .password(email: email, password: password)
    }

    /// Firebase's `credential(withEmail:link:)`: signs in with, links or reauthenticates with a sign-in link.
    public static func credential(withEmail email: String, link: String) -> AuthCredential {
        .emailLink(email: email, link: link)
    }
}

/// The pseudo-provider of anonymous accounts, as it appears in `firebase.sign_in_provider`.
public enum AnonymousAuthProvider {
    public static let id = "anonymous"
}
