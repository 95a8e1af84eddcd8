import AppData
@testable import AuthDeckApp
import AuthClient
import Foundation
import Testing
import TerminalUI

@Suite("Sign-in flow")
struct SignInFlowTests {
    /// The saved account comes back with its cart, in one event.
    @Test func launchRestoresASavedSessionWithItsCart() {
        let (model, effects) = ConsoleModel.start(backendName: "embedded", sessionSaved: true)
        #expect(effects == [.restoreSession])
        #expect(model.screen == .launching)
        var store = FlowStore(model)
        // Typed while restoring: waits, then acts on the screen that is there.
        store.send(.key(.character("q"))) { $0.typedAhead = [.character("q")] }
        let cart = [CartItem(uid: Fixtures.anonymous.uid, name: "apple", quantity: 1)]
        let restored = SignedIn(AuthDataResult(user: Fixtures.anonymous, additionalUserInfo: nil), cart: .success(cart))
        store.send(.sessionRestored(.success(restored)), effects: [.quit]) {
            $0.busy = nil
            $0.user = Fixtures.anonymous
            $0.cart = cart
            $0.screen = .account(AccountFeature())
            $0.typedAhead = []
        }
    }

    @Test func launchWithoutSessionShowsTheMethods() {
        var store = FlowStore(ConsoleModel.start(backendName: "embedded", sessionSaved: true).0)
        store.send(.sessionRestored(.success(nil))) {
            $0.busy = nil
            $0.screen = .signInMethods(SignInMethodsFeature(selection: 0))
        }
    }

    @Test func launchWithNoSavedSessionStartsOnTheMethodsWithoutWaiting() {
        let (model, effects) = ConsoleModel.start(backendName: "embedded", sessionSaved: false)
        #expect(effects == [])
        #expect(model.screen == .signInMethods(SignInMethodsFeature(selection: 0)))
        #expect(model.busy == nil)
        var store = FlowStore(model)
        // A key before the backend is open acts at once; its effect waits for the backend in the runner.
        store.send(.key(.enter), effects: [.signInAnonymously]) { $0.busy = "Signing in anonymously…" }
    }

    @Test func anUnreadableSessionIsReportedAndTheUserStartsSignedOut() {
        var store = FlowStore(ConsoleModel.start(backendName: "embedded", sessionSaved: true).0)
        store.send(.sessionRestored(.failure(SessionRestoreError(reason: "dataCorrupted")))) {
            $0.busy = nil
            $0.screen = .signInMethods(SignInMethodsFeature(selection: 0))
            $0.banner = Banner(.error, "The saved session could not be read; sign in again. The file was left in place.", detail: "dataCorrupted")
        }
    }

    @Test func movingThroughTheMethodsStopsAtTheEnds() {
        var model = ConsoleModel(backendName: "embedded")
        model.screen = .signInMethods(SignInMethodsFeature(selection: 0))
        var store = FlowStore(model)
        store.send(.key(.up))
        store.send(.key(.down)) { $0.screen = .signInMethods(SignInMethodsFeature(selection: 1)) }
        store.send(.key(.character("j"))) { $0.screen = .signInMethods(SignInMethodsFeature(selection: 2)) }
        let last = SignInMethod.allCases.count - 1
        for index in 3...last { store.send(.key(.down)) { $0.screen = .signInMethods(SignInMethodsFeature(selection: index)) } }
        store.send(.key(.down))
        store.send(.key(.character("k"))) { $0.screen = .signInMethods(SignInMethodsFeature(selection: last - 1)) }
    }

    @Test func anonymousSignInSucceeds() {
        var model = ConsoleModel(backendName: "embedded")
        model.screen = .signInMethods(SignInMethodsFeature(selection: 0))
        var store = FlowStore(model)
        store.send(.key(.enter), effects: [.signInAnonymously]) { $0.busy = "Signing in anonymously…" }
        let result = AuthDataResult(user: Fixtures.anonymous, additionalUserInfo: AdditionalUserInfo(providerID: nil, isNewUser: true))
        store.send(.signInFinished(.success(SignedIn(result, cart: .success([]))))) {
            $0.busy = nil
            $0.user = Fixtures.anonymous
            $0.screen = .account(AccountFeature())
            $0.banner = Banner(.success, "Account created.")
        }
    }

