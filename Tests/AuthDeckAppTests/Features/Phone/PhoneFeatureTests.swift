@testable import AuthClient
@testable import AuthDeckApp
import Foundation
import Testing
import TerminalUI

@Suite("Phone sign-in and phone linking flows")
struct PhoneFeatureTests {
    let texted = FlowStep.banner(Banner(.info, "A code was texted to +15555550100; it shows in the phone pane (top right)."))

    @Test func phoneSignIn() {
        var tester = FlowTester(PhoneFeature(purpose: .signIn))
        tester.type("+1 555x") { $0.step = .enteringNumber(MfaFixtures.field("+1 555", maxLength: 24)) }
        tester.perform(.submit, steps: [.banner(Banner(.error, "That is not a phone number in E.164 form. \(PhoneNumberText.formatHint)"))]) {
            $0.step = .enteringNumber(MfaFixtures.field("+1 555", maxLength: 24))
        }
        tester.type("5550100") { $0.step = .enteringNumber(MfaFixtures.field("+1 5555550100", maxLength: 24)) }
        tester.perform(.submit, steps: [.banner(nil), .run(.phone(.verifyPhoneNumber("+15555550100")), busy: "Texting a code to +15555550100…")])
        let invalid = AuthError.server("INVALID_PHONE_NUMBER : Invalid format.")
        tester.handle(.codeSent(.failure(invalid)), steps: [.banner(.error(invalid, advice: PhoneNumberText.formatHint))])
        tester.handle(.codeSent(.success("v1")), steps: [texted, .run(.verification(.refreshOutbox), busy: nil)]) {
            $0.step = .enteringCode(phone: "+15555550100", verificationID: "v1", code: codeField())
        }
        tester.type("000000") { $0.step = .enteringCode(phone: "+15555550100", verificationID: "v1", code: MfaFixtures.code("000000")) }
        let credential = PhoneAuthProvider.credential(withVerificationID: "v1", verificationCode: "000000")
        tester.perform(.submit, steps: [.banner(nil), .run(.phone(.signIn(credential)), busy: "Signing in…")])
        let wrong = AuthError.server("INVALID_CODE")
        tester.handle(.signInFinished(.failure(wrong)), steps: [.banner(.error(wrong, advice: "Check the text and type the code again."))]) {
            $0.step = .enteringCode(phone: "+15555550100", verificationID: "v1", code: codeField())
        }
        let expired = AuthError.server("SESSION_EXPIRED")
        tester.handle(.signInFinished(.failure(expired)), steps: [.banner(.error(expired, advice: "Press r to text a new code."))])
        tester.perform(.resend, steps: [.banner(nil), .run(.phone(.verifyPhoneNumber("+15555550100")), busy: "Texting a new code to +15555550100…")])
        let mfaUser = AuthError.server("UNSUPPORTED_FIRST_FACTOR : A phone number cannot be set as a first factor on an SMS based MFA user.")
        tester.handle(.signInFinished(.failure(mfaUser)), steps: [
            .banner(.error(mfaUser, advice: "Sign in with that account's email and password instead.")), .exit(.cancelled),
        ])
        let result = AuthDataResult(user: Fixtures.passwordUser(), additionalUserInfo: AdditionalUserInfo(providerID: "phone", isNewUser: true))
        tester.handle(.signInFinished(.success(SignedIn(result, cart: .success([])))), steps: [.exit(.signedIn(SignedIn(result, cart: .success([]))))])
        tester.perform(.back, steps: [.banner(nil)]) { $0.step = .enteringNumber(MfaFixtures.field("+15555550100", maxLength: 24)) }
        tester.perform(.back, steps: [.banner(nil), .exit(.cancelled)])
    }

