import AppData
@testable import AuthDeckApp
import AuthClient
import Foundation
import SnapshotTesting
import Testing
import TerminalUI

/// The federated screens drawn at 80×24 on the in-memory canvas, compared as text.
@Suite("Federated screen snapshots")
struct FederatedScreenSnapshotTests {
    typealias F = FederatedFixtures

    @Test func microsoftRequestForm() {
        var model = ConsoleModel(backendName: "embedded · authdeck-local")
        var form = ProviderFormFeature(provider: .microsoft, purpose: .signIn)
        form.loginHint = TextField(text: "carol@contoso.com", maxLength: 254)
        form.scopes = TextField(text: "openid email profile mail.read", maxLength: 300)
        form.parameters = TextField(text: "client_id=x", maxLength: 300)
        form.focus = .parameters
        model.screen = .providerForm(form)
        model.banner = Banner(.error, OAuthProviderError.reservedParameter("client_id").description)
        let text = render(model)
        assertSnapshot(of: text, as: .lines)
        #expect(text.contains("Tenant"))
        #expect(text.contains("reserved"))
    }

    @Test func simulatedAppleConsentOnTheFirstAuthorization() {
        var model = ConsoleModel(backendName: "embedded · authdeck-local")
        var consent = F.consent(F.appleProvider, .signIn, F.appleDirectory)
        consent.hideEmail = true
        model.screen = .consent(consent)
        let text = render(model)
        assertSnapshot(of: text, as: .lines)
        #expect(text.contains("SIMULATED APPLE"))
        #expect(text.contains("[x] Hide my email"))
        #expect(text.contains("h hide email"))
    }

    @Test func simulatedMicrosoftConsentAddingAnIdentity() {
        var model = Fixtures.signedIn(Fixtures.anonymous)
        let provider = OAuthProvider(providerID: "microsoft.com", scopes: ["openid", "email", "profile", "mail.read"],
                                     customParameters: ["tenant": "common", "prompt": "select_account", "login_hint": "carol@contoso.com"])
        var consent = F.consent(provider, .link, F.microsoftDirectory, selection: 1)
        assertSnapshot(of: render({ var m = model; m.screen = .consent(consent); return m }()), as: .lines, named: "list")
        var form = NewIdentityForm()
        form.name = TextField(text: "Dana Scully", maxLength: 100)
        form.email = TextField(text: "dana@fabrikam.com", maxLength: 254)
        form.focusOnEmail = true
        consent.newIdentity = form
        model.screen = .consent(consent)
        let text = render(model)
        assertSnapshot(of: text, as: .lines, named: "adding")
        #expect(text.contains("New simulated Microsoft identity"))
    }

    @Test func linkingScreen() {
        var model = Fixtures.signedIn(F.appleUser())
        model.screen = .linking(LinkingFeature(selection: 2))
        let text = render(model)
        assertSnapshot(of: text, as: .lines)
        #expect(text.contains("Linked (1)"))
        #expect(text.contains("Not linked yet (5)"))
        // One selection across both lists: one marker, whichever list holds it.
        #expect(text.components(separatedBy: "▸").count == 2)
        model.screen = .linking(LinkingFeature(selection: 0))
        let onLinked = render(model)
        #expect(onLinked.components(separatedBy: "▸").count == 2)
        #expect(onLinked.contains("▸ apple.com"))
    }

    /// The consent's request and the conflict's notes are whole at 80 columns: no row above the key bar
    /// ends in an ellipsis.
    @Test func consentAndConflictTextIsWholeAt80By24() {
        var model = Fixtures.signedIn(Fixtures.anonymous)
        let provider = OAuthProvider(providerID: "microsoft.com", scopes: ["openid", "email", "profile", "mail.read"],
                                     customParameters: ["tenant": "common", "prompt": "select_account", "login_hint": "carol@contoso.com"])
        model.screen = .consent(F.consent(provider, .link, F.microsoftDirectory, selection: 1))
        let rows = { (text: String) in text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().joined(separator: "\n") }
        let consent = render(model)
        #expect(consent.contains("Microsoft account."))
        #expect(!rows(consent).contains("…"))
        model.screen = .consent(F.consent(F.appleProvider, .signIn, F.appleDirectory))
        let apple = render(model)
        #expect(apple.contains("shared only now."))
        #expect(!rows(apple).contains("…"))
        var state = ConflictFeature(credential: F.updatedMicrosoft, email: nil, previous: AccountSnapshot(user: Fixtures.anonymous, cart: []))
        state.other = .loaded(AccountSnapshot(uid: "bobUID0000000000000000000001", isAnonymous: false, email: "bob@example.com", providerIDs: ["microsoft.com"], cart: []))
        state.choice = 1
        model.screen = .conflict(state)
        let conflict = render(model)
        #expect(conflict.contains("second trip to Microsoft."))
        #expect(conflict.contains("anonymous account."))
        #expect(!rows(conflict).contains("…"))
        // An account with three providers: the list wraps in its half of the screen.
        state.previous = AccountSnapshot(uid: "adaUID0000000000000000000001", isAnonymous: false, email: "ada@example.com",
                                         providerIDs: ["apple.com", "microsoft.com", "google.com"], cart: [])
        model.screen = .conflict(state)
        let providers = render(model)
        #expect(!rows(providers).contains("…"))
        #expect(providers.contains("│ providers: apple.com, "))
        #expect(providers.contains("│ microsoft.com, google.com "))
    }

