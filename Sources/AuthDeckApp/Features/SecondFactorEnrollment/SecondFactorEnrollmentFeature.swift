import AuthClient
import Foundation
import TerminalUI

/// Enrolling a second factor. SMS: phone number (E.164) → the texted code → a name. TOTP: the
/// secret as a QR code and as text → the app's current code → a name. The backend checks the
/// code only when the name is submitted, so a wrong code sends the user back to it.
public struct SecondFactorEnrollmentFeature: ConsoleFeature {
    /// What the screen's keys mean.
    public enum Action: Equatable, Sendable, BackAction {
        case submit, back, resend
    }

    /// Work the screen asks for; `EffectRunner` performs it (`EffectRunner+SecondFactorEnrollment` beside this file).
    public enum Effect: Equatable, Sendable {
        /// Texts a code to a number that is to become a second factor.
        case startPhoneEnrollment(String)
        case generateTotpSecret
        case enroll(MultiFactorAssertion, displayName: String)
    }

    /// The outcome of an `Effect`.
    public enum Event: FeatureResult {
        /// A code was texted; the success value is its verification ID.
        case codeSent(Result<String, AuthError>)
        case totpSecretGenerated(Result<TotpSecret, AuthError>)
        case enrolled(Result<User, AuthError>)
    }

    public enum Step: Equatable, Sendable {
        case enteringNumber(TextField)
        case enteringSmsCode(phone: String, verificationID: String, code: TextField)
        case namingPhone(phone: String, verificationID: String, code: String, name: TextField)
        case generatingSecret
        case scanning(TotpSecret)
        case enteringTotpCode(TotpSecret, code: TextField)
        case namingApp(TotpSecret, code: String, name: TextField)
    }

    /// Shown in the authenticator app next to the issuer.
    public let accountName: String
    public var step: Step

    public static let issuer = "AuthDeck"

    public static func sms(accountName: String) -> SecondFactorEnrollmentFeature {
        SecondFactorEnrollmentFeature(accountName: accountName, step: .enteringNumber(TextField(maxLength: 24)))
    }

    public static func totp(accountName: String) -> (SecondFactorEnrollmentFeature, [FlowStep]) {
        (SecondFactorEnrollmentFeature(accountName: accountName, step: .generatingSecret),
         [.banner(nil), .run(.secondFactorEnrollment(.generateTotpSecret), busy: "Asking for a new TOTP secret…")])
    }

    var isTotp: Bool {
        switch step {
        case .generatingSecret, .scanning, .enteringTotpCode, .namingApp: true
        case .enteringNumber, .enteringSmsCode, .namingPhone: false
        }
    }

    /// Name fields take any text, so there the commands are on function keys.
    var editsText: Bool {
        switch step {
        case .namingPhone, .namingApp: true
        case .enteringNumber, .enteringSmsCode, .generatingSecret, .scanning, .enteringTotpCode: false
        }
    }

    func bindings(in context: ConsoleContext) -> [KeyBinding<KeyIntent<Action>>] {
        let back: KeyBinding<KeyIntent<Action>> = .back()
        switch step {
        case .enteringNumber:
            return [KeyBinding([.enter], "enter", "text a code", .submit), KeyBinding([.escape], "esc", "cancel", .back), .help]
        case .enteringSmsCode:
            return [KeyBinding([.enter], "enter", "next", .submit), .char("r", "text a new code", .resend), back, .messages, .help]
        case .namingPhone, .namingApp:
            return [KeyBinding([.enter], "enter", "enroll", .submit), back, .helpInForm, .messagesInForm]
        case .generatingSecret:
            return []
        case .scanning:
            return [KeyBinding([.enter], "enter", "added it: next", .submit), KeyBinding([.escape], "esc", "cancel", .back), .help]
        case .enteringTotpCode:
            return [KeyBinding([.enter], "enter", "next", .submit), KeyBinding([.escape], "esc", "show the QR code", .back), .help]
        }
    }

    var title: String { isTotp ? "Add an authenticator app" : "Add an SMS factor" }
    var needsUser: Bool { true }
    var screen: Screen { .secondFactorEnrollment(self) }

    var showsQRCode: Bool {
        if case .scanning = step { return true }
        return false
    }

    func screenBefore(in context: ConsoleContext) -> Screen { .secondFactors(SecondFactorsFeature(selection: 0)) }

    func draw(in context: ConsoleContext, on canvas: any Canvas, frame: Rect) {
        EnrollmentScreen.draw(self, outbox: context.outbox, on: canvas, in: frame)
    }

