import AuthClient
import Foundation

/// The outbox and the email actions opened from it: work the console asks for whatever screen
/// is showing; `EffectRunner` performs it on the `Auth` actor and answers with a `VerificationEvent`.
public enum VerificationEffect: Equatable, Sendable {
    case refreshOutbox
    case sendEmailVerification
    /// Opens an email's link: verifies the address, confirms a new one, or restores the previous one.
    case applyActionCode(Outbox.Email)
    /// Asks the backend whether a reset email's code still works before its form opens.
    case checkResetCode(Outbox.Email)
}

/// The outcome of a `VerificationEffect`.
public enum VerificationEvent: Equatable, Sendable {
    case outboxChanged(Result<Outbox, OutboxProblem>)
    case emailVerificationSent(Result<String, AuthError>)
    /// The email whose link was opened, and the signed-in user afterwards (nil when it ended the session).
    case actionCodeApplied(Outbox.Email, Result<User?, AuthError>)
    /// The reset email, and the account's address its code resets (`verifyPasswordResetCode`).
    case resetCodeChecked(Outbox.Email, Result<String, AuthError>)
}
