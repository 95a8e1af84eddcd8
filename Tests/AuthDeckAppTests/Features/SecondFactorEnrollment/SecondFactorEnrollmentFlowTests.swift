@testable import AuthClient
@testable import AuthDeckApp
import Foundation
import Testing
import TerminalUI

@Suite("Second-factor enrollment flow: SMS and TOTP")
struct SecondFactorEnrollmentFlowTests {
    let texted = FlowStep.banner(Banner(.info, "A code was texted to +15555550100; it shows in the phone pane (top right)."))

    @Test func smsNumberCodeNameThenEnrolled() {
        var tester = FlowTester(SecondFactorEnrollmentFeature.sms(accountName: "ada@example.com"))
        #expect(!tester.flow.editsText)
        tester.type("555abc") { $0.step = .enteringNumber(MfaFixtures.field("555", maxLength: 24)) }
        tester.perform(.submit, steps: [.banner(Banner(.error, "That is not a phone number in E.164 form. \(PhoneNumberText.formatHint)"))]) {
            $0.step = .enteringNumber(MfaFixtures.field("555", maxLength: 24))
        }
        tester.flow.step = .enteringNumber(MfaFixtures.field("+1 (555) 555-0100", maxLength: 24))
        tester.perform(.submit, steps: [.banner(nil), .run(.secondFactorEnrollment(.startPhoneEnrollment("+15555550100")), busy: "Texting a code to +15555550100…")])
        tester.handle(.codeSent(.success("v1")), steps: [texted, .run(.verification(.refreshOutbox), busy: nil)]) {
            $0.step = .enteringSmsCode(phone: "+15555550100", verificationID: "v1", code: codeField())
        }
        tester.perform(.resend, steps: [.banner(nil), .run(.secondFactorEnrollment(.startPhoneEnrollment("+15555550100")), busy: "Texting a new code to +15555550100…")])
        tester.handle(.codeSent(.success("v2")), steps: [texted, .run(.verification(.refreshOutbox), busy: nil)]) {
            $0.step = .enteringSmsCode(phone: "+15555550100", verificationID: "v2", code: codeField())
        }
        tester.type("12345") { $0.step = .enteringSmsCode(phone: "+15555550100", verificationID: "v2", code: MfaFixtures.code("12345")) }
        tester.perform(.submit, steps: [.banner(Banner(.error, "Enter all 6 digits of the code."))])
        tester.type("6") { $0.step = .enteringSmsCode(phone: "+15555550100", verificationID: "v2", code: MfaFixtures.code("123456")) }
        tester.perform(.submit, steps: [.banner(nil)]) {
            $0.step = .namingPhone(phone: "+15555550100", verificationID: "v2", code: "123456", name: MfaFixtures.field("Phone ending 0100", maxLength: 40))
        }
        #expect(tester.flow.editsText)
        tester.perform(.back, steps: [.banner(nil)]) {
            $0.step = .enteringSmsCode(phone: "+15555550100", verificationID: "v2", code: MfaFixtures.code("123456"))
        }
        tester.perform(.submit, steps: [.banner(nil)]) {
            $0.step = .namingPhone(phone: "+15555550100", verificationID: "v2", code: "123456", name: MfaFixtures.field("Phone ending 0100", maxLength: 40))
        }
        tester.edit(.control("u")) {
            $0.step = .namingPhone(phone: "+15555550100", verificationID: "v2", code: "123456", name: TextField(maxLength: 40))
        }
        tester.perform(.submit, steps: [.banner(Banner(.error, "Give the factor a name, e.g. \"Work phone\"."))]) {
            $0.step = .namingPhone(phone: "+15555550100", verificationID: "v2", code: "123456", name: TextField(maxLength: 40))
        }
        tester.type("Work phone ") {
            $0.step = .namingPhone(phone: "+15555550100", verificationID: "v2", code: "123456", name: MfaFixtures.field("Work phone ", maxLength: 40))
        }
        let credential = PhoneAuthProvider.credential(withVerificationID: "v2", verificationCode: "123456")
        tester.perform(.submit, steps: [.banner(nil), .run(.secondFactorEnrollment(.enroll(.phone(credential), displayName: "Work phone")), busy: "Enrolling Work phone…")])
        let user = MfaFixtures.verifiedUser(factors: [MfaFixtures.phoneHint])
        tester.handle(.enrolled(.success(user)), steps: [.exit(.enrolled(user, displayName: "Work phone"))])
    }