    mutating func perform(_ action: Action, in context: ConsoleContext) -> [FlowStep] {
        switch (step, action) {
        case let (.enteringNumber(field), .submit):
            guard let phone = PhoneNumberText.e164(field.text) else {
                return [.banner(Banner(.error, PhoneNumberText.notE164))]
            }
            return [.banner(nil), .run(.secondFactorEnrollment(.startPhoneEnrollment(phone)), busy: "Texting a code to \(phone)…")]
        case (.enteringNumber, .back), (.scanning, .back):
            return [.banner(nil), .exit(.cancelled)]
        case let (.enteringSmsCode(phone, verificationID, code), .submit):
            guard code.text.count == 6 else { return [.banner(Banner(.error, "Enter all 6 digits of the code."))] }
            step = .namingPhone(phone: phone, verificationID: verificationID, code: code.text,
                                name: TextField(text: "Phone ending \(phone.suffix(4))", maxLength: 40))
            return [.banner(nil)]
        case let (.enteringSmsCode(phone, _, _), .resend):
            return [.banner(nil), .run(.secondFactorEnrollment(.startPhoneEnrollment(phone)), busy: "Texting a new code to \(phone)…")]
        case let (.enteringSmsCode(phone, _, _), .back):
            step = .enteringNumber(TextField(text: phone, maxLength: 24))
            return [.banner(nil)]
        case let (.namingPhone(_, verificationID, code, name), .submit):
            let displayName = name.text.trimmingCharacters(in: .whitespaces)
            guard !displayName.isEmpty else { return [.banner(Banner(.error, "Give the factor a name, e.g. \"Work phone\"."))] }
            let credential = PhoneAuthProvider.credential(withVerificationID: verificationID, verificationCode: code)
            return [.banner(nil), .run(.secondFactorEnrollment(.enroll(PhoneMultiFactorGenerator.assertion(with: credential), displayName: displayName)),
                                       busy: "Enrolling \(displayName)…")]
        case let (.namingPhone(phone, verificationID, code, _), .back):
            step = .enteringSmsCode(phone: phone, verificationID: verificationID, code: TextField(text: code, maxLength: 6))
            return [.banner(nil)]
        case let (.scanning(secret), .submit):
            step = .enteringTotpCode(secret, code: codeField())
            return [.banner(nil)]
        case let (.enteringTotpCode(secret, code), .submit):
            guard code.text.count == 6 else { return [.banner(Banner(.error, "Enter the 6 digits the app shows now."))] }
            step = .namingApp(secret, code: code.text, name: TextField(text: "Authenticator app", maxLength: 40))
            return [.banner(nil)]
        case let (.enteringTotpCode(secret, _), .back):
            step = .scanning(secret)
            return [.banner(nil)]
        case let (.namingApp(secret, code, name), .submit):
            let displayName = name.text.trimmingCharacters(in: .whitespaces)
            guard !displayName.isEmpty else { return [.banner(Banner(.error, "Give the factor a name, e.g. \"Authenticator app\"."))] }
            return [.banner(nil), .run(.secondFactorEnrollment(.enroll(TotpMultiFactorGenerator.assertionForEnrollment(with: secret, oneTimePassword: code),
                                               displayName: displayName)), busy: "Enrolling \(displayName)…")]
        case let (.namingApp(secret, code, _), .back):
            step = .enteringTotpCode(secret, code: TextField(text: code, maxLength: 6))
            return [.banner(nil)]
        case (.enteringNumber, _), (.enteringSmsCode, _), (.namingPhone, _), (.generatingSecret, _), (.scanning, _),
             (.enteringTotpCode, _), (.namingApp, _):
            return []
        }
    }

    mutating func edit(_ key: Key) {
        switch step {
        case var .enteringNumber(field):
            editRestricted(&field, with: key, accepts: PhoneNumberText.accepts)
            step = .enteringNumber(field)
        case .enteringSmsCode(let phone, let verificationID, var code):
            editRestricted(&code, with: key, accepts: isDigit)
            step = .enteringSmsCode(phone: phone, verificationID: verificationID, code: code)
        case .namingPhone(let phone, let verificationID, let code, var name):
            _ = name.handle(key)
            step = .namingPhone(phone: phone, verificationID: verificationID, code: code, name: name)
        case .enteringTotpCode(let secret, var code):
            editRestricted(&code, with: key, accepts: isDigit)
            step = .enteringTotpCode(secret, code: code)
        case .namingApp(let secret, let code, var name):
            _ = name.handle(key)
            step = .namingApp(secret, code: code, name: name)
        case .generatingSecret, .scanning:
            break
        }
    }

