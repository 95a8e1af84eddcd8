import AppData
@testable import AuthClient
@testable import AuthDeckApp
import Foundation
import Testing
import TerminalUI

@Suite("Console: second factors, email actions, phone and the outbox")
struct VerificationConsoleTests {
    static func challenge(_ challenge: MultiFactorChallenge) -> AuthError {
        var error = AuthError(.secondFactorRequired)
        error.multiFactorChallenge = challenge
        return error
    }

    @Test func aPasswordSignInThatNeedsASecondFactorEndsSignedInWithIt() {
        var model = ConsoleModel(backendName: "embedded")
        model.screen = .credentialForm(Fixtures.form(.signIn, email: "ada@example.com", password: "hunter22"))
        model.busy = "Signing in…"
        let challenge = MfaFixtures.challenge()
        var store = FlowStore(model)
        store.send(.signInFinished(.failure(Self.challenge(challenge)))) {
            $0.busy = nil
            $0.screen = .secondFactorSignIn(SecondFactorSignInFeature(challenge: challenge, purpose: .signIn))
            $0.banner = Banner(.info, "This account has 2-step verification: choose a second factor.")
        }
        store.send(.key(.enter)) {
            var flow = SecondFactorSignInFeature(challenge: challenge, purpose: .signIn)
            flow.step = .enteringCode(MfaFixtures.totpHint, verificationID: nil, code: codeField())
            $0.screen = .secondFactorSignIn(flow)
            $0.banner = Banner(.info, "Type the 6-digit code your authenticator app shows for this account.")
        }
        store.type("123456") {
            var flow = SecondFactorSignInFeature(challenge: challenge, purpose: .signIn)
            flow.step = .enteringCode(MfaFixtures.totpHint, verificationID: nil, code: MfaFixtures.code("123456"))
            $0.screen = .secondFactorSignIn(flow)
        }
        let assertion = MultiFactorAssertion.totpSignIn(enrollmentID: MfaFixtures.totpInfo.uid, oneTimePassword: "123456")
        store.send(.key(.enter), effects: [.secondFactorSignIn(.resolveSignIn(challenge, assertion))]) {
            var flow = SecondFactorSignInFeature(challenge: challenge, purpose: .signIn)
            flow.step = .enteringCode(MfaFixtures.totpHint, verificationID: nil, code: MfaFixtures.code("123456"))
            $0.screen = .secondFactorSignIn(flow)
            $0.banner = nil
            $0.busy = "Checking the code…"
        }
        let user = MfaFixtures.verifiedUser(factors: [MfaFixtures.totpHint])
        store.send(.feature(SecondFactorSignInFeature.Event.secondFactorSignInFinished(.success(SignedIn(MfaFixtures.signedIn(user), cart: .success([])))))) {
            $0.busy = nil
            $0.user = user
            $0.screen = .account(AccountFeature())
            $0.banner = Banner(.success, "Signed in with a second factor.")
        }
    }

    @Test func aReauthenticationThatNeedsASecondFactorRunsTheOperationAfterwards() {
        let user = MfaFixtures.verifiedUser(factors: [MfaFixtures.totpHint])
        var model = Fixtures.signedIn(user)
        model.screen = .credentialForm(CredentialFormFeature(purpose: .reauthenticate(.unenroll(MfaFixtures.totpHint)), email: user.email ?? ""))
        model.busy = "Confirming it's you…"
        let challenge = MfaFixtures.challenge(hints: [MfaFixtures.totpHint], reauthenticating: user.uid)
        var store = FlowStore(model)
        store.send(.reauthenticationFinished(.unenroll(MfaFixtures.totpHint), .failure(Self.challenge(challenge)))) {
            $0.busy = nil
            $0.screen = .secondFactorSignIn(SecondFactorSignInFeature(challenge: challenge, purpose: .reauthenticate(.unenroll(MfaFixtures.totpHint))))
            $0.banner = Banner(.info, "This account has 2-step verification: choose a second factor.")
        }
        store.send(.feature(SecondFactorSignInFeature.Event.secondFactorSignInFinished(.success(SignedIn(MfaFixtures.signedIn(user), cart: .success([]))))),
                   effects: [.perform(.unenroll(MfaFixtures.totpHint))]) {
            $0.busy = "Retrying: remove the second factor \"Authenticator app\"…"
        }
        store.send(.sensitiveOperationFinished(.unenroll(MfaFixtures.totpHint), .success(MfaFixtures.verifiedUser()))) {
            $0.busy = nil
            $0.user = MfaFixtures.verifiedUser()
            $0.screen = .secondFactors(SecondFactorsFeature(selection: 0))
            $0.banner = Banner(.success, "Removed the second factor \"Authenticator app\". Other sessions were signed out.")
        }
    }

