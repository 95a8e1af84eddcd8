import AppData
import AuthClient
import Foundation
import RoomChannel
import TerminalUI

/// Everything the console reacts to: keys, and the results of effects.
public enum ConsoleEvent: Equatable, Sendable {
    case key(Key)
    case resized(Size)
    /// The saved session's account with its cart, or nil when none was saved.
    case sessionRestored(Result<SignedIn?, SessionRestoreError>)
    /// `endedBy`: why the backend ended the session, when it did.
    case authStateChanged(User?, TokenSummary?, endedBy: AuthErrorCode? = nil)
    case signInFinished(Result<SignedIn, AuthError>)
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
    /// A feature's own result, for the feature that asked: one scope for every feature's, as its
    /// actions have (`FeatureAction`).
    case feature(FeatureEvent)
    /// What the room tells every console under `authdeck ssh`: the presenter's message, that they watch, a reset.
    case roomNotice(RoomNotice)
    /// Whether the room wants this console's screen (someone follows it).
    case roomFrames(Bool)

    /// A feature's own result, lifted into the root's.
    static func feature(_ event: some FeatureResult) -> ConsoleEvent {
        .feature(FeatureEvent(event))
    }
}

/// What a feature's `Event` type is: the results of its effects, each of which says whether it
/// answers the work that made the console busy.
protocol FeatureResult: Equatable, Sendable {
    var endsBusyWork: Bool { get }
}

extension FeatureResult {
    var endsBusyWork: Bool { true }
}

/// The features that start no work of their own.
extension Never: FeatureResult {}

/// A feature's result lifted into the root's. It reaches a feature only if it is of that feature's
/// `Event` type, so a feature's `switch` lists only its own cases and no list of features routes results.
public struct FeatureEvent: Equatable, Sendable {
    let event: any FeatureResult

    init(_ event: some FeatureResult) {
        self.event = event
    }

    /// The result, if it is of `type`.
    func event<Event: FeatureResult>(as type: Event.Type) -> Event? {
        event as? Event
    }

    public static func == (lhs: FeatureEvent, rhs: FeatureEvent) -> Bool {
        lhs.event.isEqual(to: rhs.event)
    }
}

extension ConsoleEvent {
    /// Whether the event answers the work that made the console busy. Keys, resizes and the
    /// backend's own news (auth state, the cart, exchanges, the outbox) do not; a feature's result
    /// says for itself (a pending link's sign-in methods arrive behind a screen that is not busy).
    var endsBusyWork: Bool {
        switch self {
        case .key, .resized, .authStateChanged, .cartChanged, .exchangesChanged, .verification(.outboxChanged), .roomNotice, .roomFrames:
            false
        case let .feature(result):
            result.event.endsBusyWork
        case .sessionRestored, .signInFinished, .linkFinished, .unlinkFinished, .reauthenticationFinished, .sensitiveOperationFinished,
             .userReloaded, .leftGuestDeleted, .verification(.emailVerificationSent), .verification(.actionCodeApplied), .verification(.resetCodeChecked):
            true
        }
    }
}

/// A sign-in as the console lands it: the backend's result and the account's cart, read in the
/// same trip, so the landing adopts the user and their cart at once.
public struct SignedIn: Equatable, Sendable {
    public var result: AuthDataResult
    /// The account's cart, or why the app data could not be read.
    public var cart: Result<[CartItem], AppDataError>

    public init(_ result: AuthDataResult, cart: Result<[CartItem], AppDataError>) {
        self.result = result
        self.cart = cart
    }

    public var user: User { result.user }
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
