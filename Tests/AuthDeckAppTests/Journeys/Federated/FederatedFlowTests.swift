import AppData
@testable import AuthDeckApp
import AuthClient
import Foundation
import Testing
import TerminalUI

@Suite("Federated flows: provider sign-in, consent, linking, conflict and merge, pending link, reauthentication")
struct FederatedFlowTests {
    typealias F = FederatedFixtures

    static func form(_ provider: FederatedProvider, _ purpose: FederatedPurpose, focus: ProviderFormFeature.Field) -> ProviderFormFeature {
        var form = ProviderFormFeature(provider: provider, purpose: purpose)
        form.focus = focus
        return form
    }

    @Test func signInWithAppleHidingTheEmail() {
        var model = ConsoleModel(backendName: "embedded")
        model.screen = .signInMethods(SignInMethodsFeature(selection: 3))
        var store = FlowStore(model)
        store.send(.key(.enter)) { $0.screen = .providerForm(ProviderFormFeature(provider: .apple, purpose: .signIn)) }
        // enter on the first field goes to the next; from the last it sends the request.
        store.send(.key(.enter)) { $0.screen = .providerForm(Self.form(.apple, .signIn, focus: .parameters)) }
        store.send(.key(.enter), effects: [.consent(.loadProviderDirectory(providerID: "apple.com"))]) {
            $0.busy = "Asking the simulated Apple for its accounts…"
            $0.screen = .consent(ConsentFeature(provider: F.appleProvider, purpose: .signIn))
        }
        store.send(.feature(ConsentFeature.Event.providerDirectoryLoaded(providerID: "apple.com", .success(F.appleDirectory)))) {
            $0.busy = nil
            $0.screen = .consent(F.consent(F.appleProvider, .signIn, F.appleDirectory))
        }
        #expect(store.model.bindings.map(\.help).contains("hide email"))
        store.send(.key(.character("h"))) {
            var consent = F.consent(F.appleProvider, .signIn, F.appleDirectory)
            consent.hideEmail = true
            $0.screen = .consent(consent)
        }
        var consenting = F.consent(F.appleProvider, .signIn, F.appleDirectory)
        consenting.hideEmail = true
        store.send(.key(.enter), effects: [.consent(.authorize(F.appleProvider, subject: F.ada.subject, hideEmail: true))]) {
            $0.busy = "Waiting for the simulated Apple…"
        }
        store.send(.feature(ConsentFeature.Event.providerAuthorized(.success(F.appleAuthorization))), effects: [.signIn(F.appleCredential)]) {
            $0.lastAuthorization = F.appleAuthorization
            $0.busy = "Signing in with Apple…"
        }
        let user = F.appleUser()
        let info = AdditionalUserInfo(providerID: "apple.com", isNewUser: true, profile: ["is_private_email": .string("true")])
        let data = AuthDataResult(user: user, additionalUserInfo: info)
        store.send(.signInFinished(.success(SignedIn(data, cart: .success([]))))) {
            $0.busy = nil
            $0.user = user
            $0.screen = .account(AccountFeature())
            $0.banner = Banner(.success, "Account created.")
            $0.lastAdditionalUserInfo = info
        }
        // A password sign-in has no provider profile: the inspector keeps the last one.
        store.send(.key(.character("o")), effects: [.signOut]) {
            $0.screen = .signInMethods(SignInMethodsFeature(selection: 0))
            $0.banner = Banner(.success, "Signed out.")
        }
        store.send(.signInFinished(.success(SignedIn(AuthDataResult(user: Fixtures.passwordUser(), additionalUserInfo: AdditionalUserInfo(providerID: "password", isNewUser: false)), cart: .success([]))))) {
            $0.user = Fixtures.passwordUser()
            $0.screen = .account(AccountFeature())
            $0.banner = Banner(.success, "Signed in.")
        }
    }

    @Test func appleAsksToHideTheEmailOnlyTheFirstTime() {
        var known = F.ada
        known.authorized = true
        known.emailHidden = true
        let directory = SimulatedIdentityProviders.Directory(providerID: "apple.com", clientID: "c", issuer: "i", identities: [known])
        var model = ConsoleModel(backendName: "embedded")
        model.screen = .consent(F.consent(F.appleProvider, .signIn, directory))
        #expect(!model.bindings.map(\.help).contains("hide email"))
        var store = FlowStore(model)
        store.send(.key(.character("h")))
        store.send(.key(.enter), effects: [.consent(.authorize(F.appleProvider, subject: known.subject, hideEmail: nil))]) {
            $0.busy = "Waiting for the simulated Apple…"
        }
        // On the "add a new identity" row the choice is open: it is for the identity about to be added.
        model.screen = .consent(F.consent(F.appleProvider, .signIn, directory, selection: 1))
        store = FlowStore(model)
        store.send(.key(.character("h"))) {
            var consent = F.consent(F.appleProvider, .signIn, directory, selection: 1)
            consent.hideEmail = true
            $0.screen = .consent(consent)
        }
    }

