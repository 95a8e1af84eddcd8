import AppData
@testable import AuthDeckApp
import AuthClient
import Testing
import TerminalUI

/// Keys the user cannot see act on nothing; keys typed while a request runs are kept and applied
/// in order once its answer is in.
@Suite("Type-ahead and the too-small terminal")
struct TypeAheadTests {
    @Test func behindTerminalTooSmallOnlyCtrlCActs() {
        var store = FlowStore(Fixtures.signedIn(Fixtures.passwordUser()))
        store.send(.resized(Size(width: 40, height: 10))) { $0.terminalSize = Size(width: 40, height: 10) }
        for key: Key in [.character("a"), .character("z"), .character("z"), .character("o"), .character("D"), .character("y"), .enter] {
            store.send(.key(key))
        }
        store.send(.resized(Size(width: 80, height: 24))) { $0.terminalSize = Size(width: 80, height: 24) }
        store.send(.key(.character("a"))) { $0.screen = .addCartItem(AddCartItemFeature()) }
        store.send(.resized(Size(width: 79, height: 24))) { $0.terminalSize = Size(width: 79, height: 24) }
        store.send(.key(.control("c")), effects: [.quit])
    }

    @Test func aKeyTypedWhileSigningInAppliesToTheAccountOnceSignedIn() {
        var model = ConsoleModel(backendName: "embedded")
        model.screen = .signInMethods(SignInMethodsFeature(selection: 0))
        var store = FlowStore(model)
        store.send(.key(.enter), effects: [.signInAnonymously]) { $0.busy = "Signing in anonymously…" }
        store.send(.key(.character("a"))) { $0.typedAhead = [.character("a")] }
        let result = AuthDataResult(user: Fixtures.anonymous, additionalUserInfo: AdditionalUserInfo(providerID: nil, isNewUser: true))
        store.send(.signInFinished(.success(SignedIn(result, cart: .success([]))))) {
            $0.busy = nil
            $0.user = Fixtures.anonymous
            // The key acts as if typed just after the answer: the form replaces the banner.
            $0.screen = .addCartItem(AddCartItemFeature())
            $0.typedAhead = []
        }
    }

    @Test func textTypedAfterASubmittedFormLandsInOrderOnceTheAnswerIsIn() {
        var model = ConsoleModel(backendName: "embedded")
        model.screen = .credentialForm(Fixtures.form(.signIn, email: "ada@example.com", password: "nope"))
        var store = FlowStore(model)
        store.send(.key(.enter), effects: [.signIn(.password(email: "ada@example.com", password: "nope"))]) { $0.busy = "Signing in…" }
        store.type("hunter22") { $0.typedAhead = "hunter22".map { .character($0) } }
        // The answer clears the password; what was typed meanwhile fills it, then enter sends it.
        store.send(.key(.enter)) { $0.typedAhead.append(.enter) }
        store.send(.signInFinished(.failure(.server("INVALID_LOGIN_CREDENTIALS"))),
                   effects: [.signIn(.password(email: "ada@example.com", password: "hunter22"))]) {
            $0.banner = nil
            $0.busy = "Signing in…"
            $0.screen = .credentialForm(Fixtures.form(.signIn, email: "ada@example.com", password: "hunter22"))
            $0.typedAhead = []
        }
    }
}
