@testable import AuthClient
@testable import AuthDeckApp
import Foundation
import Testing
import TerminalUI

@Suite("Second-factor sign-in flow: factor selection and code entry")
struct SecondFactorSignInFlowTests {
    let challenge = MfaFixtures.challenge()

    @Test func movingThroughTheHintsStopsAtTheEnds() {
        var tester = FlowTester(SecondFactorSignInFeature(challenge: challenge, purpose: .signIn))
        tester.perform(.up)
        tester.perform(.down) { $0.step = .choosingFactor(selection: 1) }
        tester.perform(.down)
        tester.perform(.up) { $0.step = .choosingFactor(selection: 0) }
    }

    @Test func totpAsksForTheAppsCodeAndResolves() {
        var tester = FlowTester(SecondFactorSignInFeature(challenge: challenge, purpose: .signIn))
        tester.perform(.choose, steps: [.banner(Banner(.info, "Type the 6-digit code your authenticator app shows for this account."))]) {
            $0.step = .enteringCode(MfaFixtures.totpHint, verificationID: nil, code: codeField())
        }
        tester.type("12a3") { $0.step = .enteringCode(MfaFixtures.totpHint, verificationID: nil, code: MfaFixtures.code("123")) }
        tester.edit(.paste("4 5-6\n7")) { $0.step = .enteringCode(MfaFixtures.totpHint, verificationID: nil, code: MfaFixtures.code("123456")) }
        #expect(tester.flow.step == .enteringCode(MfaFixtures.totpHint, verificationID: nil, code: MfaFixtures.code("123456")))
        tester.perform(.resend)
        tester.edit(.backspace) { $0.step = .enteringCode(MfaFixtures.totpHint, verificationID: nil, code: MfaFixtures.code("12345")) }
        tester.perform(.submit, steps: [.banner(Banner(.error, "Enter all 6 digits of the code."))])
        tester.type("6") { $0.step = .enteringCode(MfaFixtures.totpHint, verificationID: nil, code: MfaFixtures.code("123456")) }
        let assertion = TotpMultiFactorGenerator.assertionForSignIn(withEnrollmentID: MfaFixtures.totpInfo.uid, oneTimePassword: "123456")
        tester.perform(.submit, steps: [.banner(nil), .run(.secondFactorSignIn(.resolveSignIn(challenge, assertion)), busy: "Checking the code…")])
        let result = MfaFixtures.signedIn(MfaFixtures.verifiedUser())
        tester.handle(.secondFactorSignInFinished(.success(SignedIn(result, cart: .success([])))), steps: [.exit(.signedIn(SignedIn(result, cart: .success([]))))])
    }

    @Test func smsTextsACodeThenResolves() {
        var flow = SecondFactorSignInFeature(challenge: challenge, purpose: .signIn)
        flow.step = .choosingFactor(selection: 1)
        var tester = FlowTester(flow)
        tester.perform(.choose, steps: [.banner(nil), .run(.secondFactorSignIn(.startSecondFactorSignIn(MfaFixtures.phoneInfo, challenge)), busy: "Texting a code to +*******0100…")])
        tester.handle(.codeSent(.success("verification-1")), steps: [
            .banner(Banner(.info, "A code was texted to +*******0100; it shows in the phone pane (top right).")), .run(.verification(.refreshOutbox), busy: nil),
        ]) { $0.step = .enteringCode(MfaFixtures.phoneHint, verificationID: "verification-1", code: codeField()) }
        tester.type("654321") { $0.step = .enteringCode(MfaFixtures.phoneHint, verificationID: "verification-1", code: MfaFixtures.code("654321")) }
        // A new code replaces the old verification and clears what was typed.
        tester.perform(.resend, steps: [.banner(nil), .run(.secondFactorSignIn(.startSecondFactorSignIn(MfaFixtures.phoneInfo, challenge)), busy: "Texting a code to +*******0100…")])
        tester.handle(.codeSent(.success("verification-2")), steps: [
            .banner(Banner(.info, "A code was texted to +*******0100; it shows in the phone pane (top right).")), .run(.verification(.refreshOutbox), busy: nil),
        ]) { $0.step = .enteringCode(MfaFixtures.phoneHint, verificationID: "verification-2", code: codeField()) }
        tester.type("111222") { $0.step = .enteringCode(MfaFixtures.phoneHint, verificationID: "verification-2", code: MfaFixtures.code("111222")) }
        let credential = PhoneAuthProvider.credential(withVerificationID: "verification-2", verificationCode: "111222")
        tester.perform(.submit, steps: [.banner(nil), .run(.secondFactorSignIn(.resolveSignIn(challenge, PhoneMultiFactorGenerator.assertion(with: credential))), busy: "Checking the code…")])
    }

    @Test func aReauthenticationRunsTheOperationAfterwards() {
        var flow = SecondFactorSignInFeature(challenge: MfaFixtures.challenge(reauthenticating: "uid"), purpose: .reauthenticate(.deleteAccount))
        flow.step = .enteringCode(MfaFixtures.totpHint, verificationID: nil, code: MfaFixtures.code("123456"))
        var tester = FlowTester(flow)
        let result = MfaFixtures.signedIn(MfaFixtures.verifiedUser())
        tester.handle(.secondFactorSignInFinished(.success(SignedIn(result, cart: .success([])))), steps: [.exit(.reauthenticated(.deleteAccount))])
    }