    @Test func smsErrorsSendTheUserWhereTheyCanFixThem() {
        var tester = FlowTester(SecondFactorEnrollmentFeature.sms(accountName: "ada@example.com"))
        let unverified = AuthError.server("UNVERIFIED_EMAIL : Need to verify email first before enrolling second factors.")
        tester.handle(.codeSent(.failure(unverified)),
                      steps: [.banner(.error(unverified, advice: "Press v on the account screen and open the email in the outbox (m)."))])
        let naming = SecondFactorEnrollmentFeature.Step.namingPhone(phone: "+15555550100", verificationID: "v", code: "000000",
                                                                 name: MfaFixtures.field("Work", maxLength: 40))
        tester.flow.step = naming
        let wrong = AuthError.server("INVALID_CODE")
        tester.handle(.enrolled(.failure(wrong)), steps: [.banner(.error(wrong, advice: "Check the text and type the code again."))]) {
            $0.step = .enteringSmsCode(phone: "+15555550100", verificationID: "v", code: codeField())
        }
        for message in ["SESSION_EXPIRED", "TOO_MANY_ATTEMPTS_TRY_LATER : Too many wrong codes"] {
            tester.flow.step = naming
            let error = AuthError.server(message)
            tester.handle(.enrolled(.failure(error)), steps: [.banner(.error(error, advice: "Press r to text a new code."))]) {
                $0.step = .enteringSmsCode(phone: "+15555550100", verificationID: "v", code: codeField())
            }
        }
        for (message, advice) in [("SECOND_FACTOR_EXISTS : Phone number already enrolled", "That number is already one of your factors."),
                                  ("SECOND_FACTOR_LIMIT_EXCEEDED", "Remove a factor first.")] {
            tester.flow.step = naming
            let error = AuthError.server(message)
            tester.handle(.enrolled(.failure(error)), steps: [.banner(.error(error, advice: advice)), .exit(.cancelled)])
        }
        let offline = AuthError(.networkError)
        tester.handle(.enrolled(.failure(offline)), steps: [.banner(.error(offline))])
        tester.flow.step = .enteringNumber(TextField(maxLength: 24))
        tester.perform(.back, steps: [.banner(nil), .exit(.cancelled)])
        tester.flow.step = .enteringSmsCode(phone: "+15555550100", verificationID: "v", code: codeField())
        tester.perform(.back, steps: [.banner(nil)]) { $0.step = .enteringNumber(MfaFixtures.field("+15555550100", maxLength: 24)) }
    }

    @Test func totpSecretCodeNameThenEnrolled() {
        let (flow, steps) = SecondFactorEnrollmentFeature.totp(accountName: "ada@example.com")
        #expect(steps == [.banner(nil), .run(.secondFactorEnrollment(.generateTotpSecret), busy: "Asking for a new TOTP secret…")])
        #expect(flow.step == .generatingSecret)
        #expect(flow.bindings(in: Fixtures.signedOut).isEmpty)
        var tester = FlowTester(flow)
        let secret = MfaFixtures.secret
        tester.handle(.totpSecretGenerated(.success(secret))) { $0.step = .scanning(secret) }
        #expect(tester.flow.qrURI(for: secret) == "otpauth://totp/AuthDeck:ada@example.com?secret=\(secret.sharedSecretKey)&issuer=AuthDeck")
        tester.perform(.submit, steps: [.banner(nil)]) { $0.step = .enteringTotpCode(secret, code: codeField()) }
        tester.perform(.back, steps: [.banner(nil)]) { $0.step = .scanning(secret) }
        tester.perform(.submit, steps: [.banner(nil)]) { $0.step = .enteringTotpCode(secret, code: codeField()) }
        tester.type("98") { $0.step = .enteringTotpCode(secret, code: MfaFixtures.code("98")) }
        tester.perform(.submit, steps: [.banner(Banner(.error, "Enter the 6 digits the app shows now."))])
        tester.type("7654") { $0.step = .enteringTotpCode(secret, code: MfaFixtures.code("987654")) }
        tester.perform(.submit, steps: [.banner(nil)]) {
            $0.step = .namingApp(secret, code: "987654", name: MfaFixtures.field("Authenticator app", maxLength: 40))
        }
        tester.perform(.back, steps: [.banner(nil)]) { $0.step = .enteringTotpCode(secret, code: MfaFixtures.code("987654")) }
        tester.perform(.submit, steps: [.banner(nil)]) {
            $0.step = .namingApp(secret, code: "987654", name: MfaFixtures.field("Authenticator app", maxLength: 40))
        }
        tester.perform(.submit, steps: [.banner(nil), .run(.secondFactorEnrollment(.enroll(.totpEnrollment(secret, oneTimePassword: "987654"), displayName: "Authenticator app")),
                                                           busy: "Enrolling Authenticator app…")])
        let user = MfaFixtures.verifiedUser(factors: [MfaFixtures.totpHint])
        tester.handle(.enrolled(.success(user)), steps: [.exit(.enrolled(user, displayName: "Authenticator app"))])
    }

    @Test func totpErrors() {
        let secret = MfaFixtures.secret
        let naming = SecondFactorEnrollmentFeature.Step.namingApp(secret, code: "000000", name: MfaFixtures.field("App", maxLength: 40))
        var tester = FlowTester(SecondFactorEnrollmentFeature(accountName: "ada@example.com", step: naming))
        let wrong = AuthError.server("INVALID_CODE")
        tester.handle(.enrolled(.failure(wrong)), steps: [.banner(.error(wrong, advice: "Type the code the app shows now (the clocks must agree)."))]) {
            $0.step = .enteringTotpCode(secret, code: codeField())
        }
        tester.flow.step = naming
        let expired = AuthError.server("SESSION_EXPIRED")
        tester.handle(.enrolled(.failure(expired)), steps: [
            .banner(.error(expired, advice: "That secret can no longer be used: scan the new QR code.")),
            .run(.secondFactorEnrollment(.generateTotpSecret), busy: "Asking for a new TOTP secret…"),
        ]) { $0.step = .generatingSecret }
        let unsupported = AuthError.server("UNSUPPORTED_FIRST_FACTOR : MFA is not available for the given first factor.")
        tester.handle(.totpSecretGenerated(.failure(unsupported)), steps: [
            .banner(.error(unsupported, advice: "Sign in with email and password (or a provider) to enroll.")), .exit(.cancelled),
        ])
        tester.flow.step = .scanning(secret)
        tester.perform(.back, steps: [.banner(nil), .exit(.cancelled)])
        tester.perform(.resend)
    }
}
