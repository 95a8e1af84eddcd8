import AuthClient
import Foundation
import TerminalUI

/// Work the verification, phone and second-factor flows ask for; `EffectRunner` performs it on
/// the `Auth` actor and answers with a `VerificationEvent`.
public enum VerificationEffect: Equatable, Sendable {
    case refreshOutbox
    case sendEmailVerification
    case applyActionCode(String)
    case sendPasswordReset(email: String)
    case confirmPasswordReset(code: String, newPassword: String)
    /// Texts a code for phone sign-in or linking.
    case verifyPhoneNumber(String)
    case signInWithPhone(PhoneAuthCredential)
    case linkPhone(PhoneAuthCredential)
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
    case outboxChanged(Result<Outbox, AuthError>)
    case emailVerificationSent(Result<String, AuthError>)
    case actionCodeApplied(Result<User?, AuthError>)
    case passwordResetSent(Result<String, AuthError>)
    case passwordResetConfirmed(Result<String, AuthError>)
    /// A code was texted; the success value is its verification ID.
    case codeSent(Result<String, AuthError>)
    case phoneSignInFinished(Result<AuthDataResult, AuthError>)
    case phoneLinkFinished(Result<AuthDataResult, AuthError>)
    case totpSecretGenerated(Result<TotpSecret, AuthError>)
    case enrolled(Result<User, AuthError>)
    case secondFactorSignInFinished(Result<AuthDataResult, AuthError>)
    case secondFactorMergeFinished(Result<MergeOutcome, AuthError>)
}

/// The emulator's outboxes as the console shows them: newest first.
public struct Outbox: Equatable, Sendable {
    public typealias Email = AuthEmulatorOutbox.Email
    public typealias TextMessage = AuthEmulatorOutbox.TextMessage

    public var emails: [Email]
    public var texts: [TextMessage]

    public init(emails: [Email] = [], texts: [TextMessage] = []) {
        self.emails = emails
        self.texts = texts
    }

    /// The text that carries the code of one verification.
    public func text(for verificationID: String) -> TextMessage? {
        texts.first { $0.verificationID == verificationID }
    }

    /// Emails then texts, as the outbox overlay lists them.
    var count: Int { emails.count + texts.count }
}

extension AuthEmulatorOutbox.Email {
    var subject: String {
        switch action {
        case .verifyEmail: "Verify your email"
        case .resetPassword: "Reset your password"
        case let .other(type): type
        }
    }
}

/// Phone numbers as people type them and as E.164 wants them.
enum PhoneNumberText {
    /// `+1 (555) 555-0100` → `+15555550100`; nil unless it is `+`, then 7 to 15 digits not starting with 0.
    static func e164(_ raw: String) -> String? {
        let kept = raw.filter { !" -().".contains($0) }
        guard kept.first == "+" else { return nil }
        let digits = kept.dropFirst()
        guard (7...15).contains(digits.count), digits.allSatisfy({ $0.isASCII && $0.isNumber }), digits.first != "0" else { return nil }
        return kept
    }

    static let formatHint = "Use international format: + country code and number, e.g. +1 555 555 0100."

    /// Keys a phone field takes: digits, `+`, and the separators people type.
    static func accepts(_ character: Character) -> Bool {
        (character.isASCII && character.isNumber) || "+ -().".contains(character)
    }

    /// All digits but the last four become `•`, as sign-in hints show them.
    static func masked(_ phone: String) -> String {
        var remaining = 4
        return String(phone.reversed().map { character -> Character in
            guard character.isNumber else { return character }
            guard remaining > 0 else { return "•" }
            remaining -= 1
            return character
        }.reversed())
    }
}

/// Edits a field that takes only the characters `accepts` allows; letters stay free for commands.
/// Returns whether the key was the field's.
@discardableResult
func editRestricted(_ field: inout TextField, with key: Key, accepts: (Character) -> Bool) -> Bool {
    switch key {
    case let .character(character):
        guard accepts(character) else { return false }
        return field.handle(key)
    case let .paste(text):
        return field.handle(.paste(String(TextField.sanitizePaste(text).filter(accepts))))
    default:
        return field.handle(key)
    }
}

/// A 6-digit code field.
func codeField() -> TextField { TextField(maxLength: 6) }

func isDigit(_ character: Character) -> Bool { character.isASCII && character.isNumber }

extension Banner {
    /// An error with what the user can do about it first, then the code and raw message.
    static func error(_ error: AuthError, advice: String) -> Banner {
        var banner = Banner.error(error)
        if !advice.isEmpty { banner.text = "\(error.message) \(advice)" }
        return banner
    }
}
