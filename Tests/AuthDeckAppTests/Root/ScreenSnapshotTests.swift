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
    static let token = TokenSummary(shortToken: "eyJhbGciOiJSUzI1…(845)", signInProvider: "anonymous",
                                    expirationDate: Date(timeIntervalSince1970: 1_790_003_600))

    @Test func signInMethods() {
        var model = ConsoleModel(backendName: "embedded · authdeck-local")
        model.screen = .signInMethods(SignInMethodsFeature(selection: 1))
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
        model.screen = .confirm(ConfirmationFeature(subject: .deleteAccount, over: .account(AccountFeature())))
        assertSnapshot(of: render(model), as: .lines, named: "confirm-delete")
        model.screen = .changePassword(ChangePasswordFeature())
        assertSnapshot(of: render(model), as: .lines, named: "change-password")
    }

    @Test func sensitiveChangesNameTheBackendsRecentLoginWindow() {
        // The screen's words with its line breaks and padding as single spaces: the hint wraps.
        func words(_ model: ConsoleModel) -> String {
            render(model).split(whereSeparator: \.isWhitespace).joined(separator: " ")
        }
        var model = Fixtures.signedIn(Fixtures.passwordUser())
        model.screen = .changePassword(ChangePasswordFeature())
        #expect(words(model).contains("if you signed in more than 5 minutes ago, you will be asked"))
        model.screen = .changeEmail(ChangeEmailFeature())
        #expect(words(model).contains("If you signed in more than 5 minutes ago, you confirm it's you first."))
        model.recentLoginWindow = RecentLoginWindow(seconds: 5)
        #expect(words(model).contains("If you signed in more than 5 seconds ago, you confirm it's you first."))
        model.screen = .changePassword(ChangePasswordFeature())
        #expect(words(model).contains("if you signed in more than 5 seconds ago, you will be asked"))
        #expect(RecentLoginWindow.firebase.text == "5 minutes")
        #expect([1, 90, 120, 3600, 7200].map { RecentLoginWindow(seconds: $0).text } == ["1 second", "90 seconds", "2 minutes", "1 hour", "2 hours"])
    }

    @Test func reauthenticationPrompt() {
        var model = Fixtures.signedIn(Fixtures.passwordUser())
        model.screen = .credentialForm(CredentialFormFeature(purpose: .reauthenticate(.deleteAccount), email: "ada@example.com"))
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

    /// A run of background reloads is one row with its count, under the call the user made.
    @Test func theInspectorFoldsBackgroundReloadsIntoOneRow() {
        var model = Fixtures.signedIn(Fixtures.passwordUser())
        let answer = Data(#"{"users":[]}"#.utf8)
        model.exchanges = [
            BackendExchange(date: Fixtures.created, method: "POST", path: "/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword",
                            status: 200, latency: 0.012, requestBody: Data(), responseBody: Data("{}".utf8)),
            BackendExchange(date: Fixtures.created.addingTimeInterval(180), method: "POST", path: "/identitytoolkit.googleapis.com/v1/accounts:lookup",
                            status: 200, latency: 0.003, requestBody: Data(), responseBody: answer, isBackground: true, repeats: 12),
        ]
        model.overlay = .inspector(selection: 1)
        let text = render(model)
        assertSnapshot(of: text, as: .lines, named: "background")
        #expect(text.contains("accounts:lookup 200 ×12 (background) 3ms"))
        // The title counts calls, not rows.
        #expect(text.contains("Inspector: 13 backend calls"))
    }

    /// A paste longer than the field's limit says where it was cut; near the limit, the count shows.
    @Test func aFieldSaysWhenAPasteWasCutAndHowNearItsLimitItIs() {
        var store = FlowStore(Fixtures.signedIn(Fixtures.passwordUser()))
        store.send(.key(.character("a"))) { $0.screen = .addCartItem(AddCartItemFeature()) }
        var field = TextField(maxLength: CartStore.maximumNameLength)
        _ = field.handle(.paste(String(repeating: "x", count: 300)))
        store.send(.key(.paste(String(repeating: "x", count: 300)))) { $0.screen = .addCartItem(AddCartItemFeature(field: field)) }
        let cut = render(store.model)
        assertSnapshot(of: cut, as: .lines, named: "cut")
        #expect(cut.contains("Cut to 40 characters"))
        _ = field.handle(.backspace)
        store.send(.key(.backspace)) { $0.screen = .addCartItem(AddCartItemFeature(field: field)) }
        #expect(render(store.model).contains("39/40"))
    }

    /// At 80 columns the title bar keeps who is signed in whole; a long backend name gives way first.
    @Test func theTitleBarKeepsWhoIsSignedInWholeAt80Columns() {
        func titleRow(_ backend: String, _ email: String?) -> String {
            var model = ConsoleModel(backendName: backend)
            if let email {
                model.user = Fixtures.passwordUser(email: email)
                model.screen = .account(AccountFeature())
            } else {
                model.screen = .signInMethods(SignInMethodsFeature(selection: 0))
            }
            return render(model).split(separator: "\n").first.map(String.init) ?? ""
        }
        let operatorBar = titleRow("shared demo server (operator)", "alice.a@example.com")
        assertSnapshot(of: operatorBar, as: .lines, named: "operator")
        #expect(operatorBar.hasSuffix("shared demo server (operator) · alice.a@example.com"))
        #expect(titleRow("demo project guest-379b312ae851", "alice.a@example.com").contains("demo project guest-379b312ae851 · alice.a@example.com"))
        #expect(titleRow("shared demo server (operator)", nil).contains("shared demo server (operator) · signed out"))
        let long = titleRow("shared demo server (operator)", "someone.with.a.rather.long.address@example.com")
        #expect(long.contains("· someone.with.a.rather.long.address@example.com"))
        #expect(long.contains("shared"))
    }

    /// In a tenant the title bar names it at 80 columns, whole, beside who is signed in; the backend's name gives way.
    @Test func theTitleBarNamesTheTenantWholeAt80Columns() {
        var model = ConsoleModel(backendName: "emulator authdeck-serve.internal.example:9099")
        model.tenant = "team-a-8x2k4"
        model.user = Fixtures.passwordUser(email: "ada.lovelace@example.com")
        model.screen = .account(AccountFeature())
        let bar = render(model).split(separator: "\n").first.map(String.init) ?? ""
        #expect(TextWidth.cells(bar) <= 80)
        #expect(bar.hasSuffix("tenant team-a-8x2k4 · ada.lovelace@example.com"), "\(bar)")
        #expect(bar.contains("emulator"))
        model.tenant = nil
        #expect(!(render(model).split(separator: "\n").first.map(String.init) ?? "").contains("tenant"))
    }

    /// A banner longer than its rows is not cut silently: its last row says where the rest is, and F1
    /// shows it whole over the keys.
    @Test func aLongBannerSaysWhereTheRestIsAndHelpShowsItWhole() {
        var model = Fixtures.signedIn(Fixtures.passwordUser(uid: "bobUID0000000000000000000001", email: "bob@example.com"))
        let previous = AccountSnapshot(user: Fixtures.passwordUser(email: "y@example.com"), cart: [])
        model.screen = .credentialForm(CredentialFormFeature(purpose: .reauthenticate(.deletePreviousAccount(previous)), email: "y@example.com"))
        model.banner = Banner(.info, "Signed in to the account that has Google; the cart of y@example.com was merged into it. Its own sign-in is too old to delete it. Enter its password to delete y@example.com, the account you switched from; it then runs by itself.",
                              detail: "requiresRecentLogin (17014) · CREDENTIAL_TOO_OLD_LOGIN_AGAIN")
        let text = render(model)
        assertSnapshot(of: text, as: .lines, named: "banner")
        #expect(text.contains("F1: all of it"))
        model.overlay = .help
        let help = render(model)
        assertSnapshot(of: help, as: .lines, named: "help")
        #expect(help.contains("runs by itself."))
        #expect(help.contains("CREDENTIAL_TOO_OLD_LOGIN_AGAIN"))
        #expect(help.contains("F2"))
        // One that fits needs no pointer.
        model.overlay = nil
        model.banner = Banner(.success, "Signed in.")
        #expect(!render(model).contains("F1: all of it"))
    }

    /// The detail is never cut at the screen's bottom (the claims after `exp`, a nonce's hash): it is a pane
    /// that scrolls, with bodies pretty-printed and rawUserInfo decoded, and `?` shows the inspector's own keys.
    @Test func theInspectorsDetailScrollsAndItsHelpIsItsOwn() {
        var model = Fixtures.signedIn(Fixtures.passwordUser())
        model.terminalSize = Size(width: 80, height: 24)
        let claims = #"{"iss":"https://securetoken.google.com/p","aud":"p","auth_time":1,"user_id":"u1","sub":"u1","iat":1,"exp":2,"email":"ada@example.com","email_verified":false,"firebase":{"identities":{"email":["ada@example.com"]},"sign_in_provider":"password"}}"#
        let idToken = "eyJhbGciOiJub25lIn0." + Data(claims.utf8).base64EncodedString().replacingOccurrences(of: "=", with: "") + "."
        let body = Data(#"{"idToken":"\#(idToken)","rawUserInfo":"{\"name\":\"Ada\",\"email\":\"ada@example.com\"}","refreshToken":"AMf-vBx0123456789abcdef"}"#.utf8)
        model.exchanges = [BackendExchange(date: Fixtures.created, method: "POST", path: "/identitytoolkit.googleapis.com/v1/accounts:signInWithIdp",
                                           status: 200, latency: 0.012, requestBody: Data(#"{"requestUri":"http://localhost","returnSecureToken":true}"#.utf8), responseBody: body)]
        var store = FlowStore(model)
        store.send(.key(.character("i"))) { $0.overlay = .inspector(selection: 0, scroll: 0) }
        let top = render(store.model)
        assertSnapshot(of: top, as: .lines, named: "top")
        #expect(top.contains(#"  "rawUserInfo" : {"#))
        #expect(top.contains(#"    "name" : "Ada""#))
        #expect(!top.contains("exp: 2"))
        store.send(.key(.character(" "))) { $0.overlay = .inspector(selection: 0, scroll: 9) }
        let scrolled = render(store.model)
        assertSnapshot(of: scrolled, as: .lines, named: "scrolled")
        #expect(scrolled.contains("exp: 2"))
        #expect(scrolled.contains("user_id: \"u1\""))
        store.send(.key(.character(" ")))
        store.send(.key(.character("?"))) { $0.overlay = .inspectorHelp(selection: 0, scroll: 9) }
        let help = render(store.model)
        assertSnapshot(of: help, as: .lines, named: "help")
        #expect(help.contains("Keys: Inspector"))
        store.send(.key(.escape)) { $0.overlay = .inspector(selection: 0, scroll: 9) }
        store.send(.key(.character("b"))) { $0.overlay = .inspector(selection: 0, scroll: 0) }
        store.send(.key(.escape)) { $0.overlay = nil }
    }

    /// The remove-factor and unlink dialogs mark the item they act on, in the list behind them.
    @Test func theDialogsMarkTheItemTheyActOn() {
        var user = MfaFixtures.verifiedUser(factors: [MfaFixtures.totpHint, MfaFixtures.phoneHint])
        user.providerData.append(UserInfo(providerID: "google.com", uid: "1", email: "ada@gmail.com"))
        var second = AccountFeature()
        second.providerSelection = 1
        var store = FlowStore(Fixtures.signedIn(user))
        store.send(.key(.down)) { $0.screen = .account(second) }
        store.send(.key(.character("u"))) {
            $0.screen = .confirm(ConfirmationFeature(subject: .unlink(providerID: "google.com"), over: .account(second)))
        }
        let marked = { (text: String) in text.split(separator: "\n").first { $0.contains("▸") }.map(String.init) ?? "" }
        #expect(marked(render(store.model)).contains("google.com"))
        store.send(.key(.escape)) { $0.screen = .account(second) }
        store.send(.key(.character("f"))) { $0.screen = .secondFactors(SecondFactorsFeature(selection: 0)) }
        store.send(.key(.down)) { $0.screen = .secondFactors(SecondFactorsFeature(selection: 1)) }
        store.send(.key(.character("x"))) {
            $0.screen = .confirm(ConfirmationFeature(subject: .unenroll(MfaFixtures.phoneHint), over: .secondFactors(SecondFactorsFeature(selection: 1))))
        }
        #expect(marked(render(store.model)).contains("Work phone"))
    }

    @Test func aTinyTerminalIsToldSo() {
        let text = render(Fixtures.signedIn(Fixtures.passwordUser()), size: Size(width: 60, height: 20))
        #expect(text.contains("too small"))
    }
}
