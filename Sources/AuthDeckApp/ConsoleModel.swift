import AppData
import AuthClient
import Foundation
import TerminalUI

/// The console's view model: a pure state machine. `handle` takes an event and returns the
/// effects to run; it reads no clock, does no I/O and draws nothing.
public struct ConsoleModel: Equatable, Sendable {
    public var screen: Screen = .launching
    public var user: User?
    public var token: TokenSummary?
    public var cart: [CartItem] = []
    public var banner: Banner?
    /// What is running, e.g. "Signing in…"; keys other than ctrl-c wait until it is done.
    public var busy: String?
    public var overlay: Overlay?
    public var exchanges: [BackendExchange] = []
    /// The emulator's outboxes, as last fetched.
    public var outbox = Outbox()
    /// The last consent at a simulated provider: the inspector shows its nonce and ID-token claims.
    public var lastAuthorization: ProviderAuthorization?
    /// The provider's profile from the last federated sign-in or link (`additionalUserInfo`).
    public var lastAdditionalUserInfo: AdditionalUserInfo?
    public let backendName: String

    public init(backendName: String) {
        self.backendName = backendName
    }

    /// The first effects, before any event.
    public static func start(backendName: String) -> (ConsoleModel, [ConsoleEffect]) {
        var model = ConsoleModel(backendName: backendName)
        model.busy = "Restoring the saved session…"
        return (model, [.restoreSession])
    }

    public mutating func handle(_ event: ConsoleEvent) -> [ConsoleEffect] {
        switch event {
        case let .key(key):
            return handleKey(key)
        case .resized:
            return []
        case let .sessionRestored(result):
            busy = nil
            switch result {
            case let .success(user?):
                adopt(user)
                screen = .account(AccountFocus())
                return [.loadCart(uid: user.uid)]
            case .success(nil):
                screen = .signInMethods(selection: 0)
            case let .failure(error):
                screen = .signInMethods(selection: 0)
                banner = Banner(.error, "The saved session could not be read; sign in again. The file was left in place.",
                                detail: error.reason)
            }
            return []
        case let .authStateChanged(user, token):
            return authStateChanged(user, token)
        case let .signInFinished(result):
            busy = nil
            switch result {
            case let .success(data):
                let pending = screen.pendingLink
                remember(data.additionalUserInfo)
                adopt(data.user)
                screen = .account(AccountFocus())
                banner = Banner(.success, data.additionalUserInfo?.isNewUser == true ? "Account created." : "Signed in.")
                return continuePendingLink(pending, signedIn: data.user)
            case let .failure(error):
                if let challenge = error.multiFactorChallenge { return challengeSecondFactor(challenge, purpose: .signIn) }
                if let effects = routeSignInFailure(error) { return effects }
                showFailureOnForm(error)
                return []
            }
        case let .linkFinished(result):
            busy = nil
            switch result {
            case let .success(data):
                remember(data.additionalUserInfo)
                adopt(data.user)
                screen = .account(AccountFocus())
                banner = Banner(.success, "Linked \(data.additionalUserInfo?.providerID ?? "the credential"). The uid and app data are unchanged.")
            case let .failure(error):
                if let effects = routeLinkFailure(error) { return effects }
                showFailureOnForm(error)
            }
            return []
        case let .unlinkFinished(providerID, result):
            busy = nil
            switch result {
            case let .success(user):
                adopt(user)
                banner = Banner(.success, "Unlinked \(providerID).")
            case let .failure(error):
                banner = .error(error)
            }
            screen = .account(clampedFocus())
            return []
        case let .reauthenticationFinished(operation, result):
            switch result {
            case .success:
                busy = "Retrying: \(operation.title)…"
                return [.perform(operation)]
            case let .failure(error):
                busy = nil
                if let challenge = error.multiFactorChallenge { return challengeSecondFactor(challenge, purpose: .reauthenticate(operation)) }
                showFailureOnForm(error)
                return []
            }
        case let .sensitiveOperationFinished(operation, result):
            busy = nil
            switch result {
            case .success:
                switch operation {
                case .updatePassword:
                    banner = Banner(.success, "Password changed. Other sessions of this account were signed out.")
                    screen = .account(AccountFocus())
                    return []
                case .deleteAccount:
                    let uid = user?.uid
                    banner = Banner(.success, "Account deleted.")
                    screen = .signInMethods(selection: 0)
                    return uid.map { [.deleteAppData(uid: $0)] } ?? []
                case let .unenroll(factor):
                    if case let .success(user?) = result { adopt(user) }
                    banner = Banner(.success, "Removed the second factor \"\(factor.displayName ?? factor.factorID)\". Other sessions were signed out.")
                    screen = .secondFactors(selection: 0)
                    return []
                }
            case let .failure(error) where error.code == .requiresRecentLogin:
                return requireReauthentication(for: operation)
            case let .failure(error):
                banner = .error(error)
                return []
            }
        case let .cartChanged(uid, result):
            guard uid == user?.uid else { return [] }
            switch result {
            case let .success(items):
                cart = items
                if case var .account(focus) = screen {
                    focus.cartSelection = min(focus.cartSelection, max(items.count - 1, 0))
                    screen = .account(focus)
                }
            case let .failure(error):
                banner = Banner(.error, "The app data could not be changed.", detail: error.reason)
            }
            return []
        case let .verification(event):
            return handleVerification(event)
        case let .exchangesChanged(entries):
            exchanges = entries
            if case let .inspector(selection) = overlay {
                overlay = .inspector(selection: min(selection, max(entries.count - 1, 0)))
            }
            return []
        case .providerDirectoryLoaded, .simulatedIdentityAdded, .providerAuthorized, .conflictAccountLoaded, .mergeFinished:
            return handleFederated(event)
        }
    }