    @Test func microsoftFormParametersAndLoginHint() {
        var model = ConsoleModel(backendName: "embedded")
        model.screen = .providerForm(ProviderFormFeature(provider: .microsoft, purpose: .signIn))
        var store = FlowStore(model)
        var form = ProviderFormFeature(provider: .microsoft, purpose: .signIn)
        store.send(.key(.control("u"))) {
            form.tenant.text = ""
            $0.screen = .providerForm(form)
        }
        store.type("contoso.com") {
            form.tenant = TextField(text: "contoso.com", maxLength: 100)
            $0.screen = .providerForm(form)
        }
        store.send(.key(.tab)) {
            form.focus = .prompt
            $0.screen = .providerForm(form)
        }
        store.type("consent") {
            form.prompt = TextField(text: "consent", maxLength: 20)
            $0.screen = .providerForm(form)
        }
        store.send(.key(.tab)) {
            form.prompt = TextField(text: "consent", maxLength: 20)
            form.focus = .loginHint
            $0.screen = .providerForm(form)
        }
        store.type("carol@contoso.com") {
            form.loginHint = TextField(text: "carol@contoso.com", maxLength: 254)
            $0.screen = .providerForm(form)
        }
        store.send(.key(.tab)) {
            form.loginHint = TextField(text: "carol@contoso.com", maxLength: 254)
            form.focus = .scopes
            $0.screen = .providerForm(form)
        }
        store.type(" mail.read calendars.read") {
            form.scopes = TextField(text: "openid email profile mail.read calendars.read", maxLength: 300)
            $0.screen = .providerForm(form)
        }
        store.send(.key(.tab)) {
            form.scopes = TextField(text: "openid email profile mail.read calendars.read", maxLength: 300)
            form.focus = .parameters
            $0.screen = .providerForm(form)
        }
        // A reserved parameter is refused on the spot; nothing is sent.
        store.type("domain_hint=contoso.com redirect_uri=https://evil.example") {
            form.parameters = TextField(text: "domain_hint=contoso.com redirect_uri=https://evil.example", maxLength: 300)
            $0.screen = .providerForm(form)
        }
        store.send(.key(.enter)) {
            $0.screen = .providerForm(form)
            $0.banner = Banner(.error, OAuthProviderError.reservedParameter("redirect_uri").description)
        }
        store.send(.key(.control("u"))) {
            form.parameters = TextField(maxLength: 300)
            $0.screen = .providerForm(form)
        }
        store.type("domain_hint") {
            form.parameters = TextField(text: "domain_hint", maxLength: 300)
            $0.screen = .providerForm(form)
        }
        store.send(.key(.enter)) {
            $0.screen = .providerForm(form)
            $0.banner = Banner(.error, "Write custom parameters as key=value, separated by spaces ('domain_hint' is not).")
        }
        store.type("=contoso.com") {
            form.parameters = TextField(text: "domain_hint=contoso.com", maxLength: 300)
            $0.screen = .providerForm(form)
        }
        let provider = OAuthProvider(providerID: "microsoft.com", scopes: ["openid", "email", "profile", "mail.read", "calendars.read"],
                                     customParameters: ["tenant": "contoso.com", "prompt": "consent", "login_hint": "carol@contoso.com",
                                                        "domain_hint": "contoso.com"])
        store.send(.key(.enter), effects: [.consent(.loadProviderDirectory(providerID: "microsoft.com"))]) {
            $0.busy = "Asking the simulated Microsoft for its accounts…"
            $0.banner = nil
            $0.screen = .consent(ConsentFeature(provider: provider, purpose: .signIn))
        }
        // login_hint picks Carol, as Microsoft's account chooser does.
        store.send(.feature(ConsentFeature.Event.providerDirectoryLoaded(providerID: "microsoft.com", .success(F.microsoftDirectory)))) {
            $0.busy = nil
            $0.screen = .consent(F.consent(provider, .signIn, F.microsoftDirectory, selection: 1))
        }
        #expect(!store.model.bindings.map(\.help).contains("hide email"))
        // esc goes back to the form as it was sent.
        store.send(.key(.escape)) {
            var back = ProviderFormFeature(provider: .microsoft, purpose: .signIn)
            back.restore(from: provider)
            $0.screen = .providerForm(back)
            $0.banner = Banner(.info, "Cancelled at the provider: nothing was sent to the backend.")
        }
        guard case let .providerForm(restored) = store.model.screen else { Issue.record("not on the form"); return }
        #expect(restored.tenant.text == "contoso.com")
        #expect(restored.parameters.text == "domain_hint=contoso.com")
        // Restored fields take edits at their end: ctrl-u then typing replaces the old text, and
        // backspace deletes from it.
        for field in [restored.tenant, restored.prompt, restored.loginHint, restored.scopes, restored.parameters] {
            #expect(field.cursor == field.text.count)
        }
        var edited = restored
        edited.tenant = TextField(maxLength: 100)
        store.send(.key(.control("u"))) { $0.screen = .providerForm(edited) }
        edited.tenant = TextField(text: "fabrikam.com", maxLength: 100)
        store.type("fabrikam.com") { $0.screen = .providerForm(edited) }
        store.send(.key(.escape)) {
            $0.banner = nil
            $0.screen = .signInMethods(SignInMethodsFeature(selection: 4))
        }
    }

    @Test func addingASimulatedIdentity() {
        var model = ConsoleModel(backendName: "embedded")
        model.screen = .consent(F.consent(F.appleProvider, .signIn, F.appleDirectory))
        var store = FlowStore(model)
        var consent = F.consent(F.appleProvider, .signIn, F.appleDirectory)
        store.send(.key(.character("n"))) {
            consent.newIdentity = NewIdentityForm()
            $0.screen = .consent(consent)
        }
        #expect(store.model.screen.editsText)
        store.send(.key(.enter)) { $0.banner = Banner(.error, "Give the new identity a name.") }
        store.type("Grace Hopper?") {
            consent.newIdentity?.name = TextField(text: "Grace Hopper?", maxLength: 100)
            $0.screen = .consent(consent)
        }
        store.send(.key(.enter)) {
            consent.newIdentity?.name = TextField(text: "Grace Hopper?", maxLength: 100)
            consent.newIdentity?.focusOnEmail = true
            $0.screen = .consent(consent)
        }
        store.send(.key(.enter)) { $0.banner = Banner(.error, "Give the new identity an email address.") }
        store.type("grace@example.com") {
            consent.newIdentity?.email = TextField(text: "grace@example.com", maxLength: 254)
            $0.screen = .consent(consent)
        }
        store.send(.key(.enter), effects: [.consent(.addSimulatedIdentity(providerID: "apple.com", name: "Grace Hopper?", email: "grace@example.com"))]) {
            $0.banner = nil
            $0.busy = "Adding the identity…"
            $0.screen = .consent(consent)
        }
        store.send(.feature(ConsentFeature.Event.simulatedIdentityAdded(providerID: "apple.com", .failure(.server("INVALID_ARGUMENT : apple.com already has an identity with the email grace@example.com."))))) {
            $0.busy = nil
            $0.banner = .error(.server("INVALID_ARGUMENT : apple.com already has an identity with the email grace@example.com."))
        }
        let grace = SimulatedIdentityProviders.Identity(subject: "000999.ffff.0001", displayName: "Grace Hopper?", email: "grace@example.com")
        store.send(.feature(ConsentFeature.Event.simulatedIdentityAdded(providerID: "apple.com", .success(grace)))) {
            var list = F.appleDirectory
            list.identities.append(grace)
            $0.screen = .consent(F.consent(F.appleProvider, .signIn, list, selection: 1))
            $0.banner = Banner(.success, "Added Grace Hopper? to the simulated Apple.")
        }
        // The last row adds another; esc closes the form without adding.
        store.send(.key(.down)) {
            var list = F.appleDirectory
            list.identities.append(grace)
            $0.screen = .consent(F.consent(F.appleProvider, .signIn, list, selection: 2))
        }
        store.send(.key(.enter)) {
            var list = F.appleDirectory
            list.identities.append(grace)
            var state = F.consent(F.appleProvider, .signIn, list, selection: 2)
            state.newIdentity = NewIdentityForm()
            $0.screen = .consent(state)
            $0.banner = nil
        }
        store.send(.key(.escape)) {
            var list = F.appleDirectory
            list.identities.append(grace)
            $0.screen = .consent(F.consent(F.appleProvider, .signIn, list, selection: 2))
        }
    }

