@testable import AuthDeckApp
import AuthClient
import Foundation
import SnapshotTesting
import TerminalUI
import Testing

@Suite("The teaching pane over the console at 80×24: the step, its backend call, scrolling, one language")
struct TeachingConsoleSnapshotTests {
    private func signedUp() -> ConsoleModel {
        var model = ConsoleModel(backendName: "embedded")
        model.screen = .credentialForm(Fixtures.form(.createAccount, email: "grace.hopper@example.com", password: "hopper-secret-1"))
        _ = model.handle(.key(.enter))
        let user = Fixtures.passwordUser(email: "grace.hopper@example.com")
        _ = model.handle(.signInFinished(.success(SignedIn(AuthDataResult(user: user, additionalUserInfo: AdditionalUserInfo(providerID: "password", isNewUser: true)), cart: .success([])))))
        let exchange = BackendExchange(date: Fixtures.created, method: "POST", path: "/identitytoolkit.googleapis.com/v1/accounts:signUp?key=authdeck",
                                       status: 200, latency: 0.012, requestBody: Data("{}".utf8), responseBody: Data("{}".utf8))
        _ = model.handle(.exchangesChanged([exchange]))
        return model
    }

    @Test func theSignUpInAllFourLanguagesScrolled() {
        var model = signedUp()
        _ = model.handle(.key(.character("s")))
        let top = render(model)
        #expect(top.contains("Backend: POST /v1/accounts:signUp → 200"))
        #expect(top.contains("lines 1–"))
        #expect(!top.contains("hopper-secret-1"))
        #expect(top.contains("space page down"))
        assertSnapshot(of: top, as: .lines, named: "top")
        _ = model.handle(.key(.pageDown))
        let next = render(model)
        #expect(next != top)
        #expect(next.contains("JavaScript (web, modular API)"))
        // At the end the bar no longer offers a page it does not have.
        #expect(!next.contains("page down"))
        assertSnapshot(of: next, as: .lines, named: "page")
    }

    @Test func oneLanguageAtFullWidth() {
        var model = signedUp()
        _ = model.handle(.key(.character("s")))
        _ = model.handle(.key(.character("l")))
        _ = model.handle(.key(.character("l")))
        let text = render(model)
        #expect(text.contains("Kotlin (Android)"))
        #expect(!text.contains("Swift (Apple platforms)"))
        #expect(!text.contains("page down"))
        assertSnapshot(of: text, as: .lines)
    }

    @Test func appleStepsAreWalkedWithTheArrows() {
        var model = ConsoleModel(backendName: "embedded")
        model.screen = .consent(FederatedFixtures.consent(FederatedFixtures.appleProvider, .signIn, FederatedFixtures.appleDirectory))
        _ = model.handle(.feature(ConsentFeature.Event.providerAuthorized(.success(ProviderAuthorization(
            credential: .oauth(OAuthCredential(providerID: "apple.com", idToken: "eyJ.apple.sig", rawNonce: TeachingExamples.nonce)),
            rawNonce: TeachingExamples.nonce, hashedNonce: TeachingExamples.nonceSHA256, idTokenClaims: nil, grantedScopes: ["email"])))))
        model.busy = nil
        _ = model.handle(.key(.character("s")))
        _ = model.handle(.key(.left))
        _ = model.handle(.key(.left))
        let text = render(model)
        #expect(text.contains("Step 2 of 4"))
        #expect(text.contains(TeachingExamples.nonceSHA256))
        assertSnapshot(of: text, as: .lines)
    }
}
