import AppData
@testable import AuthDeckApp
import AuthClient
import Foundation
import Testing
import TerminalUI

@Suite("Account flows: upgrade, unlink, sensitive operations, reauthentication")
struct AccountFlowTests {
    @Test func anonymousUpgradeByLinkingEmailPassword() {
        var store = FlowStore(Fixtures.signedIn(Fixtures.anonymous))
        store.send(.key(.character("l"))) { $0.screen = .linking(LinkingFeature(selection: 0)) }
        store.send(.key(.enter)) { $0.screen = .credentialForm(CredentialFormFeature(purpose: .link)) }
        store.type("ada@example.com") { $0.screen = .credentialForm(Fixtures.form(.link, email: "ada@example.com", password: "", focus: .email)) }
        store.send(.key(.tab)) { $0.screen = .credentialForm(Fixtures.form(.link, email: "ada@example.com", password: "")) }
        store.type("hunter22") { $0.screen = .credentialForm(Fixtures.form(.link, email: "ada@example.com", password: "hunter22")) }
        store.send(.key(.enter), effects: [.link(.password(email: "ada@example.com", password: "hunter22"))]) {
            $0.busy = "Linking email and password…"
        }
        var upgraded = Fixtures.passwordUser(uid: Fixtures.anonymous.uid)
        upgraded.metadata = Fixtures.anonymous.metadata
        store.send(.linkFinished(.success(AuthDataResult(user: upgraded, additionalUserInfo: AdditionalUserInfo(providerID: "password", isNewUser: false))))) {
            $0.busy = nil
            $0.user = upgraded
            $0.screen = .account(AccountFeature())
            $0.banner = Banner(.success, "Linked password. The uid and app data are unchanged.")
        }
    }

    @Test func linkingAnEmailOfAnotherAccountFails() {
        var model = Fixtures.signedIn(Fixtures.anonymous)
        model.screen = .credentialForm(Fixtures.form(.link, email: "taken@example.com", password: "hunter22"))
        model.busy = "Linking email and password…"
        var store = FlowStore(model)
        store.send(.linkFinished(.failure(.server("EMAIL_EXISTS")))) {
            $0.busy = nil
            $0.banner = Banner(.error, AuthErrorCode.emailAlreadyInUse.localizedDescription, detail: "emailAlreadyInUse (17007) · EMAIL_EXISTS")
            $0.screen = .credentialForm(Fixtures.form(.link, email: "taken@example.com", password: ""))
        }
    }

    @Test func theLinkKeyOpensTheSignInMethodsOnTheFirstOneNotLinked() {
        #expect(Fixtures.signedIn(Fixtures.anonymous).bindings.contains { $0.intent == .feature(FeatureAction(AccountFeature.Action.link)) && $0.help == "upgrade" })
        let model = Fixtures.signedIn(Fixtures.passwordUser())
        #expect(model.bindings.contains { $0.intent == .feature(FeatureAction(AccountFeature.Action.link)) && $0.help == "link" })
        var store = FlowStore(model)
        store.send(.key(.character("l"))) { $0.screen = .linking(LinkingFeature(selection: 1)) }
    }

    @Test func theLastWayToSignInCannotBeUnlinked() {
        var store = FlowStore(Fixtures.signedIn(Fixtures.passwordUser()))
        store.send(.key(.character("u"))) {
            $0.banner = Banner(.error, "password is this account's only way to sign in; link another provider before unlinking it.")
        }
    }

    @Test func unlinkingAsksFirstThenUnlinks() {
        let user = Fixtures.passwordUser(extraProviders: [UserInfo(providerID: "phone", uid: "+15555550100", phoneNumber: "+15555550100")])
        var focus = AccountFeature()
        focus.providerSelection = 1
        var store = FlowStore(Fixtures.signedIn(user, focus: focus))
        store.send(.key(.character("u"))) { $0.screen = .confirm(ConfirmationFeature(subject: .unlink(providerID: "phone"), over: .account(focus))) }
        // Cancelled, the dialog returns to the account as it was: the phone still selected.
        store.send(.key(.enter)) { $0.screen = .account(focus) }
        store = FlowStore(Fixtures.signedIn(user, focus: focus))
        store.send(.key(.character("u"))) { $0.screen = .confirm(ConfirmationFeature(subject: .unlink(providerID: "phone"), over: .account(focus))) }
        store.send(.key(.right)) {
            var confirmation = ConfirmationFeature(subject: .unlink(providerID: "phone"), over: .account(focus))
            confirmation.confirmSelected = true
            $0.screen = .confirm(confirmation)
        }
        store.send(.key(.enter), effects: [.unlink(providerID: "phone")]) { $0.busy = "Unlinking phone…" }
        let after = Fixtures.passwordUser()
        store.send(.unlinkFinished(providerID: "phone", .success(after))) {
            $0.busy = nil
            $0.user = after
            $0.banner = Banner(.success, "Unlinked phone.")
            var clamped = AccountFeature()
            clamped.providerSelection = 0
            $0.screen = .account(clamped)
        }
    }

