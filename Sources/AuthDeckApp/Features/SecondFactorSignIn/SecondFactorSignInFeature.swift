import AuthClient
import Foundation
import TerminalUI

/// The second-factor challenge: after the first factor the backend asked for a second, so the
/// user picks one of the challenge's hints; SMS texts a code first, TOTP asks for the app's code.
public struct SecondFactorSignInFeature: ConsoleFeature {
    /// What the screen's keys mean.
    public enum Action: Equatable, Sendable, ListAction, BackAction {
        case up, down, choose, back, submit, resend
    }

    /// Work the screen asks for; `EffectRunner` performs it (`EffectRunner+SecondFactorSignIn` beside this file).
    public enum Effect: Equatable, Sendable {
        /// Texts a code to an enrolled phone factor.
        case startSecondFactorSignIn(PhoneMultiFactorInfo, MultiFactorChallenge)
        case resolveSignIn(MultiFactorChallenge, MultiFactorAssertion)
        /// Finishes the sign-in to the other account of a link conflict, then merges as `plan` says.
        case resolveMerge(MultiFactorChallenge, MultiFactorAssertion, MergePlan)
    }

    /// The outcome of an `Effect`.
    public enum Event: FeatureResult {
        /// A code was texted; the success value is its verification ID.
        case codeSent(Result<String, AuthError>)
        /// With the account's cart, which a sign-in lands with; a reauthentication leaves it.
        case secondFactorSignInFinished(Result<SignedIn, AuthError>)
        case secondFactorMergeFinished(Result<MergeOutcome, AuthError>)
    }

    public enum Purpose: Equatable, Sendable {
        case signIn
        /// A reauthentication for `operation`, which runs once the second factor passes.
        case reauthenticate(SensitiveOperation)
        /// The switch to the other account of a link conflict; the merge runs with the second factor.
        case mergeAfterConflict(ConflictFeature)
    }

    public enum Step: Equatable, Sendable {
        case choosingFactor(selection: Int)
        /// `verificationID` is that of the texted code (SMS), nil for TOTP.
        case enteringCode(MultiFactorInfo, verificationID: String?, code: TextField)
    }

    /// The hints and pending credential; the effect runner finishes it on the console's `Auth`.
    public let challenge: MultiFactorChallenge
    public let purpose: Purpose
    public var step: Step

    public init(challenge: MultiFactorChallenge, purpose: Purpose) {
        self.challenge = challenge
        self.purpose = purpose
        step = .choosingFactor(selection: 0)
    }

    var hints: [MultiFactorInfo] { challenge.hints }

    func bindings(in context: ConsoleContext) -> [KeyBinding<KeyIntent<Action>>] {
        switch step {
        case .choosingFactor:
            return [.moveUp(), .moveDown(), KeyBinding([.enter], "enter", "use this factor", .choose),
                    KeyBinding([.escape], "esc", cancelLabel, .back), .messages, .help]
        case let .enteringCode(hint, _, _):
            var keys: [KeyBinding<KeyIntent<Action>>] = [KeyBinding([.enter], "enter", "verify", .submit)]
            if case .phone = hint { keys.append(.char("r", "text a new code", .resend)) }
            keys += [KeyBinding([.escape], "esc", "other factor", .back), .messages, .help]
            return keys
        }
    }

    /// esc in factor selection, in words true for why the factor is asked.
    var cancelLabel: String {
        switch purpose {
        case .signIn: "cancel sign-in"
        case .reauthenticate: "cancel"
        case .mergeAfterConflict: "back to the conflict"
        }
    }

    var cancelledBanner: Banner {
        switch purpose {
        case .signIn: Banner(.info, "Sign-in cancelled.")
        case let .reauthenticate(operation): Banner(.info, "Cancelled: nothing changed; did not \(operation.title).")
        case .mergeAfterConflict: Banner(.info, "Switch cancelled: still signed in to this account, nothing merged.")
        }
    }

    /// How the first factor passed: a password, or a provider's sign-in.
    var firstFactorText: String {
        let provider = challenge.firstFactorProviderID
        return provider == EmailAuthProvider.id ? "The password was right" : "\(FederatedProvider.displayName(provider)) confirmed who you are"
    }

    var title: String { "Second factor" }
    var needsUser: Bool { purpose != .signIn }
    var screen: Screen { .secondFactorSignIn(self) }

    /// The backend asked for a second factor after a first one: factor selection takes over.
    static func challenge(_ challenge: MultiFactorChallenge, purpose: Purpose) -> [FlowStep] {
        let banner = if case let .mergeAfterConflict(conflict) = purpose {
            Banner(.info, "The account that has \(FederatedProvider.displayName(conflict.providerID)) has 2-step verification: choose its second factor.")
        } else {
            Banner(.info, "This account has 2-step verification: choose a second factor.")
        }
        return [.show(.secondFactorSignIn(SecondFactorSignInFeature(challenge: challenge, purpose: purpose))), .banner(banner)]
    }

    func screenBefore(in context: ConsoleContext) -> Screen {
        switch purpose {
        case .signIn: .signInMethods(.selecting(.emailPassword))
        // Back to the conflict, where the operator can cancel or try again.
        case let .mergeAfterConflict(conflict): .conflict(conflict)
        case .reauthenticate: context.home
        }
    }

    func draw(in context: ConsoleContext, on canvas: any Canvas, frame: Rect) {
        SecondFactorChallengeScreen.draw(self, outbox: context.outbox, on: canvas, in: frame)
    }

