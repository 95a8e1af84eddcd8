import AppData
import AuthClient
import Foundation
import TerminalUI

/// Which screen and which step the console is on. Each case carries exactly what that step
/// needs, so impossible combinations (a reauth prompt with nothing to retry) cannot be built.
public enum Screen: Equatable, Sendable {
    case launching
    case signInMethods(selection: Int)
    case credentialForm(CredentialForm)
    case account(AccountFocus)
    case addCartItem(TextField)
    case changePassword(PasswordForm)
    case confirm(Confirmation)
    /// The account's second factors: list, add, remove.
    case secondFactors(selection: Int)
    case enrollment(SecondFactorEnrollmentFlow)
    /// Factor selection and code entry after a first factor (sign-in or reauthentication).
    case secondFactorChallenge(SecondFactorSignInFlow)
    case phone(PhoneFlow)
    case passwordReset(PasswordResetFlow)
    case linking(LinkingState)
    case providerForm(ProviderForm)
    case consent(ConsentState)
    case conflict(ConflictState)
    case pendingLink(PendingLinkState)
    case reauthMethods(SensitiveOperation, selection: Int)

    /// Screens that only make sense with a signed-in user. The conflict and pending-link screens
    /// carry what they show themselves and lead on whether or not a session remains.
    var needsUser: Bool {
        switch self {
        case .launching, .signInMethods, .conflict, .pendingLink, .passwordReset: false
        case let .credentialForm(form): form.purpose == .link || form.purpose.isReauthentication
        case .account, .addCartItem, .changePassword, .confirm, .linking, .reauthMethods, .secondFactors, .enrollment: true
        case let .providerForm(form): form.purpose.needsUser
        case let .consent(consent): consent.purpose.needsUser
        case let .secondFactorChallenge(flow): flow.purpose != .signIn
        case let .phone(flow): flow.purpose == .link
        }
    }
}

/// The sign-in methods offered; only those that work are listed.
public enum SignInMethod: CaseIterable, Equatable, Sendable {
    case anonymous, emailPassword, createAccount
    case apple, microsoft, google, facebook
    case phone, resetPassword

    var title: String {
        switch self {
        case .anonymous: "Continue as guest (anonymous)"
        case .emailPassword: "Sign in with email and password"
        case .createAccount: "Create an account with email and password"
        case .phone: "Sign in with a phone number (SMS code)"
        case .resetPassword: "Reset a forgotten password"
        case .apple, .microsoft, .google, .facebook: "Sign in with \(federated?.name ?? "")"
        }
    }

    var detail: String {
        switch self {
        case .anonymous: "A new account with a uid and no credentials. Upgrade it later by linking one."
        case .emailPassword: "Sign in to an existing email/password account."
        case .createAccount: "A new account; the password needs at least 6 characters."
        case .phone: "A code is texted to the number (the phone pane shows it); a new number creates an account."
        case .resetPassword: "A reset link is emailed to the account (open it from the outbox, m)."
        case .apple: "Simulated Sign in with Apple: a nonce binds the ID token to this request; Hide My Email on the first consent."
        case .microsoft: "Simulated Microsoft identity platform: tenant, prompt, login hint and extra scopes such as mail.read."
        case .google: "Simulated Google: an ID token and an access token."
        case .facebook: "Simulated Facebook Login: an access token only; Facebook emails count as unverified."
        }
    }

    var federated: FederatedProvider? {
        switch self {
        case .anonymous, .emailPassword, .createAccount, .phone, .resetPassword: nil
        case .apple: .apple
        case .microsoft: .microsoft
        case .google: .google
        case .facebook: .facebook
        }
    }
}

/// An operation the backend refuses without a recent sign-in; kept while the user reauthenticates
/// so it can run again by itself afterwards.
public enum SensitiveOperation: Equatable, Sendable {
    case updatePassword(String)
    case deleteAccount
    case unenroll(MultiFactorInfo)