    @Test func anonymousSignInFailureIsShown() {
        var model = ConsoleModel(backendName: "embedded")
        model.screen = .signInMethods(SignInMethodsFeature(selection: 0))
        model.busy = "Signing in anonymously…"
        var store = FlowStore(model)
        let error = AuthError.server("ADMIN_ONLY_OPERATION")
        store.send(.signInFinished(.failure(error))) {
            $0.busy = nil
            $0.banner = Banner(.error, AuthErrorCode.adminRestrictedOperation.localizedDescription,
                               detail: "adminRestrictedOperation (17085) · ADMIN_ONLY_OPERATION")
        }
    }

    @Test func emailSignInTypesBothFieldsAndSubmits() {
        var model = ConsoleModel(backendName: "embedded")
        model.screen = .signInMethods(SignInMethodsFeature(selection: 1))
        var store = FlowStore(model)
        store.send(.key(.enter)) { $0.screen = .credentialForm(CredentialFormFeature(purpose: .signIn)) }
        store.type("ada@example.com") { $0.screen = .credentialForm(Fixtures.form(.signIn, email: "ada@example.com", password: "", focus: .email)) }
        store.send(.key(.enter)) {
            $0.screen = .credentialForm(Fixtures.form(.signIn, email: "ada@example.com", password: ""))
        }
        store.type("hunter22") { $0.screen = .credentialForm(Fixtures.form(.signIn, email: "ada@example.com", password: "hunter22")) }
        store.send(.key(.enter), effects: [.signIn(.password(email: "ada@example.com", password: "hunter22"))]) {
            $0.busy = "Signing in…"
        }
        // The account and its cart arrive together: nothing more is asked for.
        let user = Fixtures.passwordUser()
        let cart = [CartItem(uid: user.uid, name: "pear", quantity: 3)]
        let result = AuthDataResult(user: user, additionalUserInfo: AdditionalUserInfo(providerID: "password", isNewUser: false))
        store.send(.signInFinished(.success(SignedIn(result, cart: .success(cart))))) {
            $0.busy = nil
            $0.user = user
            $0.cart = cart
            $0.screen = .account(AccountFeature())
            $0.banner = Banner(.success, "Signed in.")
        }
    }

    @Test func wrongCredentialsClearThePasswordAndKeepTheEmail() {
        var model = ConsoleModel(backendName: "embedded")
        model.screen = .credentialForm(Fixtures.form(.signIn, email: "ada@example.com", password: "nope"))
        model.busy = "Signing in…"
        var store = FlowStore(model)
        store.send(.signInFinished(.failure(.server("INVALID_LOGIN_CREDENTIALS")))) {
            $0.busy = nil
            $0.banner = Banner(.error, AuthErrorCode.invalidCredential.localizedDescription, detail: "invalidCredential (17004) · INVALID_LOGIN_CREDENTIALS")
            $0.screen = .credentialForm(Fixtures.form(.signIn, email: "ada@example.com", password: ""))
        }
    }

    @Test func aMalformedEmailPutsTheFocusBackOnTheEmail() {
        var model = ConsoleModel(backendName: "embedded")
        model.screen = .credentialForm(Fixtures.form(.createAccount, email: "ada@", password: "hunter22"))
        model.busy = "Creating the account…"
        var store = FlowStore(model)
        store.send(.signInFinished(.failure(.server("INVALID_EMAIL")))) {
            $0.busy = nil
            $0.banner = Banner(.error, AuthErrorCode.invalidEmail.localizedDescription, detail: "invalidEmail (17008) · INVALID_EMAIL")
            $0.screen = .credentialForm(Fixtures.form(.createAccount, email: "ada@", password: "", focus: .email))
        }
    }

