import AuthClient
import Foundation
import TerminalUI

/// Work the verification and second-factor flows ask for; `EffectRunner` performs it on
/// the `Auth` actor and answers with a `VerificationEvent`.
public enum VerificationEffect: Equatable, Sendable {
    case refreshOutbox
    case sendEmailVerification
    /// Opens an email's link: verifies the address, confirms a new one, or restores the previous one.
    case applyActionCode(Outbox.Email)
    /// Emails a passwordless sign-in link.
    case sendSignInLink(email: String)
    /// How the account with this email signs in (`fetchSignInMethodsForEmail`).
    case fetchSignInMethods(email: String)
    case sendPasswordReset(email: String)
    case confirmPasswordReset(code: String, newPassword: String)
    /// Texts a code to a number that is to become a second factor.
    case startPhoneEnrollment(String)
    case generateTotpSecret
    case enroll(MultiFactorAssertion, displayName: String)
    /// Texts a code to an enrolled phone factor during a second-factor sign-in.
    case startSecondFactorSignIn(PhoneMultiFactorInfo, MultiFactorChallenge)
    case resolveSignIn(MultiFactorChallenge, MultiFactorAssertion)
    /// Finishes the sign-in to the other account of a link conflict, then merges as `plan` says.
    case resolveMerge(MultiFactorChallenge, MultiFactorAssertion, MergePlan)
}

/// The outcome of a `VerificationEffect`.
public enum VerificationEvent: Equatable, Sendable {
    case outboxChanged(Result<Outbox, OutboxProblem>)
    case emailVerificationSent(Result<String, AuthError>)
    /// The email whose link was opened, and the signed-in user afterwards (nil when it ended the session).
    case actionCodeApplied(Outbox.Email, Result<User?, AuthError>)
    case signInLinkSent(Result<String, AuthError>)
    /// Empty when the backend does not tell (email-enumeration protection).
    case signInMethodsFetched(email: String, Result<[String], AuthError>)
    case passwordResetSent(Result<String, AuthError>)
    case passwordResetConfirmed(Result<String, AuthError>)
    /// A code was texted; the success value is its verification ID.
    case codeSent(Result<String, AuthError>)
    case totpSecretGenerated(Result<TotpSecret, AuthError>)
    case enrolled(Result<User, AuthError>)
    case secondFactorSignInFinished(Result<AuthDataResult, AuthError>)
    case secondFactorMergeFinished(Result<MergeOutcome, AuthError>)
}
