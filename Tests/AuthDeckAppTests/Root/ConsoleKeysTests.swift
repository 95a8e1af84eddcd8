import AppData
@testable import AuthDeckApp
import AuthClient
import Foundation
import Testing
import TerminalUI

@Suite("Cart, overlays and global keys")
struct ConsoleKeysTests {
    @Test func addingAndRemovingCartItems() {
        let user = Fixtures.anonymous
        var store = FlowStore(Fixtures.signedIn(user))
        store.send(.key(.character("a"))) { $0.screen = .addCartItem(AddCartItemFeature(field: TextField(maxLength: CartStore.maximumNameLength))) }
        store.send(.key(.enter)) { $0.banner = Banner(.error, "Type the item's name, or press esc.") }
        store.type("apple") { $0.screen = .addCartItem(AddCartItemFeature(field: TextField(text: "apple", maxLength: CartStore.maximumNameLength))) }
        var focus = AccountFeature()
        focus.pane = .cart
        store.send(.key(.enter), effects: [.addToCart(uid: user.uid, name: "apple")]) { $0.screen = .account(focus) }
        let items = [CartItem(uid: user.uid, name: "apple", quantity: 1), CartItem(uid: user.uid, name: "pear", quantity: 2)]
        store.send(.cartChanged(uid: user.uid, .success(items))) { $0.cart = items }
        store.send(.key(.down)) {
            var moved = focus
            moved.cartSelection = 1
            $0.screen = .account(moved)
        }
        store.send(.key(.character("x")), effects: [.removeFromCart(uid: user.uid, name: "pear")]) { $0.banner = nil }
        store.send(.cartChanged(uid: "someone-else", .success([])))
        store.send(.cartChanged(uid: user.uid, .failure(AppDataError(reason: "disk I/O error")))) {
            $0.banner = Banner(.error, "The app data could not be read or changed.", detail: "disk I/O error")
        }
    }

    @Test func ctrlCAlwaysQuitsEvenWhenBusy() {
        var model = Fixtures.signedIn(Fixtures.passwordUser())
        model.busy = "Changing the password…"
        var store = FlowStore(model)
        store.send(.key(.control("c")), effects: [.quit])
        // Any other key waits for the answer, then acts.
        store.send(.key(.character("q"))) { $0.typedAhead = [.character("q")] }
        store.send(.sensitiveOperationFinished(.updatePassword("newpass1"), .success(Fixtures.passwordUser())), effects: [.quit]) {
            $0.busy = nil
            $0.banner = Banner(.success, "Password changed. Other sessions of this account were signed out.")
            $0.typedAhead = []
        }
    }

    @Test func helpOpensAndClosesOnEveryScreen() {
        var store = FlowStore(Fixtures.signedIn(Fixtures.passwordUser()))
        store.send(.key(.character("?"))) { $0.overlay = .help }
        store.send(.key(.character("o")))
        store.send(.key(.escape)) { $0.overlay = nil }
        var form = ConsoleModel(backendName: "embedded")
        form.screen = .credentialForm(CredentialFormFeature(purpose: .signIn))
        store = FlowStore(form)
        store.send(.key(.function(1))) { $0.overlay = .help }
        store.send(.key(.function(1))) { $0.overlay = nil }
    }

    @Test func theInspectorMovesThroughExchanges() {
        var store = FlowStore(Fixtures.signedIn(Fixtures.passwordUser()))
        let entries = (0..<3).map { index in
            BackendExchange(date: Fixtures.created, method: "POST", path: "/p\(index)", status: 200, latency: 0.01,
                                    requestBody: Data("{}".utf8), responseBody: Data("{}".utf8))
        }
        store.send(.exchangesChanged(entries)) { $0.exchanges = entries }
        store.send(.key(.character("i"))) { $0.overlay = .inspector(selection: 2) }
        store.send(.key(.down))
        store.send(.key(.up)) { $0.overlay = .inspector(selection: 1) }
        store.send(.exchangesChanged([entries[0]])) {
            $0.exchanges = [entries[0]]
            $0.overlay = .inspector(selection: 0)
        }
        store.send(.key(.character("i"))) { $0.overlay = nil }
    }

    @Test func everyBarKeyOfTheAccountScreenDoesSomething() {
        let user = Fixtures.passwordUser(extraProviders: [UserInfo(providerID: "phone", uid: "+15555550100")])
        var model = Fixtures.signedIn(user)
        model.cart = [CartItem(uid: user.uid, name: "apple", quantity: 1)]
        for pane in [AccountFeature.Pane.providers, .cart] {
            var focus = AccountFeature()
            focus.pane = pane
            model.screen = .account(focus)
            for binding in model.bindings where binding.inBar {
                var copy = model
                let effects = copy.handle(.key(binding.keys[0]))
                #expect(copy != model || !effects.isEmpty, "\(binding.label) did nothing")
            }
        }
    }
}
