@testable import AuthClient
@testable import AuthDeckApp
import Foundation
import Testing
import TerminalUI

@Suite("Password-reset flow")
struct PasswordResetFlowTests {
    /// In the form m types a letter: the hint names F3, the key that opens the outbox there.
    @Test func theFormsHintNamesTheKeyThatWorksThere() {
        var model = ConsoleModel(backendName: "embedded")
        model.screen = .passwordReset(PasswordResetFeature())
        for size in [Size(width: 80, height: 24), Size(width: 132, height: 40)] {
            let screen = render(model, size: size).split(whereSeparator: \.isWhitespace).joined(separator: " ")
            #expect(screen.contains("outbox (F3: m would type a letter here)") && !screen.contains("outbox (m)"))
        }
    }

    @Test func forgotPasswordThroughTheOutbox() {
        var tester = FlowTester(PasswordResetFeature())
        #expect(tester.flow.editsText)
        tester.perform(.submit, steps: [.banner(Banner(.error, "Enter the account's email address."))])
        tester.type("ada@example.com") { $0.step = .enteringEmail(TextField(text: "ada@example.com", maxLength: 254)) }
        tester.perform(.submit, steps: [.banner(nil), .run(.passwordReset(.sendPasswordReset(email: "ada@example.com")), busy: "Sending the reset email…")])
        let invalid = AuthError.server("INVALID_EMAIL")
        tester.handle(.passwordResetSent(.failure(invalid)), steps: [.banner(.error(invalid))])
        tester.handle(.passwordResetSent(.success("ada@example.com")), steps: [
            .banner(Banner(.info, "If an account uses ada@example.com, a reset email is now in the outbox: press m and open it.")),
            .run(.verification(.refreshOutbox), busy: nil),
        ]) { $0.step = .sent(email: "ada@example.com") }
        #expect(!tester.flow.editsText)
        tester.perform(.back, steps: [.banner(nil), .exit(.cancelled)])

        tester = FlowTester(.choosingPassword(code: "oob", email: "ada@example.com"))
        tester.type("newpass1") {
            var form = ChangePasswordFeature()
            form.newPassword = TextField(text: "newpass1", maxLength: 128, isSecure: true)
            $0.step = .choosingPassword(code: "oob", email: "ada@example.com", form)
        }
        tester.perform(.submit) {
            var form = ChangePasswordFeature()
            form.newPassword = TextField(text: "newpass1", maxLength: 128, isSecure: true)
            form.focusOnConfirmation = true
            $0.step = .choosingPassword(code: "oob", email: "ada@example.com", form)
        }
        tester.type("newpass2") {
            var form = ChangePasswordFeature()
            form.newPassword = TextField(text: "newpass1", maxLength: 128, isSecure: true)
            form.confirmation = TextField(text: "newpass2", maxLength: 128, isSecure: true)
            form.focusOnConfirmation = true
            $0.step = .choosingPassword(code: "oob", email: "ada@example.com", form)
        }
        tester.perform(.submit, steps: [.banner(Banner(.error, "The two passwords do not match."))]) {
            var form = ChangePasswordFeature()
            form.newPassword = TextField(text: "newpass1", maxLength: 128, isSecure: true)
            form.focusOnConfirmation = true
            $0.step = .choosingPassword(code: "oob", email: "ada@example.com", form)
        }
        tester.type("newpass1") {
            var form = ChangePasswordFeature()
            form.newPassword = TextField(text: "newpass1", maxLength: 128, isSecure: true)
            form.confirmation = TextField(text: "newpass1", maxLength: 128, isSecure: true)
            form.focusOnConfirmation = true
            $0.step = .choosingPassword(code: "oob", email: "ada@example.com", form)
        }
        tester.perform(.submit, steps: [.banner(nil), .run(.passwordReset(.confirmPasswordReset(code: "oob", newPassword: "newpass1")), busy: "Setting the new password…")])
        let weak = AuthError.server("WEAK_PASSWORD : Password should be at least 6 characters")
        tester.handle(.passwordResetConfirmed(.failure(weak)), steps: [.banner(.error(weak))]) {
            $0.step = .choosingPassword(code: "oob", email: "ada@example.com", ChangePasswordFeature())
        }
        let used = AuthError.server("INVALID_OOB_CODE")
        tester.handle(.passwordResetConfirmed(.failure(used)), steps: [
            .banner(.error(used, advice: "Request a new reset email (esc, then \"Reset a forgotten password\").")),
        ])
        tester.perform(.nextField) {
            var form = ChangePasswordFeature()
            form.focusOnConfirmation = true
            $0.step = .choosingPassword(code: "oob", email: "ada@example.com", form)
        }
        tester.handle(.passwordResetConfirmed(.success("ada@example.com")), steps: [.exit(.passwordReset(email: "ada@example.com"))])
    }
}