    mutating func perform(_ action: Action, in context: ConsoleContext) -> [FlowStep] {
        switch (step, action) {
        case let (.choosingFactor(selection), .up):
            step = .choosingFactor(selection: max(selection - 1, 0))
        case let (.choosingFactor(selection), .down):
            step = .choosingFactor(selection: min(selection + 1, max(hints.count - 1, 0)))
        case let (.choosingFactor(selection), .choose):
            guard hints.indices.contains(selection) else { return [] }
            switch hints[selection] {
            case let .phone(info):
                return [.banner(nil), sendCode(to: info)]
            case .totp:
                step = .enteringCode(hints[selection], verificationID: nil, code: codeField())
                return [.banner(Banner(.info, "Type the 6-digit code your authenticator app shows for this account."))]
            }
        case (.choosingFactor, .back):
            return [.banner(cancelledBanner), .exit(.cancelled)]
        case let (.enteringCode(hint, verificationID, code), .submit):
            guard code.text.count == 6 else { return [.banner(Banner(.error, "Enter all 6 digits of the code."))] }
            let assertion: MultiFactorAssertion
            switch hint {
            case .phone:
                guard let verificationID else { return [] }
                assertion = PhoneMultiFactorGenerator.assertion(
                    with: PhoneAuthProvider.credential(withVerificationID: verificationID, verificationCode: code.text))
            case let .totp(info):
                assertion = TotpMultiFactorGenerator.assertionForSignIn(withEnrollmentID: info.uid, oneTimePassword: code.text)
            }
            if case let .mergeAfterConflict(conflict) = purpose {
                return [.banner(nil), .run(.secondFactorSignIn(.resolveMerge(challenge, assertion, conflict.mergePlan)), busy: "Checking the code, then merging…")]
            }
            return [.banner(nil), .run(.secondFactorSignIn(.resolveSignIn(challenge, assertion)), busy: "Checking the code…")]
        case let (.enteringCode(.phone(info), _, _), .resend):
            return [.banner(nil), sendCode(to: info)]
        case let (.enteringCode(hint, _, _), .back):
            step = .choosingFactor(selection: hints.firstIndex(of: hint) ?? 0)
            return [.banner(nil)]
        case (.choosingFactor, _), (.enteringCode, _):
            break
        }
        return []
    }

    mutating func edit(_ key: Key) {
        guard case .enteringCode(let hint, let verificationID, var code) = step else { return }
        editRestricted(&code, with: key, accepts: isDigit)
        step = .enteringCode(hint, verificationID: verificationID, code: code)
    }

    mutating func handle(_ event: Event, in context: ConsoleContext) -> [FlowStep] {
        switch event {
        case let .codeSent(.success(verificationID)):
            guard let hint = selectedPhoneHint else { return [] }
            step = .enteringCode(hint, verificationID: verificationID, code: codeField())
            return codeTexted(to: Self.number(of: hint))
        case let .codeSent(.failure(error)):
            return failed(error)
        case let .secondFactorSignInFinished(.success(result)):
            switch purpose {
            case .signIn: return [.exit(.signedIn(result))]
            case let .reauthenticate(operation): return [.exit(.reauthenticated(operation))]
            case .mergeAfterConflict: return []  // a merge finishes with secondFactorMergeFinished
            }
        case let .secondFactorMergeFinished(.success(outcome)):
            guard case let .mergeAfterConflict(conflict) = purpose else { return [] }
            return [.exit(.merged(outcome, conflict))]
        case let .secondFactorSignInFinished(.failure(error)), let .secondFactorMergeFinished(.failure(error)):
            return failed(error)
        }
    }

    private var selectedPhoneHint: MultiFactorInfo? {
        switch step {
        case let .choosingFactor(selection):
            guard hints.indices.contains(selection), case .phone = hints[selection] else { return nil }
            return hints[selection]
        case let .enteringCode(hint, _, _):
            guard case .phone = hint else { return nil }
            return hint
        }
    }

    private func sendCode(to info: PhoneMultiFactorInfo) -> FlowStep {
        .run(.secondFactorSignIn(.startSecondFactorSignIn(info, challenge)), busy: "Texting a code to \(PhoneNumberText.masked(info.phoneNumber))…")
    }

    private mutating func failed(_ error: AuthError) -> [FlowStep] {
        if case .enteringCode(let hint, let verificationID, var code) = step {
            code.text = ""
            step = .enteringCode(hint, verificationID: verificationID, code: code)
        }
        let isPhone = selectedPhoneHint != nil
        switch error.code {
        case .invalidMultiFactorSession, .userTokenExpired, .userNotFound, .userDisabled:
            return [.exit(.restartSignIn(.error(error, advice: "Sign in again.")))]
        case .userMismatch:
            return [.exit(.restartSignIn(.error(error, advice: "That is another account's second factor.")))]
        case .invalidVerificationCode:
            return [.banner(.error(error, advice: isPhone ? "Check the text and type it again." : "Type the code the app shows now."))]
        case .sessionExpired, .invalidVerificationID:
            return [.banner(.error(error, advice: "Press r to text a new code."))]
        case .tooManyRequests:
            return [.banner(.error(error, advice: isPhone ? "Press r to text a new code." : "Try again later, or use another factor (esc)."))]
        // Firebase's other codes: the error's own message says what to do.
        default:
            return [.banner(.error(error))]
        }
    }

    static func number(of hint: MultiFactorInfo) -> String {
        if case let .phone(info) = hint { return PhoneNumberText.masked(info.phoneNumber) }
        return "your authenticator app"
    }
}