    @Test func aPendingCredentialThatExpiredSendsTheUserBackToTheSignIn() {
        var model = ConsoleModel(backendName: "embedded")
        let challenge = MfaFixtures.challenge()
        model.screen = .secondFactorSignIn(SecondFactorSignInFeature(challenge: challenge, purpose: .signIn))
        model.busy = "Texting a code to +*******0100…"
        var store = FlowStore(model)
        let expired = AuthError.server("INVALID_MFA_PENDING_CREDENTIAL : The MFA pending credential has expired")
        store.send(.feature(SecondFactorSignInFeature.Event.codeSent(.failure(expired)))) {
            $0.busy = nil
            $0.screen = .signInMethods(SignInMethodsFeature(selection: 1))
            $0.banner = .error(expired, advice: "Sign in again.")
        }
    }

    @Test func verifyingTheEmailThroughTheOutbox() {
        var store = FlowStore(Fixtures.signedIn(Fixtures.passwordUser()))
        store.send(.key(.character("v")), effects: [.verification(.sendEmailVerification)]) { $0.busy = "Sending the verification email…" }
        store.send(.verification(.emailVerificationSent(.success("ada@example.com"))), effects: [.verification(.refreshOutbox)]) {
            $0.busy = nil
            $0.banner = Banner(.info, "A verification email to ada@example.com is in the outbox: press m and open it.")
        }
        store.send(.key(.character("m")), effects: [.verification(.refreshOutbox)]) { $0.overlay = .outbox(selection: 0) }
        let verification = Outbox.Email(to: "ada@example.com", action: .verifyEmail, oobCode: "oob-1", link: "http://localhost:9099/emulator/action?mode=verifyEmail")
        let outbox = Outbox(emails: [verification],
                            texts: [Outbox.TextMessage(to: "+15555550100", code: "123456", verificationID: "v1")])
        store.send(.verification(.outboxChanged(.success(outbox)))) { $0.outbox = outbox }
        store.send(.key(.down)) { $0.overlay = .outbox(selection: 1) }
        store.send(.key(.enter))
        store.send(.key(.down))
        store.send(.key(.up)) { $0.overlay = .outbox(selection: 0) }
        store.send(.key(.character("r")), effects: [.verification(.refreshOutbox)])
        store.send(.key(.enter), effects: [.verification(.applyActionCode(verification))]) { $0.busy = "Verifying ada@example.com…" }
        var verified = Fixtures.passwordUser()
        verified.emailVerified = true
        store.send(.verification(.actionCodeApplied(verification, .success(verified))), effects: [.verification(.refreshOutbox)]) {
            $0.busy = nil
            $0.user = verified
            $0.overlay = nil
            $0.banner = Banner(.success, "Email verified.")
        }
        #expect(!store.model.bindings.contains { $0.intent == .feature(FeatureAction(AccountFeature.Action.verifyEmail)) })
    }