    var title: String {
        switch self {
        case .updatePassword: "change the password"
        case .deleteAccount: "delete the account"
        case let .unenroll(factor): "remove the second factor \"\(factor.displayName ?? factor.factorID)\""
        }
    }
}

/// The email/password form in its four uses.
public struct CredentialForm: Equatable, Sendable {
    public enum Purpose: Equatable, Sendable {
        case signIn, createAccount, link
        case reauthenticate(SensitiveOperation)
        /// Signing in to the account that has the email of a pending credential, which is then linked.
        case signInToLink(PendingLink)

        var isReauthentication: Bool {
            if case .reauthenticate = self { return true }
            return false
        }
    }

    public var purpose: Purpose
    public var email: TextField
    public var password: TextField
    public var focus: Field

    public enum Field: Equatable, Sendable { case email, password }

    public init(purpose: Purpose, email: String = "") {
        self.purpose = purpose
        self.email = TextField(text: email, maxLength: 254)
        self.password = TextField(maxLength: 128, isSecure: true)
        self.focus = email.isEmpty ? .email : .password
    }

    var title: String {
        switch purpose {
        case .signIn: "Sign in with email and password"
        case .createAccount: "Create an account"
        case .link: "Link email and password to this account"
        case let .reauthenticate(operation): "Confirm it's you to \(operation.title)"
        case let .signInToLink(pending): "Sign in to link \(FederatedProvider.displayName(pending.providerID))"
        }
    }
}

public struct PasswordForm: Equatable, Sendable {
    public var newPassword = TextField(maxLength: 128, isSecure: true)
    public var confirmation = TextField(maxLength: 128, isSecure: true)
    public var focusOnConfirmation = false

    public init() {}
}

/// Which list on the account screen has the selection.
public struct AccountFocus: Equatable, Sendable {
    public enum Pane: Equatable, Sendable { case providers, cart }
    public var pane: Pane = .providers
    public var providerSelection = 0
    public var cartSelection = 0

    public init() {}
}

/// A destructive or irreversible action waiting for a yes.
public struct Confirmation: Equatable, Sendable {
    public enum Action: Equatable, Sendable {
        case deleteAccount
        case unlink(providerID: String)
        case signOutAnonymous
        case unenroll(MultiFactorInfo)
    }

    public var action: Action
    public var confirmSelected = false

    public init(action: Action) { self.action = action }
}

/// A message under the screen: what just happened, or what went wrong and why.
public struct Banner: Equatable, Sendable {
    public enum Kind: Equatable, Sendable { case info, success, error }
    public var kind: Kind
    public var text: String
    /// For errors: the code and the raw server message, for developers.
    public var detail: String?

    public init(_ kind: Kind, _ text: String, detail: String? = nil) {
        self.kind = kind
        self.text = text
        self.detail = detail
    }

    static func error(_ error: AuthError) -> Banner {
        var detail = "\(error.code) (\(error.code.rawValue))"
        if let server = error.serverMessage { detail += " · \(server)" }
        return Banner(.error, error.message, detail: detail)
    }
}

public enum Overlay: Equatable, Sendable {
    case help
    case inspector(selection: Int)
    /// The emulator's outboxes: emails (verification, password reset) and texts (codes).
    case outbox(selection: Int)
}

/// The ID token of the signed-in user, as the account screen shows it.
public struct TokenSummary: Equatable, Sendable {
    public var shortToken: String
    public var signInProvider: String?
    public var signInSecondFactor: String?
    public var expirationDate: Date?

    public init(shortToken: String, signInProvider: String?, signInSecondFactor: String? = nil, expirationDate: Date?) {
        self.shortToken = shortToken
        self.signInProvider = signInProvider
        self.signInSecondFactor = signInSecondFactor
        self.expirationDate = expirationDate
    }

    init(_ result: IDTokenResult) {
        self.init(shortToken: result.shortenedToken(keeping: 16), signInProvider: result.signInProvider,
                  signInSecondFactor: result.signInSecondFactor, expirationDate: result.expirationDate)
    }
}