    @Test func linkingANumberOfAnotherAccountOffersThatAccount() {
        var flow = PhoneFeature(purpose: .link)
        flow.step = .enteringCode(phone: "+15555550100", verificationID: "v1", code: MfaFixtures.code("123456"))
        var tester = FlowTester(flow)
        let credential = PhoneAuthProvider.credential(withVerificationID: "v1", verificationCode: "123456")
        tester.perform(.submit, steps: [.banner(nil), .run(.phone(.link(credential)), busy: "Linking +15555550100…")])
        let proof = PhoneAuthCredential(proof: .temporaryProof("proof", phoneNumber: "+15555550100"))
        var conflict = AuthError(.credentialAlreadyInUse)
        conflict.updatedCredential = .phone(proof)
        tester.handle(.linkFinished(.failure(conflict)), steps: [.banner(nil)]) {
            $0.step = .conflict(phone: "+15555550100", credential: .phone(proof), signInSelected: false)
        }
        tester.perform(.choose, steps: [.banner(Banner(.info, "The number was not linked.")), .exit(.cancelled)])
        tester.perform(.toggle) { $0.step = .conflict(phone: "+15555550100", credential: .phone(proof), signInSelected: true) }
        tester.perform(.choose, steps: [.banner(nil), .run(.phone(.signIn(proof)), busy: "Signing in to the account that owns the number…")])
        let other = AuthDataResult(user: Fixtures.passwordUser(uid: "other"), additionalUserInfo: AdditionalUserInfo(providerID: "phone", isNewUser: false))
        tester.handle(.signInFinished(.success(SignedIn(other, cart: .success([])))), steps: [.exit(.signedIn(SignedIn(other, cart: .success([]))))])
        tester.perform(.cancel, steps: [.banner(Banner(.info, "The number was not linked.")), .exit(.cancelled)])
        let offline = AuthError(.networkError)
        tester.handle(.signInFinished(.failure(offline)), steps: [.banner(.error(offline))])

        tester.flow.step = .enteringCode(phone: "+15555550100", verificationID: "v1", code: MfaFixtures.code("123456"))
        let linked = MfaFixtures.signedIn(Fixtures.passwordUser())
        tester.handle(.linkFinished(.success(linked)), steps: [.exit(.linked(linked, what: linked.user.phoneNumber ?? "the phone number"))])
    }

    @Test func phoneNumbersAreCheckedAndMasked() {
        #expect(PhoneNumberText.e164("+1 (555) 555-0100") == "+15555550100")
        #expect(PhoneNumberText.e164("+44 20 7946 0958") == "+442079460958")
        #expect(PhoneNumberText.e164("15555550100") == nil)
        #expect(PhoneNumberText.e164("+0555550100") == nil)
        #expect(PhoneNumberText.e164("+123456") == nil)
        #expect(PhoneNumberText.e164("+1234567890123456") == nil)
        #expect(PhoneNumberText.e164("+1555555０100") == nil)
        // Masked here as the backend masks a hint, so one phone looks the same on every screen.
        #expect(PhoneNumberText.masked("+15555550100") == "+*******0100")
        #expect(PhoneNumberText.masked("+*******0100") == "+*******0100")
    }

    /// A linked phone is offered to confirm a stale sign-in.
    @Test func aLinkedPhoneConfirmsAStaleSignIn() {
        var phoneOnly = Fixtures.passwordUser()
        phoneOnly.email = nil
        phoneOnly.phoneNumber = "+15555550100"
        phoneOnly.providerData = [UserInfo(providerID: "phone", uid: "+15555550100", phoneNumber: "+15555550100")]
        var store = FlowStore(Fixtures.signedIn(phoneOnly))
        let operation = SensitiveOperation.deleteAccount
        store.send(.sensitiveOperationFinished(operation, .failure(.server("CREDENTIAL_TOO_OLD_LOGIN_AGAIN")))) {
            $0.screen = .phone(PhoneFeature(purpose: .reauthenticate(operation), number: "+15555550100"))
            $0.banner = Banner(.info, "Your last sign-in was too long ago. Confirm it with a code texted to your number to delete the account; it then runs by itself.")
        }
        store.send(.key(.enter), effects: [.phone(.verifyPhoneNumber("+15555550100"))]) {
            $0.busy = "Texting a code to +15555550100…"
            $0.banner = nil
        }
        var flow = PhoneFeature(purpose: .reauthenticate(operation))
        flow.step = .enteringCode(phone: "+15555550100", verificationID: "v1", code: MfaFixtures.code("123456"))
        var tester = FlowTester(flow, context: ConsoleContext(user: phoneOnly, token: nil, cart: [], outbox: Outbox(emails: [], texts: [])))
        let credential = PhoneAuthProvider.credential(withVerificationID: "v1", verificationCode: "123456")
        tester.perform(.submit, steps: [.banner(nil), .run(.reauthenticate(.phone(credential), then: operation), busy: "Confirming it's you…")])

        // Beside a password, it is one of the choices, with its number masked.
        var both = Fixtures.passwordUser(extraProviders: [UserInfo(providerID: "phone", uid: "+15555550100", phoneNumber: "+15555550100")])
        both.phoneNumber = "+15555550100"
        #expect(ReauthMethodsFeature.Account(operation, user: both).methods == ["password", "phone"])
        var choice = Fixtures.signedIn(both)
        choice.screen = .reauthMethods(ReauthMethodsFeature(operation, selection: 1))
        #expect(render(choice).contains("Phone number (+*******0100)"))
        store = FlowStore(choice)
        store.send(.key(.enter)) { $0.screen = .phone(PhoneFeature(purpose: .reauthenticate(operation), number: "+15555550100")) }
        store.send(.key(.escape)) {
            $0.screen = .account(AccountFeature())
            $0.banner = Banner(.info, "Cancelled: did not delete the account.")
        }
    }
}
