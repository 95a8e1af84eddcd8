import AppData
@testable import AuthDeckApp
import AuthClient
import Foundation
import Testing
import TerminalUI

/// The teaching pane follows the flows: each step a flow takes puts that step, with the values of
/// this run, in the pane, and the pane shows it on all four platforms.
@Suite("The teaching pane shows the step just taken, with the run's values, on all four platforms")
struct TeachingFlowTests {
    typealias F = FederatedFixtures

    /// The pane as the console draws it now shows `step`: its title, every platform's header, and
    /// each value of the run as that platform writes it.
    private func expectPane(_ model: ConsoleModel, shows step: TeachingStep, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(model.teaching?.step == step, sourceLocation: sourceLocation)
        guard let pane = model.teachingPane(scroll: 0) else { return }
        let text = pane.lines(width: 76).map(\.text).joined(separator: "\n")
        for platform in SDKPlatform.allCases {
            #expect(text.contains(platform.title), sourceLocation: sourceLocation)
            let snippet = step.snippet(on: platform)
            #expect(!snippet.text.isEmpty, sourceLocation: sourceLocation)
            guard snippet.isAvailable else { continue }
            for (name, value) in step.values {
                #expect(snippet.text.contains(value.filling(for: platform)), "\(platform) lacks {\(name)}", sourceLocation: sourceLocation)
            }
        }
    }

    private func signedOut(_ screen: Screen) -> ConsoleModel {
        var model = ConsoleModel(backendName: "embedded")
        model.screen = screen
        return model
    }

    @Test func anonymousSignInThenTheKeysOfThePane() {
        var store = FlowStore(signedOut(.signInMethods(SignInMethodsFeature(selection: 0))), assertsTeaching: true)
        store.send(.key(.enter), effects: [.signInAnonymously]) {
            $0.busy = "Signing in anonymously…"
            $0.teaching = TeachingContext(.anonymousSignIn)
            $0.teachingSession.record(TeachingContext(.anonymousSignIn))
        }
        expectPane(store.model, shows: .anonymousSignIn)
        let result = AuthDataResult(user: Fixtures.anonymous, additionalUserInfo: AdditionalUserInfo(providerID: nil, isNewUser: true))
        store.send(.signInFinished(.success(SignedIn(result, cart: .success([]))))) {
            $0.busy = nil
            $0.user = Fixtures.anonymous
            $0.screen = .account(AccountFeature())
            $0.banner = Banner(.success, "Account created.")
        }
        // The account screen is a list: s opens the pane; l goes through the languages; esc closes it.
        #expect(store.model.barHints.contains { $0.key == "s" && $0.label == "SDK" })
        store.send(.key(.character("s"))) { $0.overlay = .teaching(scroll: 0) }
        store.send(.key(.down)) { $0.overlay = .teaching(scroll: 1) }
        for display in [TeachingPane.Display.one(.swift), .one(.kotlin), .one(.javascript), .one(.cpp), .all] {
            store.send(.key(.character("l"))) {
                $0.teachingDisplay = display
                $0.overlay = .teaching(scroll: 0)
            }
        }
        // Scrolling stops at the last page.
        let last = store.model.teachingPane(scroll: 0)!.maxScroll(in: ConsoleView.teachingFrame(Size(width: 80, height: 24)))
        for _ in 0..<10 { _ = store.model.handle(.key(.pageDown)) }
        #expect(store.model.overlay == .teaching(scroll: last))
        store.send(.key(.escape)) { $0.overlay = nil }
    }

    @Test func theSDKOptionChoosesTheLanguageAtFullWidth() {
        let (model, _) = ConsoleModel.start(backendName: "embedded", sessionSaved: false, sdk: .kotlin)
        #expect(model.teachingDisplay == .one(.kotlin))
        #expect(ConsoleModel.start(backendName: "embedded", sessionSaved: false).0.teachingDisplay == .all)
    }