    @Test func openingAResetEmailAsksForTheNewPasswordAndThenTheSignIn() {
        var model = ConsoleModel(backendName: "embedded")
        model.screen = .signInMethods(SignInMethodsFeature(selection: 0))
        let reset = Outbox.Email(to: "ada@example.com", action: .resetPassword, oobCode: "oob-2", link: "link")
        model.outbox = Outbox(emails: [reset])
        var store = FlowStore(model)
        store.send(.key(.character("m")), effects: [.verification(.refreshOutbox)]) { $0.overlay = .outbox(selection: 0) }
        store.send(.key(.enter), effects: [.verification(.checkResetCode(reset))]) { $0.busy = "Checking the reset link…" }
        store.send(.verification(.resetCodeChecked(reset, .success("ada@example.com")))) {
            $0.busy = nil
            $0.overlay = nil
            $0.screen = .passwordReset(.choosingPassword(code: "oob-2", email: "ada@example.com"))
            $0.banner = Banner(.info, "Choose a new password for ada@example.com.")
        }
        store.send(.feature(PasswordResetFeature.Event.passwordResetConfirmed(.success("ada@example.com")))) {
            $0.screen = .credentialForm(CredentialFormFeature(purpose: .signIn, email: "ada@example.com"))
            $0.banner = Banner(.success, "Password changed and every session signed out. Sign in with the new password.")
        }
        store.send(.key(.escape)) { $0.screen = .signInMethods(SignInMethodsFeature(selection: 1)) }
        store.send(.key(.character("m")), effects: [.verification(.refreshOutbox)]) { $0.overlay = .outbox(selection: 0) }
        store.send(.verification(.outboxChanged(.failure(.noOutbox)))) {
            $0.outbox = Outbox(problem: .noOutbox)
            $0.banner = Banner(.error, "This backend has no outbox: a real Firebase project sends its emails and texts for real.")
        }
        store.send(.key(.escape)) {
            $0.overlay = nil
        }
        // A real project's emails are sent for real: no complaint when nobody asked to see the outbox.
        store.send(.verification(.outboxChanged(.failure(.noOutbox))))
    }

    @Test func aResetLinkTheBackendRefusesSaysSoBeforeAnyFormOpens() {
        var model = ConsoleModel(backendName: "embedded")
        model.screen = .signInMethods(SignInMethodsFeature(selection: 0))
        let reset = Outbox.Email(to: "ada@example.com", action: .resetPassword, oobCode: "oob-3", link: "link")
        model.outbox = Outbox(emails: [reset])
        model.overlay = .outbox(selection: 0)
        var store = FlowStore(model)
        store.send(.key(.enter), effects: [.verification(.checkResetCode(reset))]) { $0.busy = "Checking the reset link…" }
        let refused = AuthError(.invalidActionCode)
        store.send(.verification(.resetCodeChecked(reset, .failure(refused))), effects: [.verification(.refreshOutbox)]) {
            $0.busy = nil
            var banner = Banner.error(refused)
            banner.text = "This \"Reset your password\" link no longer works: \(refused.message) Ask for a new one."
            $0.banner = banner
        }
        #expect(store.model.screen == .signInMethods(SignInMethodsFeature(selection: 0)))
    }

    @Test func anotherProjectsMessageIsShownButNotOpened() {
        var model = ConsoleModel(backendName: "embedded")
        model.screen = .signInMethods(SignInMethodsFeature(selection: 0))
        let theirs = Outbox.Email(to: "same@example.com", action: .verifyEmail, oobCode: "oob-4", link: "link", project: "visitor-0123456789abcdef")
        model.outbox = Outbox(emails: [theirs], project: "authdeck-local")
        model.overlay = .outbox(selection: 0)
        #expect(model.bindings.first { $0.label == "enter" }?.help == "where it opens")
        var store = FlowStore(model)
        store.send(.key(.enter)) {
            $0.banner = Banner(.info, "That message is in project visitor-0123456789abcdef: it opens from a console in that project.")
        }
    }

