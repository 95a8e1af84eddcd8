import AppData
import AuthClient
import Foundation
import RoomChannel
import TerminalUI

/// Everything the console reacts to: keys, and the results of effects.
public enum ConsoleEvent: Equatable, Sendable {
    case key(Key)
    case resized(Size)
    case sessionRestored(Result<User?, SessionRestoreError>)
    /// `endedBy`: why the backend ended the session, when it did.
    case authStateChanged(User?, TokenSummary?, endedBy: AuthErrorCode? = nil)
    case signInFinished(Result<AuthDataResult, AuthError>)
    case linkFinished(Result<AuthDataResult, AuthError>)
    case unlinkFinished(providerID: String, Result<User, AuthError>)
    case reauthenticationFinished(SensitiveOperation, Result<AuthDataResult, AuthError>)
    case sensitiveOperationFinished(SensitiveOperation, Result<User?, AuthError>)
    case cartChanged(uid: String, Result<[CartItem], AppDataError>)
    /// Firebase's `reload()`: the account as the backend has it now.
    case userReloaded(Result<User, AuthError>)
    /// The guest account a pending link's sign-in left: nil when it was deleted, else why not.
    case leftGuestDeleted(uid: String, AuthError?)
    case exchangesChanged([BackendExchange])
    /// The outbox and the email actions, which the console answers whatever screen asked.
    case verification(VerificationEvent)
    // The features' own results, each for the feature that asked.
    case phone(PhoneFeature.Event)
    case passwordReset(PasswordResetFeature.Event)
    case emailLink(EmailLinkFeature.Event)
    case pendingLink(PendingLinkFeature.Event)
    case secondFactorEnrollment(SecondFactorEnrollmentFeature.Event)
    case secondFactorSignIn(SecondFactorSignInFeature.Event)
    case consent(ConsentFeature.Event)
    case conflict(ConflictFeature.Event)
    case accounts(AccountsFeature.Event)
    /// What the room tells every console under `authdeck ssh`: the presenter's message, that they watch, a reset.
    case roomNotice(RoomNotice)
    /// Whether the room wants this console's screen (someone follows it).
    case roomFrames(Bool)
    case room(RoomFeature.Event)
}

extension ConsoleEvent {
    /// Whether the event answers the work that made the console busy. Keys, resizes and the
    /// backend's own news (auth state, the cart, exchanges, the outbox) do not; a pending link's
    /// sign-in methods arrive behind a screen that is not busy.
    var endsBusyWork: Bool {
        switch self {
        case .key, .resized, .authStateChanged, .cartChanged, .exchangesChanged, .pendingLink, .verification(.outboxChanged), .roomNotice, .roomFrames:
            false
        case let .room(event):
            event.endsBusyWork
        case let .accounts(event):
            event.endsBusyWork
        case .sessionRestored, .signInFinished, .linkFinished, .unlinkFinished, .reauthenticationFinished, .sensitiveOperationFinished,
             .userReloaded, .leftGuestDeleted, .verification(.emailVerificationSent), .verification(.actionCodeApplied), .verification(.resetCodeChecked),
             .phone, .passwordReset, .emailLink, .secondFactorEnrollment, .secondFactorSignIn, .consent, .conflict:
            true
        }
    }
}

/// A saved session that could not be read; the file is left in place.
public struct SessionRestoreError: Error, Equatable, Sendable {
    public var reason: String
    public init(reason: String) { self.reason = reason }
}

public struct AppDataError: Error, Equatable, Sendable {
    public var reason: String
    public init(reason: String) { self.reason = reason }
}

/// Work for the effect runner; the model never performs I/O itself.
public enum ConsoleEffect: Equatable, Sendable {
    case restoreSession
    case signInAnonymously
    case createUser(email: String, password: String)
    case signIn(AuthCredential)
    case link(AuthCredential)
    case unlink(providerID: String)
    case reauthenticate(AuthCredential, then: SensitiveOperation)
    case perform(SensitiveOperation)
    case signOut
    case reloadUser
    case loadCart(uid: String)
    case addToCart(uid: String, name: String)
    case removeFromCart(uid: String, name: String)
    /// The account is gone: its app data goes too.
    case deleteAppData(uid: String)
    /// An anonymous account's cart follows the operator to the account signed in to.
    case mergeCart(from: String, into: String)
    /// The guest account a sign-in left, once the pending link it was for is done.
    case deleteLeftGuest(uid: String)
    case verification(VerificationEffect)
    case phone(PhoneFeature.Effect)
    case passwordReset(PasswordResetFeature.Effect)
    case emailLink(EmailLinkFeature.Effect)
    case pendingLink(PendingLinkFeature.Effect)
    case secondFactorEnrollment(SecondFactorEnrollmentFeature.Effect)
    case secondFactorSignIn(SecondFactorSignInFeature.Effect)
    case consent(ConsentFeature.Effect)
    case conflict(ConflictFeature.Effect)
    case accounts(AccountsFeature.Effect)
    case room(RoomFeature.Effect)
    case quit
}