    @Test func aFormOpensThePaneWithF4AndASecretNeverShows() {
        var model = signedOut(.credentialForm(Fixtures.form(.createAccount, email: "grace@example.com", password: "hunter2-secret")))
        let effects = model.handle(.key(.enter))
        #expect(effects == [.createUser(email: "grace@example.com", password: "hunter2-secret")])
        expectPane(model, shows: .createAccount(email: "grace@example.com"))
        model.busy = nil
        #expect(model.bindings.contains { $0.keys == [.function(4)] && $0.help == "SDK" })
        #expect(!model.bindings.contains { $0.keys.contains(.character("s")) })
        _ = model.handle(.key(.function(4)))
        #expect(model.overlay == .teaching(scroll: 0))
        let canvas = TextCanvas(size: Size(width: 80, height: 24))
        ConsoleView.draw(model, on: canvas)
        #expect(canvas.text.contains("\"grace@example.com\""))
        #expect(!canvas.text.contains("hunter2-secret"))
    }

    @Test func emailAndPasswordSignInResetAndVerification() {
        var model = signedOut(.credentialForm(Fixtures.form(.signIn, email: "ada@example.com", password: "correct horse")))
        _ = model.handle(.key(.enter))
        expectPane(model, shows: .signInWithPassword(email: "ada@example.com"))

        var account = Fixtures.signedIn(Fixtures.passwordUser())
        #expect(account.handle(.key(.character("v"))) == [.verification(.sendEmailVerification)])
        expectPane(account, shows: .sendEmailVerification(email: "ada@example.com"))

        var forgot = signedOut(.passwordReset(PasswordResetFeature(step: .enteringEmail(TextField(text: "ada@example.com", maxLength: 254)))))
        _ = forgot.handle(.key(.enter))
        expectPane(forgot, shows: .sendPasswordReset(email: "ada@example.com"))

        var choosing = ChangePasswordFeature()
        choosing.newPassword = TextField(text: "new-password-1", maxLength: 128, isSecure: true)
        choosing.confirmation = TextField(text: "new-password-1", maxLength: 128, isSecure: true)
        choosing.focusOnConfirmation = true
        var reset = signedOut(.passwordReset(PasswordResetFeature(step: .choosingPassword(code: "kXz2Qm9VbN4tYp7LwR1sDe", email: "ada@example.com", choosing))))
        _ = reset.handle(.key(.enter))
        expectPane(reset, shows: .confirmPasswordReset(oobCode: "kXz2Qm9VbN4tYp7LwR1sDe"))
    }