    @Test func emptyFieldsAreCaughtBeforeAnythingIsSent() {
        var model = ConsoleModel(backendName: "embedded")
        model.screen = .credentialForm(Fixtures.form(.signIn, email: "", password: "x"))
        var store = FlowStore(model)
        store.send(.key(.enter)) {
            $0.banner = Banner(.error, "Enter an email address.")
            $0.screen = .credentialForm(Fixtures.form(.signIn, email: "", password: "x", focus: .email))
        }
        var empty = ConsoleModel(backendName: "embedded")
        empty.screen = .credentialForm(Fixtures.form(.signIn, email: "a@b.co", password: "", focus: .password))
        store = FlowStore(empty)
        store.send(.key(.enter)) { $0.banner = Banner(.error, "Enter a password.") }
    }

    @Test func createAccountSendsCreateUser() {
        var model = ConsoleModel(backendName: "embedded")
        model.screen = .credentialForm(Fixtures.form(.createAccount, email: " new@example.com ", password: "123"))
        var store = FlowStore(model)
        store.send(.key(.enter), effects: [.createUser(email: "new@example.com", password: "123")]) { $0.busy = "Creating the account…" }
        store.send(.signInFinished(.failure(.server("WEAK_PASSWORD : Password should be at least 6 characters")))) {
            $0.busy = nil
            $0.banner = Banner(.error, AuthErrorCode.weakPassword.localizedDescription,
                               detail: "weakPassword (17026) · WEAK_PASSWORD : Password should be at least 6 characters")
            $0.screen = .credentialForm(Fixtures.form(.createAccount, email: " new@example.com ", password: ""))
        }
    }

    @Test func tabSwitchesFieldsAndEscapeGoesBackToTheChosenMethod() {
        var model = ConsoleModel(backendName: "embedded")
        model.screen = .credentialForm(CredentialFormFeature(purpose: .createAccount))
        var store = FlowStore(model)
        store.send(.key(.tab)) { $0.screen = .credentialForm(Fixtures.form(.createAccount, email: "", password: "", focus: .password)) }
        store.send(.key(.backTab)) { $0.screen = .credentialForm(Fixtures.form(.createAccount, email: "", password: "", focus: .email)) }
        store.send(.key(.escape)) { $0.screen = .signInMethods(SignInMethodsFeature(selection: 2)) }
        var signIn = ConsoleModel(backendName: "embedded")
        signIn.screen = .credentialForm(CredentialFormFeature(purpose: .signIn))
        store = FlowStore(signIn)
        store.send(.key(.escape)) { $0.screen = .signInMethods(SignInMethodsFeature(selection: 1)) }
    }

    @Test func lettersTypedInAFormAreTextNotCommands() {
        var model = ConsoleModel(backendName: "embedded")
        model.screen = .credentialForm(CredentialFormFeature(purpose: .signIn))
        var store = FlowStore(model)
        store.type("q?i") { $0.screen = .credentialForm(Fixtures.form(.signIn, email: "q?i", password: "", focus: .email)) }
        #expect(store.model.overlay == nil)
        guard case let .credentialForm(form) = store.model.screen else {
            Issue.record("left the form")
            return
        }
        #expect(form.email.text == "q?i")
    }

    /// Each method's number chooses it at once (a reset password is `9`, not 8 × ↓).
    @Test func aMethodsNumberChoosesItAtOnce() {
        var model = ConsoleModel(backendName: "embedded")
        model.screen = .signInMethods(SignInMethodsFeature(selection: 0))
        var store = FlowStore(model)
        store.send(.key(.character("9"))) { $0.screen = .passwordReset(PasswordResetFeature()) }
        store = FlowStore(model)
        store.send(.key(.character("1")), effects: [.signInAnonymously]) { $0.busy = "Signing in anonymously…" }
        store = FlowStore(model)
        store.send(.key(.character("5"))) { $0.screen = .providerForm(ProviderFormFeature(provider: .microsoft, purpose: .signIn)) }
        // The tenth is 0, as on a keyboard.
        store = FlowStore(model)
        store.send(.key(.character("0"))) { $0.screen = .emailLink(EmailLinkFeature(purpose: .signIn)) }
        #expect(model.helpEntries.map(\.key).filter { $0.first?.isNumber == true } == ["0–9"])
    }
}