    @Test func aBackendWithoutSimulatedProvidersSaysSo() {
        var model = ConsoleModel(backendName: "emulator")
        model.screen = .consent(ConsentFeature(provider: F.appleProvider, purpose: .signIn))
        var store = FlowStore(model)
        store.send(.feature(ConsentFeature.Event.providerDirectoryLoaded(providerID: "apple.com", .failure(.server("NOT_FOUND : no endpoint at /emulator/auth/v1/simulatedIdp:list"))))) {
            var consent = ConsentFeature(provider: F.appleProvider, purpose: .signIn)
            consent.directory = .unavailable("This backend has no simulated providers. They come with the embedded backend and `authdeck serve`; "
                + "the Firebase Auth Emulator's provider widget works only in a browser, and production needs the real provider in an app.")
            $0.screen = .consent(consent)
        }
        #expect(store.model.bindings.map(\.intent) == [.feature(FeatureAction(ConsentFeature.Action.back)), .console(.teaching), .console(.help), .console(.inspector)])
        store.send(.key(.enter))
        // A late answer for another provider changes nothing.
        store.send(.feature(ConsentFeature.Event.providerDirectoryLoaded(providerID: "google.com", .success(F.appleDirectory))))
    }

    /// A key pressed while the simulated provider's accounts load waits for them: the consent screen
    /// takes none before (under load, n for a new identity was lost).
    @Test func aKeyPressedWhileTheAccountsLoadWaitsForThem() {
        var model = ConsoleModel(backendName: "embedded")
        model.screen = .providerForm(Self.form(.apple, .signIn, focus: .parameters))
        var store = FlowStore(model)
        store.send(.key(.enter), effects: [.consent(.loadProviderDirectory(providerID: "apple.com"))]) {
            $0.busy = "Asking the simulated Apple for its accounts…"
            $0.screen = .consent(ConsentFeature(provider: F.appleProvider, purpose: .signIn))
        }
        store.send(.key(.character("n"))) { $0.typedAhead = [.character("n")] }
        store.send(.feature(ConsentFeature.Event.providerDirectoryLoaded(providerID: "apple.com", .success(F.appleDirectory)))) {
            $0.busy = nil
            $0.typedAhead = []
            var consent = F.consent(F.appleProvider, .signIn, F.appleDirectory)
            consent.newIdentity = NewIdentityForm()
            $0.screen = .consent(consent)
        }
    }

    /// An unknown login_hint leads to a new identity with that email, as Microsoft's sign-in page fills it in.
    @Test func anUnknownLoginHintPrefillsANewIdentity() {
        let provider = OAuthProvider(providerID: "microsoft.com", scopes: ["openid"], customParameters: ["login_hint": "Dana@Fabrikam.com"])
        var model = ConsoleModel(backendName: "embedded")
        model.screen = .consent(ConsentFeature(provider: provider, purpose: .signIn))
        var store = FlowStore(model)
        store.send(.feature(ConsentFeature.Event.providerDirectoryLoaded(providerID: "microsoft.com", .success(F.microsoftDirectory)))) {
            $0.screen = .consent(F.consent(provider, .signIn, F.microsoftDirectory, selection: 2))
        }
        store.send(.key(.enter)) {
            var consent = F.consent(provider, .signIn, F.microsoftDirectory, selection: 2)
            var form = NewIdentityForm()
            form.email = TextField(text: "dana@fabrikam.com", maxLength: 254)
            consent.newIdentity = form
            $0.screen = .consent(consent)
        }
    }

    @Test func aRefusedConsentStaysOnTheScreen() {
        var model = ConsoleModel(backendName: "embedded")
        model.screen = .consent(F.consent(F.appleProvider, .signIn, F.appleDirectory))
        model.busy = "Waiting for the simulated Apple…"
        var store = FlowStore(model)
        let refusal = AuthError.server("INVALID_IDP_RESPONSE : AADSTS50020: User account 'bill@outlook.com' from identity provider does not exist in tenant 'contoso.com' and cannot access the application.")
        // The provider's own words, whole, with Firebase's code (never "internalError · unexpected error").
        store.send(.feature(ConsentFeature.Event.providerAuthorized(.failure(refusal)))) {
            $0.busy = nil
            $0.banner = Banner(.error, "The identity provider refused: AADSTS50020: User account 'bill@outlook.com' from identity provider does not exist in tenant 'contoso.com' and cannot access the application.",
                               detail: "invalidCredential (17004) · INVALID_IDP_RESPONSE")
        }
        model.busy = "Signing in with Apple…"
        store = FlowStore(model)
        store.send(.signInFinished(.failure(.server("MISSING_OR_INVALID_NONCE : Duplicate credential received. Please try again with a new credential.")))) {
            $0.busy = nil
            $0.banner = .error(.server("MISSING_OR_INVALID_NONCE : Duplicate credential received. Please try again with a new credential."))
        }
    }