    /// A failed submit keeps the email, never the password, and focuses what needs fixing.
    mutating func showFailureOnForm(_ error: AuthError) {
        banner = .error(error)
        guard case var .credentialForm(form) = screen else { return }
        form.password.text = ""
        form.focus = error.code == .invalidEmail ? .email : .password
        screen = .credentialForm(form)
    }

    mutating func adopt(_ user: User) {
        if self.user?.uid != user.uid { cart = [] }
        self.user = user
    }

    private mutating func authStateChanged(_ newUser: User?, _ newToken: TokenSummary?) -> [ConsoleEffect] {
        token = newToken
        guard let newUser else {
            let wasSignedIn = user != nil
            user = nil
            cart = []
            if screen.needsUser {
                screen = .signInMethods(selection: 0)
                busy = nil
                if wasSignedIn, banner?.kind != .success {
                    banner = Banner(.error, "The session ended: the account was deleted, disabled or its sessions revoked. Sign in again.")
                }
            }
            return []
        }
        let changedAccount = user?.uid != newUser.uid
        adopt(newUser)
        return changedAccount ? [.loadCart(uid: newUser.uid)] : []
    }

    private mutating func requireReauthentication(for operation: SensitiveOperation) -> [ConsoleEffect] {
        if let user, let effects = requireFederatedReauthentication(of: user, for: operation) { return effects }
        guard let user, let email = user.providerData.first(where: { $0.providerID == EmailAuthProvider.id })?.email ?? user.email else {
            banner = Banner(.error, "This operation needs a recent sign-in, and this account has no credential to sign in again with. Link one first, or sign out and in again.",
                            detail: "\(AuthErrorCode.requiresRecentLogin) (\(AuthErrorCode.requiresRecentLogin.rawValue)) · CREDENTIAL_TOO_OLD_LOGIN_AGAIN")
            screen = .account(AccountFocus())
            return []
        }
        banner = Banner(.info, "Your last sign-in was too long ago. Enter your password to \(operation.title); it then runs by itself.")
        screen = .credentialForm(CredentialForm(purpose: .reauthenticate(operation), email: email))
        return []
    }

    private func clampedFocus() -> AccountFocus {
        var focus = AccountFocus()
        if case let .account(current) = screen { focus = current }
        focus.providerSelection = min(focus.providerSelection, max((user?.providerData.count ?? 0) - 1, 0))
        return focus
    }
}