    @Test func unlinkFailuresAreShown() {
        var model = Fixtures.signedIn(Fixtures.passwordUser())
        model.screen = .confirm(ConfirmationFeature(subject: .unlink(providerID: "phone"), over: .account(AccountFeature())))
        model.busy = "Unlinking phone…"
        var store = FlowStore(model)
        store.send(.unlinkFinished(providerID: "phone", .failure(AuthError(.noSuchProvider)))) {
            $0.busy = nil
            $0.banner = Banner(.error, AuthErrorCode.noSuchProvider.localizedDescription, detail: "noSuchProvider (17016)")
            $0.screen = .account(AccountFeature())
        }
    }

    @Test func changingThePasswordChecksTheConfirmation() {
        var store = FlowStore(Fixtures.signedIn(Fixtures.passwordUser()))
        store.send(.key(.character("p"))) { $0.screen = .changePassword(ChangePasswordFeature()) }
        store.type("newpass1") {
            var form = ChangePasswordFeature()
            form.newPassword = TextField(text: "newpass1", maxLength: 128, isSecure: true)
            $0.screen = .changePassword(form)
        }
        store.send(.key(.enter)) {
            var form = ChangePasswordFeature()
            form.newPassword = TextField(text: "newpass1", maxLength: 128, isSecure: true)
            form.focusOnConfirmation = true
            $0.screen = .changePassword(form)
        }
        store.type("newpass2") {
            var form = ChangePasswordFeature()
            form.newPassword = TextField(text: "newpass1", maxLength: 128, isSecure: true)
            form.confirmation = TextField(text: "newpass2", maxLength: 128, isSecure: true)
            form.focusOnConfirmation = true
            $0.screen = .changePassword(form)
        }
        store.send(.key(.enter)) {
            var form = ChangePasswordFeature()
            form.newPassword = TextField(text: "newpass1", maxLength: 128, isSecure: true)
            form.focusOnConfirmation = true
            $0.screen = .changePassword(form)
            $0.banner = Banner(.error, "The two passwords do not match.")
        }
        store.type("newpass1") {
            var form = ChangePasswordFeature()
            form.newPassword = TextField(text: "newpass1", maxLength: 128, isSecure: true)
            form.confirmation = TextField(text: "newpass1", maxLength: 128, isSecure: true)
            form.focusOnConfirmation = true
            $0.screen = .changePassword(form)
        }
        store.send(.key(.enter), effects: [.perform(.updatePassword("newpass1"))]) {
            $0.busy = "Changing the password…"
            $0.banner = nil
        }
        store.send(.sensitiveOperationFinished(.updatePassword("newpass1"), .success(Fixtures.passwordUser()))) {
            $0.busy = nil
            $0.banner = Banner(.success, "Password changed. Other sessions of this account were signed out.")
            $0.screen = .account(AccountFeature())
        }
    }

    /// The mismatch error goes with the password form when esc leaves it, rather than staying on the account screen.
    @Test func leavingThePasswordFormTakesItsErrorAlong() {
        var form = ChangePasswordFeature()
        form.newPassword = TextField(text: "newpass1", maxLength: 128, isSecure: true)
        form.focusOnConfirmation = true
        var model = Fixtures.signedIn(Fixtures.passwordUser())
        model.screen = .changePassword(form)
        var store = FlowStore(model)
        store.type("other") {
            var typed = form
            typed.confirmation = TextField(text: "other", maxLength: 128, isSecure: true)
            $0.screen = .changePassword(typed)
        }
        store.send(.key(.enter)) {
            $0.screen = .changePassword(form)
            $0.banner = Banner(.error, "The two passwords do not match.")
        }
        store.send(.key(.escape)) {
            $0.screen = .account(AccountFeature())
            $0.banner = nil
        }
    }