    /// The dialog draws over the sign-in methods it was opened from, and cancelling returns there.
    @Test func unlinkingFromTheSignInMethodsAsksOverThemAndCancellingReturnsThere() {
        let two = Fixtures.passwordUser(extraProviders: [UserInfo(providerID: "google.com", uid: "1234", email: "ada@gmail.com")])
        var model = Fixtures.signedIn(two)
        model.screen = .linking(LinkingFeature(selection: 1))
        var store = FlowStore(model)
        let dialog = ConfirmationFeature(subject: .unlink(providerID: "google.com"), over: .linking(LinkingFeature(selection: 1)))
        store.send(.key(.character("u"))) { $0.screen = .confirm(dialog) }
        let canvas = TextCanvas(size: Size(width: 80, height: 24))
        ConsoleView.draw(store.model, on: canvas)
        #expect(canvas.text.contains("Sign-in methods of this account"))
        #expect(canvas.text.contains("Unlink google.com"))
        #expect(!canvas.text.contains("Linked providers"))
        store.send(.key(.escape)) { $0.screen = .linking(LinkingFeature(selection: 1)) }
    }

    @Test func theLinkingScreenListsLinkedAndNotLinkedMethods() {
        let user = F.appleUser()
        var store = FlowStore(Fixtures.signedIn(user))
        store.send(.key(.character("l"))) { $0.screen = .linking(LinkingFeature(selection: 1)) }
        #expect(LinkingFeature.rows(user) == ["apple.com", "password", "microsoft.com", "google.com", "facebook.com", "emailLink"])
        store.send(.key(.up)) { $0.screen = .linking(LinkingFeature(selection: 0)) }
        #expect(store.model.bindings.map(\.help).contains("unlink"))
        #expect(!store.model.bindings.map(\.help).contains("link"))
        store.send(.key(.character("u"))) {
            $0.banner = Banner(.error, "apple.com is this account's only way to sign in; link another method before unlinking it.")
        }
        store.send(.key(.enter))
        for selection in 1...5 {
            store.send(.key(.down)) { $0.screen = .linking(LinkingFeature(selection: selection)) }
        }
        store.send(.key(.down))
        store.send(.key(.up)) { $0.screen = .linking(LinkingFeature(selection: 4)) }
        store.send(.key(.up)) { $0.screen = .linking(LinkingFeature(selection: 3)) }
        store.send(.key(.enter)) {
            $0.banner = nil
            $0.screen = .providerForm(ProviderFormFeature(provider: .google, purpose: .link))
        }
        store.send(.key(.escape)) { $0.screen = .linking(LinkingFeature(selection: 3)) }
        store.send(.key(.escape)) { $0.screen = .account(AccountFeature()) }

        let two = Fixtures.passwordUser(extraProviders: [UserInfo(providerID: "google.com", uid: "1234", email: "ada@gmail.com")])
        store = FlowStore(Fixtures.signedIn(two))
        store.send(.key(.character("l"))) { $0.screen = .linking(LinkingFeature(selection: 2)) }
        store.send(.key(.up)) { $0.screen = .linking(LinkingFeature(selection: 1)) }
        store.send(.key(.character("u"))) {
            $0.screen = .confirm(ConfirmationFeature(subject: .unlink(providerID: "google.com"), over: .linking(LinkingFeature(selection: 1))))
        }
    }

    @Test func linkingAnIdentityOfAnotherAnonymousBornAccountMergesAndDeletes() {
        var model = Fixtures.signedIn(Fixtures.anonymous)
        model.cart = [CartItem(uid: Fixtures.anonymous.uid, name: "apple", quantity: 2)]
        let microsoft = OAuthProvider(providerID: "microsoft.com", scopes: ["openid", "email", "profile"], customParameters: ["tenant": "common"])
        model.screen = .consent(F.consent(microsoft, .link, F.microsoftDirectory, selection: 1))
        var store = FlowStore(model)
        store.send(.key(.enter), effects: [.consent(.authorize(microsoft, subject: F.carol.subject, hideEmail: nil))]) {
            $0.busy = "Waiting for the simulated Microsoft…"
        }
        let authorization = ProviderAuthorization(credential: F.microsoftCredential, rawNonce: "n", hashedNonce: "h", idTokenClaims: nil, grantedScopes: [])
        store.send(.feature(ConsentFeature.Event.providerAuthorized(.success(authorization))), effects: [.link(F.microsoftCredential)]) {
            $0.lastAuthorization = authorization
            $0.busy = "Linking Microsoft…"
        }
        let previous = AccountSnapshot(uid: Fixtures.anonymous.uid, isAnonymous: true, email: nil, providerIDs: [],
                                       cart: [CartItem(uid: Fixtures.anonymous.uid, name: "apple", quantity: 2)])
        let conflict = AuthError(.credentialAlreadyInUse, serverMessage: "FEDERATED_USER_ID_ALREADY_LINKED", updatedCredential: F.updatedMicrosoft,
                                 email: "carol@contoso.com")
        var state = ConflictFeature(credential: F.updatedMicrosoft, email: "carol@contoso.com", previous: previous)
        store.send(.linkFinished(.failure(conflict)), effects: [.conflict(.inspectConflictAccount(F.updatedMicrosoft))]) {
            $0.busy = nil
            $0.screen = .conflict(state)
        }
        #expect(state.options == [.cancel])
        store.send(.key(.right))
        let other = AccountSnapshot(uid: "bobUID0000000000000000000001", isAnonymous: false, email: "bob@example.com",
                                    providerIDs: ["microsoft.com", "password"], cart: [CartItem(uid: "bobUID0000000000000000000001", name: "book", quantity: 1)])
        store.send(.feature(ConflictFeature.Event.conflictAccountLoaded(.success(other)))) {
            state.other = .loaded(other)
            $0.screen = .conflict(state)
        }
        #expect(state.options == [.cancel, .mergeAndDelete])
        store.send(.key(.right)) {
            state.choice = 1
            $0.screen = .conflict(state)
        }
        store.send(.key(.right))
        let plan = MergePlan(credential: F.updatedMicrosoft, previousUid: Fixtures.anonymous.uid, deletePrevious: true)
        store.send(.key(.enter), effects: [.conflict(.mergeAccounts(plan))]) { $0.busy = "Merging into the account that has Microsoft…" }
        let bob = Fixtures.passwordUser(uid: other.uid, email: "bob@example.com",
                                        extraProviders: [UserInfo(providerID: "microsoft.com", uid: F.carol.subject, email: "carol@contoso.com")])
        // The session moves to the other account while the merge runs; the console stays on the previous
        // one until it is done, and the merge's end alone adopts the other account, with the merged cart.
        store.send(.authStateChanged(bob, nil))
        let data = AuthDataResult(user: bob, additionalUserInfo: AdditionalUserInfo(providerID: "microsoft.com", isNewUser: false))
        let merged = [CartItem(uid: bob.uid, name: "apple", quantity: 1)]
        store.send(.feature(ConflictFeature.Event.mergeFinished(.success(MergeOutcome(result: SignedIn(data, cart: .success(merged))))))) {
            $0.user = bob
            $0.cart = merged
            $0.busy = nil
            $0.screen = .account(AccountFeature())
            $0.banner = Banner(.success, "Signed in to the account that has Microsoft; the cart of \(Fixtures.anonymous.uid) was merged into it. \(Fixtures.anonymous.uid) was deleted.")
        }
    }