    @Test func appleSignInIsTheNonceItsHashTheCredentialAndTheSignIn() {
        var model = signedOut(.consent(F.consent(F.appleProvider, .signIn, F.appleDirectory)))
        model.busy = "Waiting for the simulated Apple…"
        let effects = model.handle(.feature(ConsentFeature.Event.providerAuthorized(.success(F.appleAuthorization))))
        #expect(effects == [.signIn(F.appleCredential)])
        #expect(model.teaching?.steps == [.appleNonce(nonce: "raw-nonce"), .appleNonceHash(nonce: "raw-nonce", sha256: "abc123"),
                                          .appleCredential(nonce: "raw-nonce"), .signInWithCredential(providerID: "apple.com")])
        expectPane(model, shows: .signInWithCredential(providerID: "apple.com"))
        // ← and → go through the flow's steps.
        model.busy = nil
        _ = model.handle(.key(.character("s")))
        _ = model.handle(.key(.left))
        expectPane(model, shows: .appleCredential(nonce: "raw-nonce"))
        _ = model.handle(.key(.left))
        expectPane(model, shows: .appleNonceHash(nonce: "raw-nonce", sha256: "abc123"))
        _ = model.handle(.key(.left))
        _ = model.handle(.key(.left))
        expectPane(model, shows: .appleNonce(nonce: "raw-nonce"))
        // The name Apple sends on the first authorization only is a step of its own, after the sign-in.
        var first = F.appleAuthorization
        let named = AuthCredential.oauth(OAuthCredential(providerID: "apple.com", idToken: "eyJ.apple.sig", rawNonce: "raw-nonce",
                                                         fullName: .init(givenName: "Ada", familyName: "Lovelace")))
        first.credential = named
        var again = signedOut(.consent(F.consent(F.appleProvider, .signIn, F.appleDirectory)))
        _ = again.handle(.feature(ConsentFeature.Event.providerAuthorized(.success(first))))
        #expect(again.teaching?.steps.last == .appleFullName(givenName: "Ada", familyName: "Lovelace"))
        #expect(again.teaching?.step == .signInWithCredential(providerID: "apple.com"))
    }

    @Test func theRunsNonceIsOneTheNonceCodeCouldMake() {
        let nonce = EffectRunner.hexNonce()
        #expect(nonce.count == 64)
        #expect(nonce.allSatisfy { "0123456789abcdef".contains($0) })
        #expect(EffectRunner.hexNonce() != nonce)
    }

    @Test func microsoftIsTheProviderWithItsParametersTheSignInThenGraph() {
        let provider = OAuthProvider(providerID: "microsoft.com", scopes: ["openid", "mail.read"],
                                     customParameters: ["tenant": "contoso.com", "prompt": "consent", "login_hint": "carol@contoso.com"])
        var model = signedOut(.consent(F.consent(provider, .signIn, F.microsoftDirectory, selection: 1)))
        let authorization = ProviderAuthorization(credential: F.microsoftCredential, rawNonce: "n", hashedNonce: nil, idTokenClaims: nil,
                                                  grantedScopes: ["openid", "mail.read"])
        _ = model.handle(.feature(ConsentFeature.Event.providerAuthorized(.success(authorization))))
        expectPane(model, shows: .signInWithProvider(providerID: "microsoft.com"))
        let parameters = [TeachingParameter(name: "tenant", value: "contoso.com"), TeachingParameter(name: "prompt", value: "consent"),
                          TeachingParameter(name: "login_hint", value: "carol@contoso.com")]
        #expect(model.teaching?.steps.first == .microsoftProvider(parameters: parameters, scopes: ["openid", "mail.read"]))
        #expect(model.teaching?.steps.last == .microsoftGraph(accessToken: "microsoft-at-1"))
        let graph = TeachingStep.microsoftGraph(accessToken: "microsoft-at-1")
        for platform in SDKPlatform.allCases { #expect(!graph.snippet(on: platform).text.contains("microsoft-at-1")) }
    }

    @Test func linkingMicrosoftIsTheProviderWithOnlyTheRunsParametersThenTheLink() {
        let provider = OAuthProvider(providerID: "microsoft.com", scopes: ["mail.read"], customParameters: ["tenant": "contoso.com"])
        var model = Fixtures.signedIn(Fixtures.passwordUser())
        model.screen = .consent(F.consent(provider, .link, F.microsoftDirectory, selection: 1))
        let authorization = ProviderAuthorization(credential: F.microsoftCredential, rawNonce: nil, hashedNonce: nil, idTokenClaims: nil,
                                                  grantedScopes: ["mail.read"])
        _ = model.handle(.feature(ConsentFeature.Event.providerAuthorized(.success(authorization))))
        #expect(model.teaching?.steps.map(\.kind) == [.microsoftProvider, .linkWithProvider, .microsoftGraph])
        expectPane(model, shows: .linkWithProvider(providerID: "microsoft.com"))
        let setup = model.teaching!.steps[0]
        for platform in SDKPlatform.allCases {
            let text = setup.snippet(on: platform).text
            #expect(text.contains("contoso.com"), "\(platform)")
            #expect(!text.contains("login_hint"), "\(platform)")
            #expect(!text.contains("prompt"), "\(platform)")
        }
        // No step before the link signs in.
        for step in model.teaching!.steps {
            #expect(step.kind != .signInWithProvider && step.kind != .signInWithCredential)
        }
    }

    @Test func googleAndFacebookAreTheProvidersCredentialThenTheSignIn() {
        let google = OAuthProvider(providerID: "google.com")
        let directory = SimulatedIdentityProviders.Directory(providerID: "google.com", clientID: "c", issuer: "https://accounts.google.com",
                                                             identities: [F.ada])
        var model = signedOut(.consent(F.consent(google, .signIn, directory)))
        let credential = AuthCredential.oauth(OAuthCredential(providerID: "google.com", idToken: "eyJ.g.sig"))
        _ = model.handle(.feature(ConsentFeature.Event.providerAuthorized(.success(ProviderAuthorization(credential: credential, rawNonce: nil, hashedNonce: nil,
                                                                                       idTokenClaims: nil, grantedScopes: [])))))
        expectPane(model, shows: .signInWithCredential(providerID: "google.com"))
        #expect(model.teaching?.steps.first == .googleCredential(email: "ada@example.com"))

        let facebook = OAuthProvider(providerID: "facebook.com", scopes: ["email", "public_profile"])
        var other = signedOut(.consent(F.consent(facebook, .signIn, nil)))
        _ = other.handle(.feature(ConsentFeature.Event.providerAuthorized(.success(ProviderAuthorization(credential: F.updatedFacebook, rawNonce: nil, hashedNonce: nil,
                                                                                       idTokenClaims: nil, grantedScopes: [])))))
        expectPane(other, shows: .signInWithCredential(providerID: "facebook.com"))
        #expect(other.teaching?.steps.first == .facebookCredential(scopes: ["email", "public_profile"]))
        // On iOS Apple and Facebook are never a generic OAuthProvider: firebase-ios-sdk stops the app for both.
        for step in TeachingExamples.steps {
            let swift = step.snippet(on: .swift).text
            #expect(!swift.contains("OAuthProvider(providerID: \"apple.com\")"), "\(step.kind)")
            #expect(!swift.contains("OAuthProvider(providerID: \"facebook.com\")"), "\(step.kind)")
        }
    }

    @Test func phoneSignInAndTheGuestsUpgradeByLinking() {
        var model = signedOut(.phone(PhoneFeature(purpose: .signIn, number: "+15555550100")))
        #expect(model.handle(.key(.enter)) == [.phone(.verifyPhoneNumber("+15555550100"))])
        expectPane(model, shows: .phoneSendCode(phoneNumber: "+15555550100"))
        var coded = PhoneFeature(purpose: .signIn)
        coded.step = .enteringCode(phone: "+15555550100", verificationID: "AM5PThBq1xV0kK2zL9rT", code: TextField(text: "123456", maxLength: 6))
        model = signedOut(.phone(coded))
        _ = model.handle(.key(.enter))
        expectPane(model, shows: .phoneSignIn(verificationID: "AM5PThBq1xV0kK2zL9rT", code: "123456"))

        var link = PhoneFeature(purpose: .link)
        link.step = coded.step
        var guest = Fixtures.signedIn(Fixtures.anonymous)
        guest.screen = .phone(link)
        _ = guest.handle(.key(.enter))
        expectPane(guest, shows: .upgradeWithPhone(phoneNumber: "+15555550100", verificationID: "AM5PThBq1xV0kK2zL9rT", code: "123456"))
        let text = guest.teachingPane(scroll: 0)!.lines(width: 76).map(\.text).joined()
        #expect(!text.contains("123456"))
        #expect(!text.contains("AM5PThBq1xV0kK2zL9rT"))
    }

    @Test func upgradingTheGuestAndLinkingToAnAccount() {
        var guest = Fixtures.signedIn(Fixtures.anonymous)
        guest.screen = .credentialForm(Fixtures.form(.link, email: "ada@example.com", password: "correct horse"))
        _ = guest.handle(.key(.enter))
        expectPane(guest, shows: .upgradeWithPassword(email: "ada@example.com"))

        var model = Fixtures.signedIn(Fixtures.anonymous)
        model.screen = .consent(F.consent(F.appleProvider, .link, F.appleDirectory))
        _ = model.handle(.feature(ConsentFeature.Event.providerAuthorized(.success(F.appleAuthorization))))
        expectPane(model, shows: .upgradeWithProvider(providerID: "apple.com"))
        #expect(model.teaching?.steps.first == .appleNonce(nonce: "raw-nonce"))

        var member = Fixtures.signedIn(Fixtures.passwordUser())
        member.screen = .consent(F.consent(F.appleProvider, .link, F.appleDirectory))
        _ = member.handle(.feature(ConsentFeature.Event.providerAuthorized(.success(F.appleAuthorization))))
        expectPane(member, shows: .linkProvider(providerID: "apple.com"))
    }

    @Test func emailLinkSendAndSignIn() {
        var model = signedOut(.emailLink(EmailLinkFeature(purpose: .signIn, step: .enteringEmail(TextField(text: "grace@example.com", maxLength: 254)))))
        let effects = model.handle(.key(.enter))
        #expect(effects == [.emailLink(.sendSignInLink(email: "grace@example.com"))])
        expectPane(model, shows: .sendSignInLink(email: "grace@example.com", continueURL: TeachingContext.continueURL))
        let link = Outbox.Email(to: "grace@example.com", action: .signIn, oobCode: "code-1", link: "https://x/?oobCode=code-1")
        var opened = signedOut(.signInMethods(SignInMethodsFeature(selection: 0)))
        opened.outbox = Outbox(emails: [link])
        opened.overlay = .outbox(selection: 0)
        _ = opened.handle(.key(.enter))
        expectPane(opened, shows: .signInWithEmailLink(email: "grace@example.com"))
    }

    @Test func linkConflictCredentialThenTheMergeOnlyOnceChosen() {
        var model = Fixtures.signedIn(Fixtures.anonymous)
        model.busy = "Linking Google…"
        let error = AuthError(.credentialAlreadyInUse, updatedCredential: F.updatedGoogle)
        _ = model.handle(.linkFinished(.failure(error)))
        expectPane(model, shows: .linkConflictCredential(providerID: "google.com"))
        let other = AccountSnapshot(uid: "Vq3kT9sLx2", isAnonymous: false, email: "ada@example.com", providerIDs: ["google.com"], cart: [])
        _ = model.handle(.feature(ConflictFeature.Event.conflictAccountLoaded(.success(other))))
        // The other account is only looked at: the pane shows no outcome of a choice not yet made.
        expectPane(model, shows: .linkConflictCredential(providerID: "google.com"))
        #expect(model.teaching?.steps.count == 1)
        _ = model.handle(.key(.right))
        _ = model.handle(.key(.enter))
        expectPane(model, shows: .linkConflictMerge(guestUID: Fixtures.anonymous.uid, uid: "Vq3kT9sLx2"))
        #expect(model.teaching?.steps == [.linkConflictCredential(providerID: "google.com"),
                                          .linkConflictMerge(guestUID: Fixtures.anonymous.uid, uid: "Vq3kT9sLx2")])
    }

    @Test func secondFactorChallengeResolverAndHints() {
        var model = signedOut(.credentialForm(Fixtures.form(.signIn, email: "ada@example.com", password: "correct horse")))
        _ = model.handle(.key(.enter))
        var error = AuthError(.secondFactorRequired)
        error.multiFactorChallenge = MfaFixtures.challenge()
        _ = model.handle(.signInFinished(.failure(error)))
        expectPane(model, shows: .secondFactorResolver(email: "ada@example.com", hints: ["Authenticator app", "Work phone"]))
        #expect(model.teaching?.steps.first == .signInWithPassword(email: "ada@example.com"))
        // The TOTP hint, then its code.
        _ = model.handle(.key(.enter))
        for character in "975310" { _ = model.handle(.key(.character(character))) }
        _ = model.handle(.key(.enter))
        expectPane(model, shows: .secondFactorResolveTOTP(displayName: "Authenticator app", code: "975310"))

        var phone = SecondFactorSignInFeature(challenge: MfaFixtures.challenge(), purpose: .signIn)
        phone.step = .choosingFactor(selection: 1)
        var sms = signedOut(.secondFactorSignIn(phone))
        _ = sms.handle(.key(.enter))
        expectPane(sms, shows: .secondFactorSendCode(displayName: "Work phone", phoneHint: "+*******0100"))
        phone.step = .enteringCode(MfaFixtures.phoneHint, verificationID: "AM5PThBq1xV0kK2zL9rT", code: MfaFixtures.code("135790"))
        sms = signedOut(.secondFactorSignIn(phone))
        _ = sms.handle(.key(.enter))
        expectPane(sms, shows: .secondFactorResolvePhone(verificationID: "AM5PThBq1xV0kK2zL9rT", code: "135790"))
    }

    @Test func smsAndTotpEnrolment() {
        var model = Fixtures.signedIn(MfaFixtures.verifiedUser())
        model.screen = .secondFactorEnrollment(SecondFactorEnrollmentFeature(accountName: "ada@example.com",
                                                                              step: .enteringNumber(MfaFixtures.field("+15555550101", maxLength: 24))))
        _ = model.handle(.key(.enter))
        expectPane(model, shows: .smsEnrollmentSendCode(phoneNumber: "+15555550101"))
        model.busy = nil
        model.screen = .secondFactorEnrollment(SecondFactorEnrollmentFeature(
            accountName: "ada@example.com",
            step: .namingPhone(phone: "+15555550101", verificationID: "AM5PThBq1xV0kK2zL9rT", code: "654321", name: MfaFixtures.field("Work phone", maxLength: 40))))
        _ = model.handle(.key(.enter))
        expectPane(model, shows: .smsEnrollmentFinish(displayName: "Work phone", verificationID: "AM5PThBq1xV0kK2zL9rT", code: "654321"))

        var totp = Fixtures.signedIn(MfaFixtures.verifiedUser())
        totp.screen = .secondFactors(SecondFactorsFeature(selection: 0))
        _ = totp.handle(.key(.character("t")))
        expectPane(totp, shows: .totpSecret(email: "ada@example.com"))
        _ = totp.handle(.feature(SecondFactorEnrollmentFeature.Event.totpSecretGenerated(.success(MfaFixtures.secret))))
        expectPane(totp, shows: .totpQRCode(accountName: "ada@example.com", issuer: "AuthDeck"))
        #expect(totp.teaching?.steps.first == .totpSecret(email: "ada@example.com"))
        totp.screen = .secondFactorEnrollment(SecondFactorEnrollmentFeature(
            accountName: "ada@example.com", step: .namingApp(MfaFixtures.secret, code: "246810", name: MfaFixtures.field("Authenticator", maxLength: 40))))
        _ = totp.handle(.key(.enter))
        expectPane(totp, shows: .totpEnrollmentFinish(displayName: "Authenticator", code: "246810"))
    }

    @Test func theAccountsOwnSteps() {
        let user = Fixtures.passwordUser(extraProviders: [UserInfo(providerID: "google.com", uid: "g-1")])
        var model = Fixtures.signedIn(user)
        _ = model.handle(.key(.character("o")))
        expectPane(model, shows: .signOut(uid: user.uid))

        model = Fixtures.signedIn(user)
        _ = model.handle(.key(.character("r")))
        expectPane(model, shows: .reload(uid: user.uid))

        model = Fixtures.signedIn(user)
        model.busy = "Confirming it's you…"
        let data = MfaFixtures.signedIn(user)
        #expect(model.handle(.reauthenticationFinished(.deleteAccount, .success(data))) == [.perform(.deleteAccount)])
        expectPane(model, shows: .deleteAccount(uid: user.uid))
        model.busy = nil
        model.screen = .credentialForm(Fixtures.form(.reauthenticate(.updatePassword("new-pass-1")), email: "ada@example.com", password: "correct horse"))
        _ = model.handle(.key(.enter))
        expectPane(model, shows: .reauthenticateWithPassword(email: "ada@example.com"))
        model.busy = nil
        _ = model.handle(.reauthenticationFinished(.updatePassword("new-pass-1"), .success(data)))
        expectPane(model, shows: .updatePassword(email: "ada@example.com"))
        model.busy = nil
        _ = model.handle(.reauthenticationFinished(.verifyBeforeUpdateEmail("ada.lovelace@example.com"), .success(data)))
        expectPane(model, shows: .verifyBeforeUpdateEmail(newEmail: "ada.lovelace@example.com"))
        model.busy = nil
        _ = model.handle(.reauthenticationFinished(.updateEmail("ada.lovelace@example.com", previous: "ada@example.com"), .success(data)))
        expectPane(model, shows: .updateEmail(newEmail: "ada.lovelace@example.com"))
        model.busy = nil
        model.screen = .consent(F.consent(F.appleProvider, .reauthenticate(.deleteAccount), F.appleDirectory))
        _ = model.handle(.feature(ConsentFeature.Event.providerAuthorized(.success(F.appleAuthorization))))
        expectPane(model, shows: .reauthenticateWithCredential(providerID: "apple.com"))
    }

    @Test func unlinking() {
        let user = Fixtures.passwordUser(extraProviders: [UserInfo(providerID: "google.com", uid: "g-1")])
        var model = Fixtures.signedIn(user)
        model.screen = .confirm(ConfirmationFeature(subject: .unlink(providerID: "google.com"), over: .account(AccountFeature())))
        _ = model.handle(.key(.character("y")))
        expectPane(model, shows: .unlinkProvider(providerID: "google.com"))
    }

    @Test func beforeAnyStepThePaneShowsWhatTheScreenInFrontDoes() {
        var model = signedOut(.credentialForm(Fixtures.form(.createAccount, email: "grace@example.com", password: "hunter2-secret")))
        _ = model.handle(.key(.function(4)))
        #expect(model.teaching == nil)
        let pane = model.teachingPane(scroll: 0)
        #expect(pane?.content == .step(.createAccount(email: "grace@example.com")))
        #expect(pane?.notes == ["Not done yet: what enter does on this screen."])
        model = signedOut(.signInMethods(SignInMethodsFeature(selection: 0)))
        #expect(model.teachingPane(scroll: 0)?.content == .step(.anonymousSignIn))
        // While the console starts there is no screen to teach: s is no key yet.
        model = signedOut(.launching)
        _ = model.handle(.key(.character("s")))
        #expect(model.overlay == nil)
    }

    @Test func anOpenPaneFollowsTheNextStepFromTheTop() {
        var model = signedOut(.signInMethods(SignInMethodsFeature(selection: 0)))
        _ = model.handle(.key(.character("s")))
        #expect(model.overlay == .teaching(scroll: 0))
        let canvas = TextCanvas(size: Size(width: 80, height: 24))
        ConsoleView.draw(model, on: canvas)
        #expect(canvas.text.contains("Anonymous sign-in"))
        #expect(canvas.text.contains("Not done yet"))
        model.overlay = .teaching(scroll: 5)
        var error = AuthError(.secondFactorRequired)
        error.multiFactorChallenge = MfaFixtures.challenge()
        _ = model.handle(.signInFinished(.failure(error)))
        #expect(model.overlay == .teaching(scroll: 0))
        #expect(model.teaching?.step.kind == .secondFactorResolver)
    }
}