    @Test func wrongExpiredAndTooManyCodesSayWhatToDo() {
        var flow = SecondFactorSignInFeature(challenge: challenge, purpose: .signIn)
        flow.step = .enteringCode(MfaFixtures.phoneHint, verificationID: "v", code: MfaFixtures.code("000000"))
        var tester = FlowTester(flow)
        let cleared = SecondFactorSignInFeature.Step.enteringCode(MfaFixtures.phoneHint, verificationID: "v", code: codeField())
        let wrong = AuthError.server("INVALID_CODE")
        tester.handle(.secondFactorSignInFinished(.failure(wrong)), steps: [.banner(.error(wrong, advice: "Check the text and type it again."))]) {
            $0.step = cleared
        }
        let expired = AuthError.server("SESSION_EXPIRED")
        tester.handle(.secondFactorSignInFinished(.failure(expired)), steps: [.banner(.error(expired, advice: "Press r to text a new code."))])
        let tooMany = AuthError.server("TOO_MANY_ATTEMPTS_TRY_LATER : Too many wrong codes")
        tester.handle(.secondFactorSignInFinished(.failure(tooMany)), steps: [.banner(.error(tooMany, advice: "Press r to text a new code."))])
        let offline = AuthError(.networkError, serverMessage: "connection refused")
        tester.handle(.secondFactorSignInFinished(.failure(offline)), steps: [.banner(.error(offline))])

        var totp = SecondFactorSignInFeature(challenge: challenge, purpose: .signIn)
        totp.step = .enteringCode(MfaFixtures.totpHint, verificationID: nil, code: MfaFixtures.code("000000"))
        tester = FlowTester(totp)
        tester.handle(.secondFactorSignInFinished(.failure(wrong)), steps: [.banner(.error(wrong, advice: "Type the code the app shows now."))]) {
            $0.step = .enteringCode(MfaFixtures.totpHint, verificationID: nil, code: codeField())
        }
        tester.handle(.secondFactorSignInFinished(.failure(tooMany)),
                      steps: [.banner(.error(tooMany, advice: "Try again later, or use another factor (esc)."))])
    }

    @Test func anInvalidOrExpiredSessionOrAnotherAccountStartsOver() {
        for message in ["INVALID_MFA_PENDING_CREDENTIAL", "INVALID_MFA_PENDING_CREDENTIAL : The MFA pending credential has expired"] {
            var tester = FlowTester(SecondFactorSignInFeature(challenge: challenge, purpose: .signIn))
            let error = AuthError.server(message)
            tester.handle(.codeSent(.failure(error)), steps: [.exit(.restartSignIn(.error(error, advice: "Sign in again.")))])
        }
        var flow = SecondFactorSignInFeature(challenge: challenge, purpose: .signIn)
        flow.step = .enteringCode(MfaFixtures.totpHint, verificationID: nil, code: MfaFixtures.code("123456"))
        var tester = FlowTester(flow)
        let mismatch = AuthError(.userMismatch)
        tester.handle(.secondFactorSignInFinished(.failure(mismatch)),
                      steps: [.exit(.restartSignIn(.error(mismatch, advice: "That is another account's second factor.")))]) {
            $0.step = .enteringCode(MfaFixtures.totpHint, verificationID: nil, code: codeField())
        }
    }

    @Test func escGoesBackToTheFactorsThenCancels() {
        var flow = SecondFactorSignInFeature(challenge: challenge, purpose: .signIn)
        flow.step = .enteringCode(MfaFixtures.phoneHint, verificationID: "v", code: MfaFixtures.code("12"))
        var tester = FlowTester(flow)
        tester.perform(.back, steps: [.banner(nil)]) { $0.step = .choosingFactor(selection: 1) }
        tester.perform(.back, steps: [.banner(Banner(.info, "Sign-in cancelled.")), .exit(.cancelled)])
        // Results that belong to no step are ignored: another feature's (its scope takes only its own), or a
        // code while TOTP is selected.
        var unchanged = tester.flow
        #expect(unchanged.receive(FeatureEvent(SecondFactorEnrollmentFeature.Event.enrolled(.success(MfaFixtures.verifiedUser()))), in: Fixtures.signedOut).isEmpty)
        #expect(unchanged == tester.flow)
        tester.perform(.up) { $0.step = .choosingFactor(selection: 0) }
        tester.handle(.codeSent(.success("stray")))
    }

    /// The screen names the first factor that passed (not "The password was right" after a Google
    /// sign-in), and a reauthentication's esc cancels the reauthentication, not a sign-in.
    @Test func theWordsMatchHowTheFirstFactorPassedAndWhatEscCancels() {
        var model = Fixtures.signedIn(MfaFixtures.verifiedUser(factors: [MfaFixtures.totpHint]))
        model.screen = .secondFactorSignIn(SecondFactorSignInFeature(challenge: MfaFixtures.challenge(firstFactor: "google.com"), purpose: .signIn))
        #expect(render(model).contains("Google confirmed who you are; this account also has 2-step"))
        #expect(!render(model).contains("password was right"))

        let reauthentication = SecondFactorSignInFeature(challenge: MfaFixtures.challenge(reauthenticating: "uid"), purpose: .reauthenticate(.deleteAccount))
        model.screen = .secondFactorSignIn(reauthentication)
        #expect(render(model).contains("The password was right"))
        #expect(!render(model).contains("sign-in"))
        var tester = FlowTester(reauthentication)
        tester.perform(.back, steps: [.banner(Banner(.info, "Cancelled: nothing changed; did not delete the account.")), .exit(.cancelled)])
    }

    @Test func theBarOffersResendOnlyForSms() {
        var flow = SecondFactorSignInFeature(challenge: challenge, purpose: .signIn)
        flow.step = .enteringCode(MfaFixtures.totpHint, verificationID: nil, code: codeField())
        #expect(!flow.bindings(in: Fixtures.signedOut).contains { $0.intent == .feature(.resend) })
        flow.step = .enteringCode(MfaFixtures.phoneHint, verificationID: "v", code: codeField())
        #expect(flow.bindings(in: Fixtures.signedOut).contains { $0.intent == .feature(.resend) })
    }
}
