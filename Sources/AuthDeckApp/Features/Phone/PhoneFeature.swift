import AuthClient
import Foundation
import TerminalUI

/// A phone number as a first factor: sign in with it, link it to the signed-in account, or confirm
/// it's the signed-in user with it before a sensitive operation.
/// Linking a number another account owns offers that account, through the temporary proof the
/// backend handed back, without texting a second code.
public struct PhoneFeature: ConsoleFeature {
    /// What the phone screen's keys mean.
    public enum Action: Equatable, Sendable, BackAction {
        case submit, back, resend
        /// On the conflict dialog: the other button.
        case toggle
        /// On the conflict dialog: the selected button.
        case choose
        case cancel
    }

    /// Work the phone screen asks for; `EffectRunner` performs it (`EffectRunner+Phone`).
    public enum Effect: Equatable, Sendable {
        /// Texts a code for phone sign-in or linking.
        case verifyPhoneNumber(String)
        case signIn(PhoneAuthCredential)
        case link(PhoneAuthCredential)
    }

    /// The outcome of an `Effect`.
    public enum Event: FeatureResult {
        /// A code was texted; the success value is its verification ID.
        case codeSent(Result<String, AuthError>)
        case signInFinished(Result<SignedIn, AuthError>)
        case linkFinished(Result<AuthDataResult, AuthError>)
    }

    public enum Purpose: Equatable, Sendable {
        case signIn, link
        case reauthenticate(SensitiveOperation)
    }

    public enum Step: Equatable, Sendable {
        case enteringNumber(TextField)
        case enteringCode(phone: String, verificationID: String, code: TextField)
        /// The number belongs to another account; `credential` signs in to it.
        case conflict(phone: String, credential: AuthCredential, signInSelected: Bool)
    }

    public let purpose: Purpose
    public var step: Step

    public init(purpose: Purpose, number: String = "") {
        self.purpose = purpose
        step = .enteringNumber(TextField(text: number, maxLength: 24))
    }

    /// Short, for the title bar and the room's column; the screen's heading says it whole.
    var title: String {
        switch purpose {
        case .signIn: "Phone sign-in"
        case .link: "Link a phone number"
        case .reauthenticate: "Confirm it's you"
        }
    }

    private var submitLabel: String {
        switch purpose {
        case .signIn: "sign in"
        case .link: "link"
        case .reauthenticate: "confirm"
        }
    }

    func bindings(in context: ConsoleContext) -> [KeyBinding<KeyIntent<Action>>] {
        switch step {
        case .enteringNumber:
            return [KeyBinding([.enter], "enter", "text a code", .submit), KeyBinding([.escape], "esc", "cancel", .back), .help]
        case .enteringCode:
            return [KeyBinding([.enter], "enter", submitLabel, .submit),
                    .char("r", "text a new code", .resend), KeyBinding([.escape], "esc", "back", .back), .messages, .help]
        case .conflict:
            return [KeyBinding([.left, .right, .tab], "←/→", "choose", .toggle), KeyBinding([.enter], "enter", "confirm choice", .choose),
                    KeyBinding([.escape], "esc", "cancel", .cancel)]
        }
    }

    var needsUser: Bool { purpose != .signIn }
    var screen: Screen { .phone(self) }

    func screenBefore(in context: ConsoleContext) -> Screen {
        purpose == .signIn ? .signInMethods(.selecting(.phone)) : context.home
    }

    func draw(in context: ConsoleContext, on canvas: any Canvas, frame: Rect) {
        PhoneScreen.draw(self, outbox: context.outbox, on: canvas, in: frame)
    }