    @Test func aStaleSignInAsksForThePasswordThenRetriesByItself() {
        var model = Fixtures.signedIn(Fixtures.passwordUser())
        model.busy = "Changing the password…"
        var store = FlowStore(model)
        store.send(.sensitiveOperationFinished(.updatePassword("newpass1"), .failure(.server("CREDENTIAL_TOO_OLD_LOGIN_AGAIN")))) {
            $0.busy = nil
            $0.banner = Banner(.info, "Your last sign-in was too long ago. Enter your password to change the password; it then runs by itself.")
            $0.screen = .credentialForm(CredentialFormFeature(purpose: .reauthenticate(.updatePassword("newpass1")), email: "ada@example.com"))
        }
        store.type("hunter22") {
            $0.screen = .credentialForm(Fixtures.form(.reauthenticate(.updatePassword("newpass1")), email: "ada@example.com", password: "hunter22"))
        }
        store.send(.key(.enter), effects: [.reauthenticate(.password(email: "ada@example.com", password: "hunter22"), then: .updatePassword("newpass1"))]) {
            $0.busy = "Confirming it's you…"
            $0.banner = nil
            $0.screen = .credentialForm(Fixtures.form(.reauthenticate(.updatePassword("newpass1")), email: "ada@example.com", password: "hunter22"))
        }
        let data = AuthDataResult(user: Fixtures.passwordUser(), additionalUserInfo: AdditionalUserInfo(providerID: "password", isNewUser: false))
        store.send(.reauthenticationFinished(.updatePassword("newpass1"), .success(data)), effects: [.perform(.updatePassword("newpass1"))]) {
            $0.busy = "Retrying: change the password…"
        }
    }

    @Test func aWrongReauthenticationPasswordStaysOnTheForm() {
        var model = Fixtures.signedIn(Fixtures.passwordUser())
        model.screen = .credentialForm(Fixtures.form(.reauthenticate(.deleteAccount), email: "ada@example.com", password: "bad"))
        model.busy = "Confirming it's you…"
        var store = FlowStore(model)
        store.send(.reauthenticationFinished(.deleteAccount, .failure(AuthError(.userMismatch)))) {
            $0.busy = nil
            $0.banner = Banner(.error, AuthErrorCode.userMismatch.localizedDescription, detail: "userMismatch (17024)")
            $0.screen = .credentialForm(Fixtures.form(.reauthenticate(.deleteAccount), email: "ada@example.com", password: ""))
        }
        store.send(.key(.escape)) {
            $0.banner = Banner(.info, "Cancelled: did not delete the account.")
            $0.screen = .account(AccountFeature())
        }
    }

    @Test func anAnonymousAccountCannotReauthenticate() {
        var model = Fixtures.signedIn(Fixtures.anonymous)
        model.busy = "Deleting the account…"
        var store = FlowStore(model)
        store.send(.sensitiveOperationFinished(.deleteAccount, .failure(.server("CREDENTIAL_TOO_OLD_LOGIN_AGAIN")))) {
            $0.busy = nil
            $0.banner = Banner(.error, "This operation needs a recent sign-in, and this account has no credential to sign in again with. Link one first, or sign out and in again.",
                               detail: "requiresRecentLogin (17014) · CREDENTIAL_TOO_OLD_LOGIN_AGAIN")
        }
    }

    @Test func deletingTheAccountAsksFirstAndRemovesItsAppData() {
        let user = Fixtures.passwordUser()
        var store = FlowStore(Fixtures.signedIn(user))
        store.send(.key(.character("D"))) { $0.screen = .confirm(ConfirmationFeature(subject: .deleteAccount, over: .account(AccountFeature()))) }
        store.send(.key(.character("n"))) { $0.screen = .account(AccountFeature()) }
        store.send(.key(.character("D"))) { $0.screen = .confirm(ConfirmationFeature(subject: .deleteAccount, over: .account(AccountFeature()))) }
        store.send(.key(.character("y")), effects: [.perform(.deleteAccount)]) { $0.busy = "Deleting the account…" }
        store.send(.sensitiveOperationFinished(.deleteAccount, .success(nil)), effects: [.deleteAppData(uid: user.uid)]) {
            $0.busy = nil
            $0.banner = Banner(.success, "Account deleted.")
            $0.screen = .signInMethods(SignInMethodsFeature(selection: 0))
        }
        store.send(.authStateChanged(nil, nil)) {
            $0.user = nil
        }
    }