    @Test func aNonAnonymousPreviousAccountIsKeptUnlessTheOperatorDeletesIt() {
        let previousUser = F.appleUser()
        var model = Fixtures.signedIn(previousUser)
        let previous = AccountSnapshot(user: previousUser, cart: [])
        let other = AccountSnapshot(uid: "bobUID0000000000000000000001", isAnonymous: false, email: "bob@example.com", providerIDs: ["microsoft.com"], cart: [])
        var state = ConflictFeature(credential: F.updatedMicrosoft, email: nil, previous: previous)
        state.other = .loaded(other)
        model.screen = .conflict(state)
        #expect(state.options == [.cancel, .mergeAndKeep, .mergeAndDelete])
        var store = FlowStore(model)
        store.send(.key(.tab)) {
            state.choice = 1
            $0.screen = .conflict(state)
        }
        store.send(.key(.enter), effects: [.conflict(.mergeAccounts(MergePlan(credential: F.updatedMicrosoft, previousUid: previousUser.uid, deletePrevious: false)))]) {
            $0.busy = "Merging into the account that has Microsoft…"
        }
        let bob = Fixtures.passwordUser(uid: other.uid, email: "bob@example.com")
        let data = AuthDataResult(user: bob, additionalUserInfo: nil)
        store.send(.feature(ConflictFeature.Event.mergeFinished(.success(MergeOutcome(result: SignedIn(data, cart: .success([]))))))) {
            $0.busy = nil
            $0.user = bob
            $0.screen = .account(AccountFeature())
            $0.banner = Banner(.success, "Signed in to the account that has Microsoft; the cart of \(previousUser.uid) was merged into it. \(previousUser.uid) was kept.")
        }

        // Deleting it can need a recent sign-in to it: the operator confirms it with its own provider, then it is deleted.
        state.choice = 2
        model.screen = .conflict(state)
        store = FlowStore(model)
        store.send(.key(.enter), effects: [.conflict(.mergeAccounts(MergePlan(credential: F.updatedMicrosoft, previousUid: previousUser.uid, deletePrevious: true)))]) {
            $0.busy = "Merging into the account that has Microsoft…"
        }
        let tooOld = AuthError.server("CREDENTIAL_TOO_OLD_LOGIN_AGAIN")
        let operation = SensitiveOperation.deletePreviousAccount(previous)
        store.send(.feature(ConflictFeature.Event.mergeFinished(.success(MergeOutcome(result: SignedIn(data, cart: .success([])), deletionFailure: tooOld))))) {
            $0.busy = nil
            $0.user = bob
            $0.screen = .providerForm(ProviderFormFeature(provider: .apple, purpose: .reauthenticate(operation)))
            $0.banner = Banner(.info, "Signed in to the account that has Microsoft; the cart of x1@privaterelay.appleid.com was merged into it. Its own sign-in is too old to delete it. Sign in with Apple again to delete x1@privaterelay.appleid.com, the account you switched from; it then runs by itself.")
        }
        store.send(.reauthenticationFinished(operation, .success(AuthDataResult(user: previousUser, additionalUserInfo: nil))), effects: [.perform(operation)]) {
            $0.busy = "Retrying: delete x1@privaterelay.appleid.com, the account you switched from…"
        }
        store.send(.sensitiveOperationFinished(operation, .success(bob))) {
            $0.busy = nil
            $0.screen = .account(AccountFeature())
            $0.banner = Banner(.success, "Deleted x1@privaterelay.appleid.com (\(previousUser.uid)), the account you switched from. You are signed in to bob@example.com.")
        }
    }

    @Test func aPreviousPasswordAccountIsConfirmedWithItsPasswordThenDeleted() {
        let previousUser = Fixtures.passwordUser(email: "y@example.com")
        let previous = AccountSnapshot(user: previousUser, cart: [])
        var state = ConflictFeature(credential: F.updatedMicrosoft, email: nil, previous: previous)
        state.other = .loaded(AccountSnapshot(uid: "bobUID0000000000000000000001", isAnonymous: false, email: "bob@example.com", providerIDs: ["microsoft.com"], cart: []))
        state.choice = 2
        let bob = Fixtures.passwordUser(uid: "bobUID0000000000000000000001", email: "bob@example.com")
        let tooOld = AuthError.server("CREDENTIAL_TOO_OLD_LOGIN_AGAIN")
        let operation = SensitiveOperation.deletePreviousAccount(previous)
        var model = Fixtures.signedIn(previousUser)
        model.screen = .conflict(state)
        var store = FlowStore(model)
        store.send(.feature(ConflictFeature.Event.mergeFinished(.success(MergeOutcome(result: SignedIn(AuthDataResult(user: bob, additionalUserInfo: nil), cart: .success([])), deletionFailure: tooOld))))) {
            $0.user = bob
            $0.screen = .credentialForm(CredentialFormFeature(purpose: .reauthenticate(operation), email: "y@example.com"))
            $0.banner = Banner(.info, "Signed in to the account that has Microsoft; the cart of y@example.com was merged into it. Its own sign-in is too old to delete it. Enter its password to delete y@example.com, the account you switched from; it then runs by itself.")
        }
        // Another account's password is refused by the backend (userMismatch) and the form stays.
        let mismatch = AuthError(.userMismatch)
        store.send(.reauthenticationFinished(operation, .failure(mismatch))) {
            $0.banner = .error(mismatch)
        }
        // esc keeps it, and says so.
        store.send(.key(.escape)) {
            $0.screen = .account(AccountFeature())
            $0.banner = Banner(.info, "Cancelled: did not delete y@example.com, the account you switched from.")
        }

        // With 2-step verification on it, its second factor cannot be given on the console's session: kept, and said.
        model.user = bob
        model.screen = .credentialForm(CredentialFormFeature(purpose: .reauthenticate(operation), email: "y@example.com"))
        store = FlowStore(model)
        var challenge = AuthError(.secondFactorRequired)
        challenge.multiFactorChallenge = MfaFixtures.challenge()
        store.send(.reauthenticationFinished(operation, .failure(challenge))) {
            $0.screen = .account(AccountFeature())
            $0.banner = Banner(.info, "y@example.com has 2-step verification, which this step cannot ask for: it was kept. Sign in to it and delete it from its account screen.")
        }
    }