    @Test func managingSecondFactors() {
        let user = MfaFixtures.verifiedUser(factors: [MfaFixtures.totpHint, MfaFixtures.phoneHint])
        var store = FlowStore(Fixtures.signedIn(user))
        store.send(.key(.character("f"))) { $0.screen = .secondFactors(SecondFactorsFeature(selection: 0)) }
        store.send(.key(.down)) { $0.screen = .secondFactors(SecondFactorsFeature(selection: 1)) }
        store.send(.key(.down))
        store.send(.key(.character("x"))) {
            $0.screen = .confirm(ConfirmationFeature(subject: .unenroll(MfaFixtures.phoneHint), over: .secondFactors(SecondFactorsFeature(selection: 1))))
        }
        // Cancelled, the dialog returns to the list as it was: the phone still selected.
        store.send(.key(.escape)) { $0.screen = .secondFactors(SecondFactorsFeature(selection: 1)) }
        store.send(.key(.up)) { $0.screen = .secondFactors(SecondFactorsFeature(selection: 0)) }
        store.send(.key(.character("x"))) {
            $0.screen = .confirm(ConfirmationFeature(subject: .unenroll(MfaFixtures.totpHint), over: .secondFactors(SecondFactorsFeature(selection: 0))))
        }
        store.send(.key(.character("y")), effects: [.perform(.unenroll(MfaFixtures.totpHint))]) { $0.busy = "Removing Authenticator app…" }
        store.send(.sensitiveOperationFinished(.unenroll(MfaFixtures.totpHint), .failure(.server("CREDENTIAL_TOO_OLD_LOGIN_AGAIN")))) {
            $0.busy = nil
            $0.banner = Banner(.info, "Your last sign-in was too long ago. Enter your password to remove the second factor \"Authenticator app\"; it then runs by itself.")
            $0.screen = .credentialForm(CredentialFormFeature(purpose: .reauthenticate(.unenroll(MfaFixtures.totpHint)), email: "ada@example.com"))
        }

        store = FlowStore(Fixtures.signedIn(user))
        store.model.screen = .secondFactors(SecondFactorsFeature(selection: 0))
        store.send(.key(.character("p"))) { $0.screen = .secondFactorEnrollment(.sms(accountName: "ada@example.com")) }
        store.send(.key(.escape)) { $0.screen = .secondFactors(SecondFactorsFeature(selection: 0)) }
        store.send(.key(.character("t")), effects: [.secondFactorEnrollment(.generateTotpSecret)]) {
            $0.screen = .secondFactorEnrollment(SecondFactorEnrollmentFeature.totp(accountName: "ada@example.com").0)
            $0.busy = "Asking for a new TOTP secret…"
        }
        store.send(.feature(SecondFactorEnrollmentFeature.Event.totpSecretGenerated(.success(MfaFixtures.secret)))) {
            $0.busy = nil
            $0.screen = .secondFactorEnrollment(SecondFactorEnrollmentFeature(accountName: "ada@example.com", step: .scanning(MfaFixtures.secret)))
        }
        store.model.screen = .secondFactorEnrollment(SecondFactorEnrollmentFeature(accountName: "ada@example.com", step: .namingApp(
            MfaFixtures.secret, code: "123456", name: MfaFixtures.field("App", maxLength: 40))))
        let enrolled = MfaFixtures.verifiedUser(factors: [MfaFixtures.totpHint, MfaFixtures.phoneHint, MfaFixtures.totpHint])
        store.send(.feature(SecondFactorEnrollmentFeature.Event.enrolled(.success(enrolled)))) {
            $0.user = enrolled
            $0.screen = .secondFactors(SecondFactorsFeature(selection: 2))
            $0.banner = Banner(.success, "Enrolled \"App\". Signing in now asks for a second factor.")
        }
        store.send(.key(.escape)) {
            $0.screen = .account(AccountFeature())
            $0.banner = nil
        }
    }