    @Test func signingOutOfAnAnonymousAccountWarnsFirst() {
        var store = FlowStore(Fixtures.signedIn(Fixtures.anonymous))
        store.send(.key(.character("o"))) { $0.screen = .confirm(ConfirmationFeature(subject: .signOutAnonymous, over: .account(AccountFeature()))) }
        store.send(.key(.escape)) { $0.screen = .account(AccountFeature()) }
        store.send(.key(.character("o"))) { $0.screen = .confirm(ConfirmationFeature(subject: .signOutAnonymous, over: .account(AccountFeature()))) }
        store.send(.key(.character("y")), effects: [.signOut]) {
            $0.screen = .signInMethods(SignInMethodsFeature(selection: 0))
            $0.banner = Banner(.success, "Signed out.")
        }
    }

    @Test func signingOutOfAPasswordAccountIsImmediate() {
        var store = FlowStore(Fixtures.signedIn(Fixtures.passwordUser()))
        store.send(.key(.character("o")), effects: [.signOut]) {
            $0.screen = .signInMethods(SignInMethodsFeature(selection: 0))
            $0.banner = Banner(.success, "Signed out.")
        }
    }

    @Test func aSessionEndedByTheBackendReturnsToSignIn() {
        var store = FlowStore(Fixtures.signedIn(Fixtures.passwordUser()))
        store.send(.authStateChanged(nil, nil)) {
            $0.user = nil
            $0.screen = .signInMethods(SignInMethodsFeature(selection: 0))
            $0.banner = Banner(.error, "The session ended: the account was deleted, disabled or its sessions revoked. Sign in again.")
        }
    }

    @Test func anAccountDisabledByAnAdministratorSaysSoOverAnEarlierBanner() {
        var model = Fixtures.signedIn(Fixtures.passwordUser())
        model.banner = Banner(.success, "Reloaded: nothing changed.")
        var store = FlowStore(model)
        store.send(.authStateChanged(nil, nil, endedBy: .userDisabled)) {
            $0.user = nil
            $0.screen = .signInMethods(SignInMethodsFeature(selection: 0))
            $0.banner = Banner(.error, "This account was disabled by an administrator: the session ended.")
        }
    }

    @Test func anAccountDeletedElsewhereSaysSo() {
        var store = FlowStore(Fixtures.signedIn(Fixtures.passwordUser()))
        store.send(.authStateChanged(nil, nil, endedBy: .userNotFound)) {
            $0.user = nil
            $0.screen = .signInMethods(SignInMethodsFeature(selection: 0))
            $0.banner = Banner(.error, "This account was deleted: the session ended.")
        }
    }

    /// The flow that signed in adopts the account and loads the cart when it ends; the auth state only
    /// follows the session's token.
    @Test func theAuthStateFollowsTheSessionAndLeavesTheAccountAndCartToTheFlow() {
        var model = ConsoleModel(backendName: "embedded")
        model.screen = .signInMethods(SignInMethodsFeature(selection: 0))
        var store = FlowStore(model)
        let token = TokenSummary(shortToken: "eyJ…", signInProvider: "anonymous", expirationDate: nil)
        store.send(.authStateChanged(Fixtures.anonymous, token)) { $0.token = token }
        store.send(.authStateChanged(Fixtures.anonymous, nil)) { $0.token = nil }
    }

    /// `r` is Firebase's reload(), and says what another console changed.
    @Test func reloadSaysWhatChangedElsewhere() {
        let ada = Fixtures.passwordUser()
        var store = FlowStore(Fixtures.signedIn(ada))
        store.send(.key(.character("r")), effects: [.reloadUser]) { $0.busy = "Reloading the account…" }
        var changed = Fixtures.passwordUser(extraProviders: [UserInfo(providerID: "google.com", uid: "1", email: "ada@gmail.com")])
        changed.emailVerified = true
        store.send(.userReloaded(.success(changed))) {
            $0.busy = nil
            $0.user = changed
            $0.banner = Banner(.success, "Reloaded: the email is verified; linked Google.")
        }
        store.send(.key(.character("r")), effects: [.reloadUser]) {
            $0.busy = "Reloading the account…"
            $0.banner = nil
        }
        store.send(.userReloaded(.success(changed))) {
            $0.busy = nil
            $0.banner = Banner(.success, "Reloaded: nothing changed.")
        }
        let gone = AuthError(.userNotFound)
        store.send(.userReloaded(.failure(gone))) { $0.banner = .error(gone) }
    }
}
