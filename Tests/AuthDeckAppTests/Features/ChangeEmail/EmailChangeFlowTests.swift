import AppData
@testable import AuthClient
@testable import AuthDeckApp
import Foundation
import Testing
import TerminalUI

@Suite("Console: changing the account's email, and the outbox's email-change messages")
struct EmailChangeFlowTests {
    static func form(_ text: String, mode: ChangeEmailFeature.Mode = .verifyFirst) -> ChangeEmailFeature {
        var form = ChangeEmailFeature()
        form.newEmail = TextField(text: text, maxLength: 254)
        form.mode = mode
        return form
    }

    @Test func changingAtOnceLeavesARecoveryMessageThatUndoesIt() {
        var store = FlowStore(Fixtures.signedIn(Fixtures.passwordUser()))
        store.send(.key(.character("e"))) { $0.screen = .changeEmail(ChangeEmailFeature()) }
        store.type("ada@new.example") { $0.screen = .changeEmail(Self.form("ada@new.example")) }
        store.send(.key(.tab)) { $0.screen = .changeEmail(Self.form("ada@new.example", mode: .atOnce)) }
        store.send(.key(.enter), effects: [.perform(.updateEmail("ada@new.example", previous: "ada@example.com"))]) { $0.busy = "Changing the email…" }
        // The auth-state stream may report the new email first: the banner names the address asked from.
        let changed = Fixtures.passwordUser(email: "ada@new.example")
        store.send(.authStateChanged(changed, nil)) { $0.user = changed }
        store.send(.sensitiveOperationFinished(.updateEmail("ada@new.example", previous: "ada@example.com"), .success(changed)), effects: [.verification(.refreshOutbox)]) {
            $0.busy = nil
            $0.screen = .account(AccountFeature())
            $0.banner = Banner(.success, "The email is now ada@new.example. A message to ada@example.com can undo the change: press m.")
        }
        let recovery = Outbox.Email(to: "ada@example.com", action: .recoverEmail, oobCode: "oob-recover", link: "http://x/emulator/action?mode=recoverEmail")
        store.model.outbox = Outbox(emails: [recovery])
        store.send(.key(.character("m")), effects: [.verification(.refreshOutbox)]) { $0.overlay = .outbox(selection: 0) }
        store.send(.key(.enter), effects: [.verification(.applyActionCode(recovery))]) { $0.busy = "Restoring the email ada@example.com…" }
        // Recovery ends every session of the account: this console is signed out.
        store.send(.verification(.actionCodeApplied(recovery, .success(nil))), effects: [.verification(.refreshOutbox)]) {
            $0.busy = nil
            $0.overlay = nil
            $0.user = nil
            $0.screen = .signInMethods(SignInMethodsFeature(selection: 0))
            $0.banner = Banner(.success, "The email is ada@example.com again, and verified. Every session of the account ended: sign in again (a password reset is wise).")
        }
    }

    @Test func verifyingFirstAfterAStaleSignInConfirmsItsYouThenSendsTheLink() {
        var store = FlowStore(Fixtures.signedIn(Fixtures.passwordUser()))
        store.model.screen = .changeEmail(Self.form(""))
        store.send(.key(.enter)) { $0.banner = Banner(.error, "Enter the new email address.") }
        store.model.screen = .changeEmail(Self.form("ADA@example.com"))
        store.send(.key(.enter)) { $0.banner = Banner(.error, "That is this account's email already.") }
        store.model.screen = .changeEmail(Self.form("ada@new.example"))
        store.send(.key(.enter), effects: [.perform(.verifyBeforeUpdateEmail("ada@new.example"))]) {
            $0.banner = nil
            $0.busy = "Sending a link that confirms ada@new.example…"
        }
        let operation = SensitiveOperation.verifyBeforeUpdateEmail("ada@new.example")
        store.send(.sensitiveOperationFinished(operation, .failure(.server("CREDENTIAL_TOO_OLD_LOGIN_AGAIN")))) {
            $0.busy = nil
            $0.banner = Banner(.info, "Your last sign-in was too long ago. Enter your password to send a link that changes the email to ada@new.example; it then runs by itself.")
            $0.screen = .credentialForm(CredentialFormFeature(purpose: .reauthenticate(operation), email: "ada@example.com"))
        }
        store.send(.reauthenticationFinished(operation, .success(MfaFixtures.signedIn(Fixtures.passwordUser()))), effects: [.perform(operation)]) {
            $0.busy = "Retrying: send a link that changes the email to ada@new.example…"
        }
        store.send(.sensitiveOperationFinished(operation, .success(Fixtures.passwordUser())), effects: [.verification(.refreshOutbox)]) {
            $0.busy = nil
            $0.screen = .account(AccountFeature())
            $0.banner = Banner(.info, "A link that confirms ada@new.example is in the outbox: press m and open it. The email changes only then.")
        }
        let confirm = Outbox.Email(to: "ada@new.example", action: .verifyAndChangeEmail, oobCode: "oob-change",
                                   link: "http://x/emulator/action?mode=verifyAndChangeEmail", account: "ada@example.com")
        store.model.outbox = Outbox(emails: [confirm])
        store.model.overlay = .outbox(selection: 0)
        store.send(.key(.enter), effects: [.verification(.applyActionCode(confirm))]) { $0.busy = "Confirming the new email…" }
        store.send(.verification(.actionCodeApplied(confirm, .success(nil))), effects: [.verification(.refreshOutbox)]) {
            $0.busy = nil
            $0.overlay = nil
            $0.user = nil
            $0.screen = .signInMethods(SignInMethodsFeature(selection: 0))
            $0.banner = Banner(.success, "The account of ada@example.com has its new email now: ada@new.example. Every session of it ended: sign in with the new address.")
        }
        // Esc leaves the form with its error.
        store.model = Fixtures.signedIn(Fixtures.passwordUser())
        store.model.screen = .changeEmail(Self.form("x"))
        store.model.banner = Banner(.error, "Enter the new email address.")
        store.send(.key(.escape)) {
            $0.screen = .account(AccountFeature())
            $0.banner = nil
        }
    }

    @Test func onlyAnAccountWithAnEmailOffersTheChange() {
        #expect(Fixtures.signedIn(Fixtures.passwordUser()).bindings.contains { $0.intent == .feature(FeatureAction(AccountFeature.Action.changeEmail)) })
        #expect(!Fixtures.signedIn(Fixtures.anonymous).bindings.contains { $0.intent == .feature(FeatureAction(AccountFeature.Action.changeEmail)) })
    }
}

extension EmailChangeFlowTests {
    /// Revocation counts whole seconds: a link opened in the second the session began leaves it
    /// signed in, and the banner must not say the session ended.
    @Test func aRecoveryThatLeavesThisSessionSaysSo() {
        var store = FlowStore(Fixtures.signedIn(Fixtures.passwordUser(email: "new@example.com")))
        let recovery = Outbox.Email(to: "ada@example.com", action: .recoverEmail, oobCode: "oob-recover", link: "l")
        store.model.busy = "Restoring the email ada@example.com…"
        let restored = Fixtures.passwordUser()
        store.send(.verification(.actionCodeApplied(recovery, .success(restored))), effects: [.verification(.refreshOutbox)]) {
            $0.busy = nil
            $0.user = restored
            $0.banner = Banner(.success, "The email is ada@example.com again, and verified. Its refresh tokens were revoked (a password reset is wise).")
        }
    }
}