    /// An identity is chosen by its email: a long one stays whole beside the name and the notes.
    @Test func theConsentListKeepsALongEmailWhole() {
        var model = ConsoleModel(backendName: "embedded")
        let ada = SimulatedIdentityProviders.Identity(subject: "001", displayName: "Ada", email: "ada.lovelace@analytical-engine.example")
        let directory = SimulatedIdentityProviders.Directory(providerID: "microsoft.com", clientID: "c", issuer: "i", identities: [ada, F.carol])
        model.screen = .consent(F.consent(OAuthProvider(providerID: "microsoft.com"), .signIn, directory))
        let text = render(model)
        #expect(text.contains("Ada                ada.lovelace@analytical-engine.example"))
        #expect(text.contains("Carol Shaw         carol@contoso.com                      work"))
    }

    /// The sign-in methods of an anonymous account say whole what linking keeps.
    @Test func theLinkingHintIsWholeAt80By24() {
        var model = Fixtures.signedIn(Fixtures.anonymous)
        model.screen = .linking(LinkingFeature(selection: 0))
        let text = render(model)
        let rows = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(!rows.contains { $0.contains("…") })
        #expect(rows.joined(separator: " ").split(whereSeparator: \.isWhitespace).joined(separator: " ")
            .contains("Linking any of them upgrades this anonymous account: the uid and the cart stay."))
    }

    @Test func linkConflictWithBothAccounts() {
        var model = Fixtures.signedIn(Fixtures.anonymous)
        let previous = AccountSnapshot(uid: Fixtures.anonymous.uid, isAnonymous: true, email: nil, providerIDs: ["apple.com"],
                                       cart: [CartItem(uid: Fixtures.anonymous.uid, name: "apple", quantity: 2),
                                              CartItem(uid: Fixtures.anonymous.uid, name: "pear", quantity: 1)])
        var state = ConflictFeature(credential: F.updatedMicrosoft, email: "carol@contoso.com", previous: previous)
        state.other = .loaded(AccountSnapshot(uid: "bobUID0000000000000000000001", isAnonymous: false, email: "bob@example.com",
                                              providerIDs: ["microsoft.com", "password"],
                                              cart: [CartItem(uid: "bobUID0000000000000000000001", name: "book", quantity: 1)]))
        state.choice = 1
        model.screen = .conflict(state)
        let text = render(model)
        assertSnapshot(of: text, as: .lines)
        #expect(text.contains("2 × apple"))
        #expect(text.contains("1 × book"))
    }

    @Test func pendingLinkAfterAnUnverifiedEmail() {
        var model = ConsoleModel(backendName: "embedded · authdeck-local")
        model.screen = .pendingLink(PendingLinkFeature(pending: PendingLink(credential: F.updatedFacebook, email: "mark@example.com", reason: .accountExists)))
        assertSnapshot(of: render(model), as: .lines)
    }

    @Test func reauthenticationChoice() {
        let user = Fixtures.passwordUser(extraProviders: [UserInfo(providerID: "google.com", uid: "1", email: "ada@gmail.com")])
        var model = Fixtures.signedIn(user)
        model.screen = .reauthMethods(ReauthMethodsFeature(.deleteAccount, selection: 1))
        model.banner = Banner(.info, "Your last sign-in was too long ago. Choose how to confirm it's you; then delete the account runs by itself.")
        assertSnapshot(of: render(model), as: .lines)
    }

    @Test func inspectorShowsTheNonceAndTheProvidersClaims() {
        var model = ConsoleModel(backendName: "embedded · authdeck-local")
        model.screen = .signInMethods(SignInMethodsFeature(selection: 3))
        let raw = "0aB-._xyz0123456789ABCDEFGHIJKLM"
        let hash = OAuthProvider.sha256(raw)
        model.lastAuthorization = ProviderAuthorization(
            credential: F.appleCredential, rawNonce: raw, hashedNonce: hash,
            idTokenClaims: ["iss": .string("https://appleid.apple.com"), "nonce": .string(hash), "email": .string("x1@privaterelay.appleid.com")],
            grantedScopes: ["email", "name"])
        let request = Data(#"{"hideEmail":true,"nonce":"\#(hash)","providerId":"apple.com","scopes":["email","name"],"subject":"001234.x.0042"}"#.utf8)
        model.exchanges = [BackendExchange(date: Fixtures.created, method: "POST", path: "/emulator/auth/v1/simulatedIdp:authorize",
                                                   status: 200, latency: 0.004, requestBody: request, responseBody: Data(#"{"providerId":"apple.com"}"#.utf8))]
        model.lastAdditionalUserInfo = AdditionalUserInfo(providerID: "apple.com", isNewUser: true, profile: ["is_private_email": .string("true")])
        model.overlay = .inspector(selection: 0)
        let text = render(model)
        assertSnapshot(of: text, as: .lines)
        #expect(text.contains(raw))
        #expect(text.contains("matches the SHA-256"))
        #expect(text.contains("isNewUser true"))
    }
}