    mutating func perform(_ action: Action, in context: ConsoleContext) -> [FlowStep] {
        switch (step, action) {
        case let (.enteringNumber(field), .submit):
            guard let phone = PhoneNumberText.e164(field.text) else {
                return [.banner(Banner(.error, PhoneNumberText.notE164))]
            }
            return [.banner(nil), .run(.phone(.verifyPhoneNumber(phone)), busy: "Texting a code to \(phone)…")]
        case (.enteringNumber, .back):
            if case let .reauthenticate(operation) = purpose {
                return [.banner(Banner(.info, "Cancelled: did not \(operation.title).")), .exit(.cancelled)]
            }
            return [.banner(nil), .exit(.cancelled)]
        case let (.enteringCode(phone, verificationID, code), .submit):
            guard code.text.count == 6 else { return [.banner(Banner(.error, "Enter all 6 digits of the code."))] }
            let credential = PhoneAuthProvider.credential(withVerificationID: verificationID, verificationCode: code.text)
            switch purpose {
            case .signIn: return [.banner(nil), .run(.phone(.signIn(credential)), busy: "Signing in…")]
            case .link: return [.banner(nil), .run(.phone(.link(credential)), busy: "Linking \(phone)…")]
            case let .reauthenticate(operation):
                return [.banner(nil), .run(.reauthenticate(.phone(credential), then: operation), busy: "Confirming it's you…")]
            }
        case let (.enteringCode(phone, _, _), .resend):
            return [.banner(nil), .run(.phone(.verifyPhoneNumber(phone)), busy: "Texting a new code to \(phone)…")]
        case let (.enteringCode(phone, _, _), .back):
            step = .enteringNumber(TextField(text: phone, maxLength: 24))
            return [.banner(nil)]
        case let (.conflict(phone, credential, selected), .toggle):
            step = .conflict(phone: phone, credential: credential, signInSelected: !selected)
        case (.conflict(_, _, false), .choose), (.conflict, .cancel):
            return [.banner(Banner(.info, "The number was not linked.")), .exit(.cancelled)]
        case let (.conflict(_, .phone(credential), true), .choose):
            return [.banner(nil), .run(.phone(.signIn(credential)), busy: "Signing in to the account that owns the number…")]
        case (.enteringNumber, _), (.enteringCode, _), (.conflict, _):
            break
        }
        return []
    }

    mutating func edit(_ key: Key) {
        switch step {
        case var .enteringNumber(field):
            editRestricted(&field, with: key, accepts: PhoneNumberText.accepts)
            step = .enteringNumber(field)
        case .enteringCode(let phone, let verificationID, var code):
            editRestricted(&code, with: key, accepts: isDigit)
            step = .enteringCode(phone: phone, verificationID: verificationID, code: code)
        case .conflict:
            break
        }
    }

    mutating func handle(_ event: Event, in context: ConsoleContext) -> [FlowStep] {
        switch event {
        case let .codeSent(.success(verificationID)):
            let phone: String
            switch step {
            case let .enteringNumber(field): phone = PhoneNumberText.e164(field.text) ?? field.text
            case let .enteringCode(number, _, _): phone = number
            case .conflict: return []
            }
            step = .enteringCode(phone: phone, verificationID: verificationID, code: codeField())
            return codeTexted(to: phone)
        case let .codeSent(.failure(error)):
            return [.banner(.error(error, advice: error.code == .invalidPhoneNumber ? PhoneNumberText.formatHint : ""))]
        case let .signInFinished(result):
            if let steps = AuthResultRoute.signIn(result) { return steps }
            guard case let .failure(error) = result else { return [] }
            return failed(error)
        case let .linkFinished(.success(result)):
            return AuthResultRoute.link(.success(result), what: result.user.phoneNumber ?? "the phone number", in: context) ?? []
        // A number another account owns: this screen offers that account itself, without a second code.
        case let .linkFinished(.failure(error)) where error.code == .credentialAlreadyInUse:
            return failed(error)
        case let .linkFinished(.failure(error)):
            return AuthResultRoute.linkConflict(error, in: context) ?? failed(error)
        }
    }

    private mutating func failed(_ error: AuthError) -> [FlowStep] {
        guard case .enteringCode(let phone, let verificationID, var code) = step else {
            return [.banner(.error(error))]
        }
        if error.code == .credentialAlreadyInUse, let credential = error.updatedCredential {
            step = .conflict(phone: phone, credential: credential, signInSelected: false)
            return [.banner(nil)]
        }
        code.text = ""
        step = .enteringCode(phone: phone, verificationID: verificationID, code: code)
        switch error.code {
        case .invalidVerificationCode:
            return [.banner(.error(error, advice: "Check the text and type the code again."))]
        case .sessionExpired, .invalidVerificationID, .tooManyRequests:
            return [.banner(.error(error, advice: "Press r to text a new code."))]
        case .unsupportedFirstFactor:
            return [.banner(.error(error, advice: "Sign in with that account's email and password instead.")), .exit(.cancelled)]
        // Firebase's other codes: the error's own message says what to do.
        default:
            return [.banner(.error(error))]
        }
    }
}

extension PhoneFeature {
    /// "Phone sign-in: code sent", for the presenter's room.
    var roomDescription: String {
        let flow = switch purpose {
        case .signIn: "Phone sign-in"
        case .link: "Phone link"
        case .reauthenticate: "Phone reauth"
        }
        return switch step {
        case .enteringNumber: "\(flow): number"
        case .enteringCode: "\(flow): code sent"
        case .conflict: "\(flow): number in use"
        }
    }
}
