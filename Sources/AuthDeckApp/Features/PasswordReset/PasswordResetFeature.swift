import AuthClient
import Foundation
import TerminalUI

/// "Forgot password": the reset email goes to the outbox; opening it there asks for the new
/// password, and the sign-in form follows with the email filled in.
public struct PasswordResetFeature: ConsoleFeature {
    /// What the screen's keys mean.
    public enum Action: Equatable, Sendable, FormAction {
        case submit, back, nextField, previousField
    }

    /// Work the screen asks for; `EffectRunner` performs it (`EffectRunner+PasswordReset` beside this file).
    public enum Effect: Equatable, Sendable {
        case sendPasswordReset(email: String)
        case confirmPasswordReset(code: String, newPassword: String)
    }

    /// The outcome of an `Effect`.
    public enum Event: FeatureResult {
        /// The address the reset email went to.
        case passwordResetSent(Result<String, AuthError>)
        /// The account's email, once the new password is set.
        case passwordResetConfirmed(Result<String, AuthError>)
    }

    public enum Step: Equatable, Sendable {
        case enteringEmail(TextField)
        /// The request went out; the email (if the account exists) is in the outbox.
        case sent(email: String)
        case choosingPassword(code: String, email: String, ChangePasswordFeature)
    }

    public var step: Step

    public init(step: Step = .enteringEmail(TextField(maxLength: 254))) {
        self.step = step
    }

    /// Opened from a reset email in the outbox.
    public static func choosingPassword(code: String, email: String) -> PasswordResetFeature {
        PasswordResetFeature(step: .choosingPassword(code: code, email: email, ChangePasswordFeature()))
    }

    var editsText: Bool {
        if case .sent = step { return false }
        return true
    }

    func bindings(in context: ConsoleContext) -> [KeyBinding<KeyIntent<Action>>] {
        switch step {
        case .enteringEmail:
            return [KeyBinding([.enter], "enter", "send reset email", .submit), KeyBinding([.escape], "esc", "cancel", .back),
                    .helpInForm, .messagesInForm]
        case .sent:
            return [.messages, KeyBinding([.escape], "esc", "back", .back), .help]
        case let .choosingPassword(_, _, form):
            return [.formEnter(form.focusOnConfirmation ? .send("set password") : .next, .submit), KeyBinding([.tab, .down], "tab", "next", .nextField),
                    KeyBinding([.backTab, .up], "shift-tab", "previous field", .previousField, inBar: false),
                    KeyBinding([.escape], "esc", "cancel", .back), .helpInForm]
        }
    }

    var title: String { "Reset password" }
    var needsUser: Bool { false }
    var screen: Screen { .passwordReset(self) }

    func screenBefore(in context: ConsoleContext) -> Screen {
        context.user == nil ? .signInMethods(.selecting(.resetPassword)) : context.home
    }

    func draw(in context: ConsoleContext, on canvas: any Canvas, frame: Rect) {
        PasswordResetScreen.draw(self, on: canvas, in: frame)
    }

    mutating func perform(_ action: Action, in context: ConsoleContext) -> [FlowStep] {
        switch (step, action) {
        case let (.enteringEmail(field), .submit):
            let email = field.text.trimmingCharacters(in: .whitespaces)
            guard !email.isEmpty else { return [.banner(Banner(.error, "Enter the account's email address."))] }
            return [.banner(nil), .run(.passwordReset(.sendPasswordReset(email: email)), busy: "Sending the reset email…")]
        case (.enteringEmail, .back), (.sent, .back), (.choosingPassword, .back):
            return [.banner(nil), .exit(.cancelled)]
        case (.choosingPassword(let code, let email, var form), .nextField), (.choosingPassword(let code, let email, var form), .previousField):
            form.focusOnConfirmation.toggle()
            step = .choosingPassword(code: code, email: email, form)
        case (.choosingPassword(let code, let email, var form), .submit):
            guard form.focusOnConfirmation else {
                form.focusOnConfirmation = true
                step = .choosingPassword(code: code, email: email, form)
                return []
            }
            guard form.newPassword.text == form.confirmation.text else {
                form.confirmation.text = ""
                step = .choosingPassword(code: code, email: email, form)
                return [.banner(Banner(.error, "The two passwords do not match."))]
            }
            return [.banner(nil), .run(.passwordReset(.confirmPasswordReset(code: code, newPassword: form.newPassword.text)), busy: "Setting the new password…")]
        case (.enteringEmail, _), (.sent, _), (.choosingPassword, _):
            break
        }
        return []
    }

    mutating func edit(_ key: Key) {
        switch step {
        case var .enteringEmail(field):
            _ = field.handle(key)
            step = .enteringEmail(field)
        case .choosingPassword(let code, let email, var form):
            if form.focusOnConfirmation { _ = form.confirmation.handle(key) } else { _ = form.newPassword.handle(key) }
            step = .choosingPassword(code: code, email: email, form)
        case .sent:
            break
        }
    }

    mutating func handle(_ event: Event, in context: ConsoleContext) -> [FlowStep] {
        switch event {
        case let .passwordResetSent(.success(email)):
            step = .sent(email: email)
            return [.banner(Banner(.info, "If an account uses \(email), a reset email is now in the outbox: press m and open it.")),
                    .run(.verification(.refreshOutbox), busy: nil)]
        case let .passwordResetSent(.failure(error)):
            return [.banner(.error(error))]
        case let .passwordResetConfirmed(.success(email)):
            return [.exit(.passwordReset(email: email))]
        case let .passwordResetConfirmed(.failure(error)):
            guard case .choosingPassword(let code, let email, var form) = step else { return [] }
            form = ChangePasswordFeature()
            step = .choosingPassword(code: code, email: email, form)
            switch error.code {
            case .invalidActionCode, .expiredActionCode:
                return [.banner(.error(error, advice: "Request a new reset email (esc, then \"Reset a forgotten password\")."))]
            // Firebase's other codes: the error's own message says what to do.
            default:
                return [.banner(.error(error))]
            }
        }
    }
}
