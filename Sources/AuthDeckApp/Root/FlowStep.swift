import AuthClient
import Foundation

/// What a feature asks of the console: work (with what to show while it runs), a message,
/// another screen, or to leave with an outcome.
public enum FlowStep: Equatable, Sendable {
    case run(ConsoleEffect, busy: String?)
    case banner(Banner?)
    /// Another screen takes over: a form, a dialog over this one, the screen before.
    case show(Screen)
    case exit(FlowExit)
}

/// How a flow ends; the console decides which screen comes next.
public enum FlowExit: Equatable, Sendable {
    /// Signed in: the account and its cart, which the landing adopts together.
    case signedIn(SignedIn)
    /// The second factor of a reauthentication passed: run the operation that needed it.
    case reauthenticated(SensitiveOperation)
    case enrolled(User, displayName: String)
    /// The other account's second factor passed and the link conflict's merge is done.
    case merged(MergeOutcome, ConflictFeature)
    /// `what` names what was linked, for the banner.
    case linked(AuthDataResult, what: String)
    /// A pending credential, linked after signing in to the account that has its email: the
    /// console is on that account now, not the one it had.
    case linkedAfterSignIn(AuthDataResult, PendingLink)
    case passwordReset(email: String)
    /// A sensitive operation ran; `user`: the account afterwards, where the operation returns it.
    case operationFinished(SensitiveOperation, User?)
    /// The session ended without a flow of this screen (the backend ended it, an email change, the
    /// room's reset): the sign-in methods; `banner`: what to say, nil keeps the one shown.
    case sessionEnded(Banner?)
    /// A provider was unlinked, or could not be: the account's screen again either way.
    case unlinked(providerID: String, Result<User, AuthError>)
    /// Back where the flow started (`screenBefore`).
    case cancelled
    /// The first factor has to be given again (the pending credential expired or was refused).
    case restartSignIn(Banner)
}