    @Test func theConflictCanBeCancelledOrFailToLoad() {
        let previousUser = F.appleUser()
        var model = Fixtures.signedIn(previousUser)
        var state = ConflictFeature(credential: F.updatedMicrosoft, email: nil, previous: AccountSnapshot(user: previousUser, cart: []))
        model.screen = .conflict(state)
        var store = FlowStore(model)
        let failure = AuthError.server("USER_DISABLED")
        store.send(.feature(ConflictFeature.Event.conflictAccountLoaded(.failure(failure)))) {
            state.other = .failed(failure)
            $0.screen = .conflict(state)
        }
        #expect(state.options == [.cancel])
        store.send(.key(.enter)) {
            $0.screen = .account(AccountFeature())
            $0.banner = Banner(.info, "Cancelled: Microsoft stays with the other account; this one is unchanged.")
        }
        store = FlowStore(model)
        store.send(.key(.escape)) {
            $0.screen = .account(AccountFeature())
            $0.banner = Banner(.info, "Cancelled: Microsoft stays with the other account; this one is unchanged.")
        }
        // A failed merge leaves the operator wherever the session is.
        model.busy = "Merging into the account that has Microsoft…"
        model.user = nil
        store = FlowStore(model)
        store.send(.feature(ConflictFeature.Event.mergeFinished(.failure(.server("INVALID_PENDING_TOKEN : The pending token is unknown or has expired."))))) {
            $0.busy = nil
            $0.screen = .signInMethods(SignInMethodsFeature(selection: 0))
            $0.banner = .error(.server("INVALID_PENDING_TOKEN : The pending token is unknown or has expired."))
        }
    }

    @Test func aProviderWhoseEmailIsTakenIsLinkedAfterSigningInThere() {
        var model = Fixtures.signedIn(Fixtures.anonymous)
        model.screen = .consent(F.consent(OAuthProvider(providerID: "google.com"), .link, nil))
        model.busy = "Linking Google…"
        var store = FlowStore(model)
        let taken = AuthError(.emailAlreadyInUse, serverMessage: "EMAIL_EXISTS", updatedCredential: F.updatedGoogle, email: "alan@gmail.com")
        let pending = PendingLink(credential: F.updatedGoogle, email: "alan@gmail.com", reason: .emailInUse, previousAnonymousUid: Fixtures.anonymous.uid)
        store.send(.linkFinished(.failure(taken)), effects: [.pendingLink(.fetchSignInMethods(email: "alan@gmail.com"))]) {
            $0.busy = nil
            $0.screen = .pendingLink(PendingLinkFeature(pending: pending))
        }
        #expect(PendingLinkFeature(pending: pending).methods == ["password", "apple.com", "microsoft.com", "facebook.com"])
        store.send(.key(.enter)) {
            $0.screen = .credentialForm(CredentialFormFeature(purpose: .signInToLink(pending), email: "alan@gmail.com"))
        }
        store.send(.key(.escape)) { $0.screen = .pendingLink(PendingLinkFeature(pending: pending)) }
        store.send(.key(.enter)) {
            $0.screen = .credentialForm(CredentialFormFeature(purpose: .signInToLink(pending), email: "alan@gmail.com"))
        }
        store.type("hunter22") { $0.screen = .credentialForm(Fixtures.form(.signInToLink(pending), email: "alan@gmail.com", password: "hunter22")) }
        store.send(.key(.enter), effects: [.signIn(.password(email: "alan@gmail.com", password: "hunter22"))]) {
            $0.busy = "Signing in…"
            $0.screen = .credentialForm(Fixtures.form(.signInToLink(pending), email: "alan@gmail.com", password: "hunter22"))
        }
        let alan = Fixtures.passwordUser(uid: "alanUID000000000000000000001", email: "alan@gmail.com")
        store.send(.signInFinished(.success(SignedIn(AuthDataResult(user: alan, additionalUserInfo: nil), cart: .success([])))),
                   effects: [.mergeCart(from: Fixtures.anonymous.uid, into: alan.uid), .link(F.updatedGoogle)]) {
            $0.busy = "Linking Google…"
            $0.user = alan
            $0.screen = .account(AccountFeature())
            $0.banner = Banner(.success, "Signed in.")
            $0.linkAfterSignIn = pending
        }
        let linked = Fixtures.passwordUser(uid: alan.uid, email: "alan@gmail.com", extraProviders: [UserInfo(providerID: "google.com", uid: "1", email: "alan@gmail.com")])
        let guest = Fixtures.anonymous.uid
        let linkedData = AuthDataResult(user: linked, additionalUserInfo: AdditionalUserInfo(providerID: "google.com", isNewUser: false))
        // The uid changed, so the banner does not say it is unchanged; as the conflict's merge does, the
        // guest account left behind is deleted.
        store.send(.linkFinished(.success(linkedData)), effects: [.deleteLeftGuest(uid: guest)]) {
            $0.busy = "Deleting the guest account \(guest)…"
            $0.user = linked
            $0.banner = Banner(.success, "Signed in to alan@gmail.com and linked Google to it. The cart of \(guest) was merged into it.")
            $0.linkAfterSignIn = nil
        }
        let afterLink = store.model
        store.send(.leftGuestDeleted(uid: guest, nil)) {
            $0.busy = nil
            $0.banner = Banner(.success, "Signed in to alan@gmail.com and linked Google to it. The cart of \(guest) was merged into it. \(guest) was deleted.")
        }
        // A guest account that cannot be deleted is said to stay, with the words of the conflict's merge.
        store = FlowStore(afterLink)
        let tooOld = AuthError.server("CREDENTIAL_TOO_OLD_LOGIN_AGAIN")
        store.send(.leftGuestDeleted(uid: guest, tooOld)) {
            $0.busy = nil
            $0.banner = Banner(.info, "Signed in to alan@gmail.com and linked Google to it. The cart of \(guest) was merged into it. \(guest) could not be deleted (\(tooOld.message)); anonymous clean-up removes it after 30 days.")
        }
    }

