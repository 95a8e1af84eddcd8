import AppData
@testable import AuthDeckApp
import AuthClient
import Foundation
import SnapshotTesting
import Testing
import TerminalUI

/// Every screen drawn on the in-memory canvas at 80×24, compared as text.
@Suite("Screen snapshots")
struct ScreenSnapshotTests {
    func render(_ model: ConsoleModel, size: Size = Size(width: 80, height: 24)) -> String {
        let canvas = TextCanvas(size: size)
        ConsoleView.draw(model, on: canvas)
        return canvas.text
    }

    static let token = TokenSummary(shortToken: "eyJhbGciOiJSUzI1…(845)", signInProvider: "anonymous",
                                    expirationDate: Date(timeIntervalSince1970: 1_790_003_600))

    @Test func signInMethods() {
        var model = ConsoleModel(backendName: "embedded · authdeck-local")
        model.screen = .signInMethods(SignInMethods(selection: 1))
        assertSnapshot(of: render(model), as: .lines)
    }

    @Test func credentialFormWithAnError() {
        var model = ConsoleModel(backendName: "embedded · authdeck-local")
        model.screen = .credentialForm(Fixtures.form(.createAccount, email: "new@example.com", password: ""))
        model.banner = .error(.server("WEAK_PASSWORD : Password should be at least 6 characters"))
        let text = render(model)
        assertSnapshot(of: text, as: .lines)
        #expect(text.contains("weakPassword (17026)"))
    }

    @Test func anonymousAccountWithACart() {
        var model = Fixtures.signedIn(Fixtures.anonymous)
        model.token = Self.token
        model.cart = [CartItem(uid: Fixtures.anonymous.uid, name: "apple", quantity: 2), CartItem(uid: Fixtures.anonymous.uid, name: "pear", quantity: 1)]
        let text = render(model)
        assertSnapshot(of: text, as: .lines)
        #expect(text.contains("ANONYMOUS"))
        #expect(text.contains("l upgrade"))
    }

    @Test func passwordAccountAndItsConfirmations() {
        var model = Fixtures.signedIn(Fixtures.passwordUser())
        assertSnapshot(of: render(model), as: .lines, named: "account")
        model.screen = .confirm(Confirmation(action: .deleteAccount, over: .account(AccountFocus())))
        assertSnapshot(of: render(model), as: .lines, named: "confirm-delete")
        model.screen = .changePassword(PasswordForm())
        assertSnapshot(of: render(model), as: .lines, named: "change-password")
    }

    @Test func reauthenticationPrompt() {
        var model = Fixtures.signedIn(Fixtures.passwordUser())
        model.screen = .credentialForm(CredentialForm(purpose: .reauthenticate(.deleteAccount), email: "ada@example.com"))
        model.banner = Banner(.info, "Your last sign-in was too long ago. Enter your password to delete the account; it then runs by itself.")
        assertSnapshot(of: render(model), as: .lines)
    }

    @Test func helpAndInspectorOverlays() {
        var model = Fixtures.signedIn(Fixtures.passwordUser())
        model.overlay = .help
        assertSnapshot(of: render(model), as: .lines, named: "help")
        let body = Data(#"{"idToken":"eyJhbGciOiJub25lIn0.eyJzdWIiOiJ1MSIsImZpcmViYXNlIjp7InNpZ25faW5fcHJvdmlkZXIiOiJwYXNzd29yZCJ9fQ.","refreshToken":"AMf-vBx0123456789abcdef"}"#.utf8)
        model.exchanges = [BackendExchange(date: Fixtures.created, method: "POST", path: "/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword",
                                                   status: 200, latency: 0.012, requestBody: Data(#"{"email":"ada@example.com","password":"hunter22"}"#.utf8), responseBody: body)]
        model.overlay = .inspector(selection: 0)
        let text = render(model)
        assertSnapshot(of: text, as: .lines, named: "inspector")
        #expect(!text.contains("hunter22"))
        #expect(!text.contains("AMf-vBx0123456789abcdef"))
        #expect(text.contains("sign_in_provider"))
    }

    @Test func theInspectorShowsThatAnOutboxCallCarriedTheAdminTokenButNotTheToken() {
        var model = Fixtures.signedIn(Fixtures.passwordUser())
        model.exchanges = [BackendExchange(date: Fixtures.created, method: "GET", path: "/emulator/v1/projects/p/oobCodes", status: 200,
                                                   latency: 0.004, requestBody: Data(), responseBody: Data(#"{"oobCodes":[]}"#.utf8),
                                                   authorization: "Bearer •••(23)")]
        model.overlay = .inspector(selection: 0)
        let text = render(model)
        #expect(text.contains("auth   Bearer •••(23)"))
    }

    @Test func aTinyTerminalIsToldSo() {
        let text = render(Fixtures.signedIn(Fixtures.passwordUser()), size: Size(width: 60, height: 20))
        #expect(text.contains("too small"))
    }
}
