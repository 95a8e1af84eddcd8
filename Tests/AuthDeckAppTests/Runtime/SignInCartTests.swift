import AppData
@testable import AuthDeckApp
import AuthClient
import Foundation
import IdentityTestSupport
import Testing

/// A sign-in's answer carries the account's cart, read by the runner in the same trip: the console
/// lands on the account with its cart from that one event and asks for nothing after it.
@Suite("A sign-in brings its cart")
struct SignInCartTests {
    @Test(.timeLimit(.minutes(1))) func aPasswordSignInLandsWithTheCartInOneEvent() async throws {
        try await EffectRunnerHarness.with(.inProcess) { setup in
            let ada = try await setup.auth.createUser(email: "ada@example.com", password: "hunter22").user
            try await setup.cart.add("apple", to: ada.uid)
            try await setup.cart.add("apple", to: ada.uid)
            await setup.auth.signOut()
            let cart = [CartItem(uid: ada.uid, name: "apple", quantity: 2)]

            let event = await setup.runner.perform(.signIn(EmailAuthProvider.credential(withEmail: "ada@example.com", password: "hunter22")))
            guard case let .signInFinished(.success(signedIn))? = event else {
                Issue.record("no sign-in: \(String(describing: event))")
                return
            }
            #expect(signedIn.user.uid == ada.uid)
            #expect(signedIn.cart == .success(cart))

            var model = ConsoleModel(backendName: "embedded")
            model.screen = .credentialForm(Fixtures.form(.signIn, email: "ada@example.com", password: "hunter22"))
            #expect(model.handle(try #require(event)) == [])
            #expect(model.user?.uid == ada.uid)
            #expect(model.cart == cart)
            #expect(model.screen == .account(AccountFeature()))
        }
    }
}