    @Test func anUnverifiedEmailAsksToSignInTheKnownWayFirst() {
        var model = ConsoleModel(backendName: "embedded")
        model.screen = .consent(F.consent(OAuthProvider(providerID: "facebook.com"), .signIn, nil))
        model.busy = "Signing in with Facebook…"
        var store = FlowStore(model)
        let exists = AuthError(.accountExistsWithDifferentCredential, serverMessage: "needConfirmation", updatedCredential: F.updatedFacebook, email: "mark@example.com")
        let pending = PendingLink(credential: F.updatedFacebook, email: "mark@example.com", reason: .accountExists)
        store.send(.signInFinished(.failure(exists)), effects: [.pendingLink(.fetchSignInMethods(email: "mark@example.com"))]) {
            $0.busy = nil
            $0.screen = .pendingLink(PendingLinkFeature(pending: pending))
        }
        // With email-enumeration protection the backend does not tell: the list stays as it was.
        store.send(.feature(PendingLinkFeature.Event.signInMethodsFetched(email: "mark@example.com", .success([])))) {
            $0.screen = .pendingLink(PendingLinkFeature(pending: pending, knownMethods: []))
        }
        // Without it, the methods it names come first (an answer for another email is not this screen's).
        store.send(.feature(PendingLinkFeature.Event.signInMethodsFetched(email: "other@example.com", .success(["google.com"]))))
        store.send(.feature(PendingLinkFeature.Event.signInMethodsFetched(email: "mark@example.com", .success(["google.com"])))) {
            $0.screen = .pendingLink(PendingLinkFeature(pending: pending, knownMethods: ["google.com"]))
        }
        #expect(PendingLinkFeature(pending: pending, knownMethods: ["google.com"]).methods.first == "google.com")
        store.model.screen = .pendingLink(PendingLinkFeature(pending: pending))
        store.send(.key(.down)) {
            var state = PendingLinkFeature(pending: pending)
            state.selection = 1
            $0.screen = .pendingLink(state)
        }
        store.send(.key(.enter)) { $0.screen = .providerForm(ProviderFormFeature(provider: .apple, purpose: .signInToLink(pending))) }
        store.send(.key(.escape)) {
            var state = PendingLinkFeature(pending: pending)
            state.selection = 1
            $0.screen = .pendingLink(state)
        }
        store.send(.key(.enter)) { $0.screen = .providerForm(ProviderFormFeature(provider: .apple, purpose: .signInToLink(pending))) }
        store.send(.key(.enter)) { $0.screen = .providerForm(Self.form(.apple, .signInToLink(pending), focus: .parameters)) }
        store.send(.key(.enter), effects: [.consent(.loadProviderDirectory(providerID: "apple.com"))]) {
            $0.busy = "Asking the simulated Apple for its accounts…"
            $0.screen = .consent(ConsentFeature(provider: F.appleProvider, purpose: .signInToLink(pending)))
        }
        store.send(.feature(ConsentFeature.Event.providerDirectoryLoaded(providerID: "apple.com", .success(F.appleDirectory)))) {
            $0.busy = nil
            $0.screen = .consent(F.consent(F.appleProvider, .signInToLink(pending), F.appleDirectory))
        }
        store.send(.key(.enter), effects: [.consent(.authorize(F.appleProvider, subject: F.ada.subject, hideEmail: false))]) {
            $0.busy = "Waiting for the simulated Apple…"
        }
        store.send(.feature(ConsentFeature.Event.providerAuthorized(.success(F.appleAuthorization))), effects: [.signIn(F.appleCredential)]) {
            $0.lastAuthorization = F.appleAuthorization
            $0.busy = "Signing in with Apple…"
        }
        let user = F.appleUser()
        store.send(.signInFinished(.success(SignedIn(AuthDataResult(user: user, additionalUserInfo: nil), cart: .success([])))), effects: [.link(F.updatedFacebook)]) {
            $0.busy = "Linking Facebook…"
            $0.user = user
            $0.screen = .account(AccountFeature())
            $0.banner = Banner(.success, "Signed in.")
            $0.linkAfterSignIn = pending
        }
        // Cancelling the pending link tells what did not happen.
        model.busy = nil
        model.screen = .pendingLink(PendingLinkFeature(pending: pending))
        store = FlowStore(model)
        store.send(.key(.escape)) {
            $0.screen = .signInMethods(SignInMethodsFeature(selection: 0))
            $0.banner = Banner(.info, "Cancelled: Facebook was not linked to any account.")
        }
    }