    mutating func handle(_ event: Event, in context: ConsoleContext) -> [FlowStep] {
        switch event {
        case let .codeSent(.success(verificationID)):
            let phone: String
            switch step {
            case let .enteringNumber(field): phone = PhoneNumberText.e164(field.text) ?? field.text
            case let .enteringSmsCode(number, _, _): phone = number
            case .namingPhone, .generatingSecret, .scanning, .enteringTotpCode, .namingApp: return []
            }
            step = .enteringSmsCode(phone: phone, verificationID: verificationID, code: codeField())
            return codeTexted(to: phone)
        case let .codeSent(.failure(error)):
            return [.banner(.error(error, advice: Self.advice(for: error)))]
        case let .totpSecretGenerated(.success(secret)):
            step = .scanning(secret)
            return []
        case let .totpSecretGenerated(.failure(error)):
            return [.banner(.error(error, advice: Self.advice(for: error))), .exit(.cancelled)]
        case let .enrolled(.success(user)):
            switch step {
            case let .namingPhone(_, _, _, name), let .namingApp(_, _, name):
                return [.exit(.enrolled(user, displayName: name.text.trimmingCharacters(in: .whitespaces)))]
            case .enteringNumber, .enteringSmsCode, .generatingSecret, .scanning, .enteringTotpCode:
                return []
            }
        case let .enrolled(.failure(error)):
            return enrollmentFailed(error)
        }
    }

    private mutating func enrollmentFailed(_ error: AuthError) -> [FlowStep] {
        switch (step, error.code) {
        case let (.namingPhone(phone, verificationID, _, _), .invalidVerificationCode):
            step = .enteringSmsCode(phone: phone, verificationID: verificationID, code: codeField())
            return [.banner(.error(error, advice: "Check the text and type the code again."))]
        case let (.namingPhone(phone, verificationID, _, _), .sessionExpired),
             let (.namingPhone(phone, verificationID, _, _), .tooManyRequests):
            step = .enteringSmsCode(phone: phone, verificationID: verificationID, code: codeField())
            return [.banner(.error(error, advice: "Press r to text a new code."))]
        case let (.namingApp(secret, _, _), .invalidVerificationCode):
            step = .enteringTotpCode(secret, code: codeField())
            return [.banner(.error(error, advice: "Type the code the app shows now (the clocks must agree)."))]
        case (.namingApp, .sessionExpired), (.namingApp, .tooManyRequests), (.namingApp, .invalidVerificationID):
            step = .generatingSecret
            return [.banner(.error(error, advice: "That secret can no longer be used: scan the new QR code.")),
                    .run(.secondFactorEnrollment(.generateTotpSecret), busy: "Asking for a new TOTP secret…")]
        case (_, .secondFactorAlreadyEnrolled), (_, .maximumSecondFactorCountExceeded), (_, .unverifiedEmail), (_, .unsupportedFirstFactor):
            return [.banner(.error(error, advice: Self.advice(for: error))), .exit(.cancelled)]
        // Firebase's other codes, on any step: the error's own message says what to do.
        default:
            return [.banner(.error(error))]
        }
    }

    static func advice(for error: AuthError) -> String {
        switch error.code {
        case .unverifiedEmail: "Press v on the account screen and open the email in the outbox (m)."
        case .unsupportedFirstFactor: "Sign in with email and password (or a provider) to enroll."
        case .secondFactorAlreadyEnrolled: "That number is already one of your factors."
        case .maximumSecondFactorCountExceeded: "Remove a factor first."
        case .invalidPhoneNumber: PhoneNumberText.formatHint
        // No advice beyond the error's own message.
        default: ""
        }
    }

    /// The otpauth URI the QR code holds.
    func qrURI(for secret: TotpSecret) -> String {
        secret.generateQrCodeUrl(accountName: accountName, issuer: Self.issuer)
    }
}

extension SecondFactorEnrollmentFeature {
    /// The TOTP key as the screen writes it, hidden from whoever follows this screen.
    var secretsOnScreen: [String] {
        switch step {
        case let .scanning(secret), let .enteringTotpCode(secret, _), let .namingApp(secret, _, _): KeyText.groups(secret.sharedSecretKey)
        case .enteringNumber, .enteringSmsCode, .namingPhone, .generatingSecret: []
        }
    }

    /// "TOTP enrolment: QR shown", for the presenter's room.
    var roomDescription: String {
        switch step {
        case .enteringNumber: "SMS enrolment: number"
        case .enteringSmsCode: "SMS enrolment: code sent"
        case .namingPhone: "SMS enrolment: naming"
        case .generatingSecret: "TOTP enrolment: starting"
        case .scanning: "TOTP enrolment: QR shown"
        case .enteringTotpCode: "TOTP enrolment: code"
        case .namingApp: "TOTP enrolment: naming"
        }
    }
}