    @Test func phoneSignInAndLinkingComeAndGoFromTheRightScreens() {
        let phone = SignInMethod.allCases.firstIndex(of: .phone) ?? 0
        let reset = SignInMethod.allCases.firstIndex(of: .resetPassword) ?? 0
        var model = ConsoleModel(backendName: "embedded")
        model.screen = .signInMethods(SignInMethodsFeature(selection: phone))
        var store = FlowStore(model)
        store.send(.key(.enter)) { $0.screen = .phone(PhoneFeature(purpose: .signIn)) }
        store.send(.key(.escape)) { $0.screen = .signInMethods(SignInMethodsFeature(selection: phone)) }
        store.model.screen = .signInMethods(SignInMethodsFeature(selection: reset))
        store.send(.key(.enter)) { $0.screen = .passwordReset(PasswordResetFeature()) }
        store.send(.key(.escape)) { $0.screen = .signInMethods(SignInMethodsFeature(selection: reset)) }

        let user = Fixtures.passwordUser()
        store = FlowStore(Fixtures.signedIn(user))
        store.send(.key(.character("n"))) { $0.screen = .phone(PhoneFeature(purpose: .link)) }
        store.send(.key(.escape)) { $0.screen = .account(AccountFeature()) }
        var linked = user
        linked.phoneNumber = "+15555550100"
        store.model.screen = .phone(PhoneFeature(purpose: .link))
        store.send(.feature(PhoneFeature.Event.linkFinished(.success(MfaFixtures.signedIn(linked))))) {
            $0.user = linked
            $0.screen = .account(AccountFeature())
            $0.banner = Banner(.success, "Linked +15555550100. The uid and app data are unchanged.")
        }
    }

    @Test func everyBarKeyOfTheNewScreensDoesSomething() {
        let user = MfaFixtures.verifiedUser(factors: [MfaFixtures.totpHint, MfaFixtures.phoneHint])
        let challenge = MfaFixtures.challenge()
        var codeStep = SecondFactorSignInFeature(challenge: challenge, purpose: .signIn)
        codeStep.step = .enteringCode(MfaFixtures.phoneHint, verificationID: "v", code: MfaFixtures.code("123456"))
        var phoneCode = PhoneFeature(purpose: .signIn)
        phoneCode.step = .enteringCode(phone: "+15555550100", verificationID: "v", code: MfaFixtures.code("123456"))
        let screens: [Screen] = [
            .secondFactors(SecondFactorsFeature(selection: 0)),
            .secondFactorEnrollment(.sms(accountName: "ada@example.com")),
            .secondFactorEnrollment(SecondFactorEnrollmentFeature(accountName: "a", step: .enteringSmsCode(phone: "+15555550100", verificationID: "v", code: MfaFixtures.code("123456")))),
            .secondFactorEnrollment(SecondFactorEnrollmentFeature(accountName: "a", step: .scanning(MfaFixtures.secret))),
            .secondFactorEnrollment(SecondFactorEnrollmentFeature(accountName: "a", step: .enteringTotpCode(MfaFixtures.secret, code: MfaFixtures.code("123456")))),
            .secondFactorEnrollment(SecondFactorEnrollmentFeature(accountName: "a", step: .namingApp(MfaFixtures.secret, code: "123456", name: MfaFixtures.field("A", maxLength: 40)))),
            .secondFactorSignIn(SecondFactorSignInFeature(challenge: challenge, purpose: .signIn)),
            .secondFactorSignIn(codeStep),
            .phone(PhoneFeature(purpose: .link)), .phone(phoneCode),
            .passwordReset(PasswordResetFeature()), .passwordReset(PasswordResetFeature(step: .sent(email: "a@b.c"))),
            .passwordReset(.choosingPassword(code: "c", email: "a@b.c")),
        ]
        for screen in screens {
            var model = Fixtures.signedIn(user)
            model.screen = screen
            for binding in model.bindings where binding.inBar {
                var copy = model
                let effects = copy.handle(.key(binding.keys[0]))
                #expect(copy != model || !effects.isEmpty, "\(screen.title): \(binding.label) did nothing")
            }
        }
    }
}