    @Test func aStaleSignInIsConfirmedWithTheAccountsProviderThenTheOperationRuns() {
        var store = FlowStore(Fixtures.signedIn(F.appleUser()))
        store.send(.key(.character("D"))) { $0.screen = .confirm(ConfirmationFeature(subject: .deleteAccount, over: .account(AccountFeature()))) }
        store.send(.key(.character("y")), effects: [.perform(.deleteAccount)]) { $0.busy = "Deleting the account…" }
        store.send(.sensitiveOperationFinished(.deleteAccount, .failure(.server("CREDENTIAL_TOO_OLD_LOGIN_AGAIN")))) {
            $0.busy = nil
            $0.banner = Banner(.info, "Your last sign-in was too long ago. Sign in with Apple again to delete the account; it then runs by itself.")
            $0.screen = .providerForm(ProviderFormFeature(provider: .apple, purpose: .reauthenticate(.deleteAccount)))
        }
        store.send(.key(.enter)) { $0.screen = .providerForm(Self.form(.apple, .reauthenticate(.deleteAccount), focus: .parameters)) }
        store.send(.key(.enter), effects: [.consent(.loadProviderDirectory(providerID: "apple.com"))]) {
            $0.busy = "Asking the simulated Apple for its accounts…"
            $0.banner = nil
            $0.screen = .consent(ConsentFeature(provider: F.appleProvider, purpose: .reauthenticate(.deleteAccount)))
        }
        store.send(.feature(ConsentFeature.Event.providerDirectoryLoaded(providerID: "apple.com", .success(F.appleDirectory)))) {
            $0.busy = nil
            $0.screen = .consent(F.consent(F.appleProvider, .reauthenticate(.deleteAccount), F.appleDirectory))
        }
        store.send(.key(.enter), effects: [.consent(.authorize(F.appleProvider, subject: F.ada.subject, hideEmail: false))]) {
            $0.busy = "Waiting for the simulated Apple…"
        }
        store.send(.feature(ConsentFeature.Event.providerAuthorized(.success(F.appleAuthorization))), effects: [.reauthenticate(F.appleCredential, then: .deleteAccount)]) {
            $0.lastAuthorization = F.appleAuthorization
            $0.busy = "Confirming it's you with Apple…"
        }
        store.send(.reauthenticationFinished(.deleteAccount, .failure(.init(.userMismatch)))) {
            $0.busy = nil
            $0.banner = .error(.init(.userMismatch))
        }
        store.send(.key(.enter), effects: [.consent(.authorize(F.appleProvider, subject: F.ada.subject, hideEmail: false))]) {
            $0.banner = nil
            $0.busy = "Waiting for the simulated Apple…"
        }
        store.send(.feature(ConsentFeature.Event.providerAuthorized(.success(F.appleAuthorization))), effects: [.reauthenticate(F.appleCredential, then: .deleteAccount)]) {
            $0.busy = "Confirming it's you with Apple…"
        }
        store.send(.reauthenticationFinished(.deleteAccount, .success(AuthDataResult(user: F.appleUser(), additionalUserInfo: nil))),
                   effects: [.perform(.deleteAccount)]) {
            $0.busy = "Retrying: delete the account…"
        }
        // esc on the form cancels the operation.
        var model = Fixtures.signedIn(F.appleUser())
        model.screen = .providerForm(ProviderFormFeature(provider: .apple, purpose: .reauthenticate(.deleteAccount)))
        store = FlowStore(model)
        store.send(.key(.escape)) {
            $0.screen = .account(AccountFeature())
            $0.banner = Banner(.info, "Cancelled: did not delete the account.")
        }
    }

    @Test func anAccountWithSeveralMethodsChoosesHowToConfirm() {
        let user = Fixtures.passwordUser(extraProviders: [UserInfo(providerID: "google.com", uid: "1", email: "ada@gmail.com"),
                                                          UserInfo(providerID: "phone", uid: "+15555550100")])
        var model = Fixtures.signedIn(user)
        model.busy = "Changing the password…"
        var store = FlowStore(model)
        store.send(.sensitiveOperationFinished(.updatePassword("newpass1"), .failure(.server("CREDENTIAL_TOO_OLD_LOGIN_AGAIN")))) {
            $0.busy = nil
            $0.banner = Banner(.info, "Your last sign-in was too long ago. Choose how to confirm it's you; then change the password runs by itself.")
            $0.screen = .reauthMethods(ReauthMethodsFeature(.updatePassword("newpass1"), selection: 0))
        }
        // The linked phone is one of them.
        #expect(ReauthMethodsFeature.Account(.updatePassword("newpass1"), user: user).methods == ["password", "google.com", "phone"])
        store.send(.key(.down)) { $0.screen = .reauthMethods(ReauthMethodsFeature(.updatePassword("newpass1"), selection: 1)) }
        store.send(.key(.down)) { $0.screen = .reauthMethods(ReauthMethodsFeature(.updatePassword("newpass1"), selection: 2)) }
        store.send(.key(.down))
        store.send(.key(.up)) { $0.screen = .reauthMethods(ReauthMethodsFeature(.updatePassword("newpass1"), selection: 1)) }
        store.send(.key(.enter)) {
            $0.banner = nil
            $0.screen = .providerForm(ProviderFormFeature(provider: .google, purpose: .reauthenticate(.updatePassword("newpass1"))))
        }
        store.send(.key(.escape)) {
            $0.screen = .account(AccountFeature())
            $0.banner = Banner(.info, "Cancelled: did not change the password.")
        }
        model.busy = nil
        model.screen = .reauthMethods(ReauthMethodsFeature(.updatePassword("newpass1"), selection: 0))
        store = FlowStore(model)
        store.send(.key(.enter)) {
            $0.screen = .credentialForm(CredentialFormFeature(purpose: .reauthenticate(.updatePassword("newpass1")), email: "ada@example.com"))
        }
        store = FlowStore(model)
        store.send(.key(.escape)) {
            $0.screen = .account(AccountFeature())
            $0.banner = Banner(.info, "Cancelled: did not change the password.")
        }
    }

    @Test func theEndedSessionLeavesFederatedScreensThatNeedAUser() {
        var model = Fixtures.signedIn(F.appleUser())
        model.screen = .linking(LinkingFeature(selection: 1))
        var store = FlowStore(model)
        store.send(.authStateChanged(nil, nil)) {
            $0.user = nil
            $0.screen = .signInMethods(SignInMethodsFeature(selection: 0))
            $0.banner = Banner(.error, "The session ended: the account was deleted, disabled or its sessions revoked. Sign in again.")
        }
        model.screen = .consent(F.consent(F.appleProvider, .signIn, F.appleDirectory))
        model.user = nil
        store = FlowStore(model)
        store.send(.authStateChanged(nil, nil))
    }
}
