@testable import AuthClient
@testable import AuthDeckApp
import Foundation
import SnapshotTesting
import Testing
import TerminalUI

/// The second-factor, phone, password-reset and outbox screens at 80×24, as text.
@Suite("Screen snapshots: second factors, phone, password reset, outbox")
struct VerificationScreenSnapshotTests {
    static let outbox = Outbox(
        emails: [Outbox.Email(to: "ada@example.com", action: .verifyEmail, oobCode: "oobCodeOfSomeLength",
                              link: "http://localhost:9099/emulator/action?mode=verifyEmail&lang=en&oobCode=oobCodeOfSomeLength&apiKey=fake-api-key")],
        texts: [Outbox.TextMessage(to: "+15555550100", code: "482913", verificationID: "v1")])

    func model(_ screen: Screen, factors: [MultiFactorInfo] = [MfaFixtures.totpHint, .phone(PhoneMultiFactorInfo(
        uid: "p", displayName: "Work phone", enrollmentDate: Fixtures.created, phoneNumber: "+15555550100"))]) -> ConsoleModel {
        var model = Fixtures.signedIn(MfaFixtures.verifiedUser(factors: factors))
        model.screen = screen
        model.outbox = Self.outbox
        return model
    }

    @Test func secondFactorsAndTheirRemoval() {
        let text = render(model(.secondFactors(SecondFactorsFeature(selection: 1))))
        assertSnapshot(of: text, as: .lines, named: "list")
        #expect(text.contains("+*******0100"))
        #expect(text.contains("enrolled 2026-09-21"))
        var unverified = model(.secondFactors(SecondFactorsFeature(selection: 0)), factors: [])
        unverified.user?.emailVerified = false
        let empty = render(unverified)
        assertSnapshot(of: empty, as: .lines, named: "empty-unverified")
        // The empty list names the keys the bar offers.
        #expect(empty.contains("none yet: p adds an SMS factor, t an authenticator app"))
        #expect(empty.contains("p add SMS · t add authenticator"))
        let confirm = render(model(.confirm(ConfirmationFeature(subject: .unenroll(MfaFixtures.totpHint), over: .secondFactors(SecondFactorsFeature(selection: 0))))))
        assertSnapshot(of: confirm, as: .lines, named: "confirm-removal")
    }

    @Test func smsEnrollmentSteps() {
        assertSnapshot(of: render(model(.secondFactorEnrollment(.sms(accountName: "ada@example.com")))), as: .lines, named: "number")
        let code = render(model(.secondFactorEnrollment(SecondFactorEnrollmentFeature(accountName: "ada@example.com",
            step: .enteringSmsCode(phone: "+15555550100", verificationID: "v1", code: MfaFixtures.code("48"))))))
        assertSnapshot(of: code, as: .lines, named: "code-with-phone-pane")
        #expect(code.contains("482913"))
        assertSnapshot(of: render(model(.secondFactorEnrollment(SecondFactorEnrollmentFeature(accountName: "ada@example.com",
            step: .namingPhone(phone: "+15555550100", verificationID: "v1", code: "482913", name: MfaFixtures.field("Phone ending 0100", maxLength: 40)))))),
                       as: .lines, named: "name")
    }

    @Test func totpEnrollmentShowsAQRCodeThatFits80By24() throws {
        var qr = model(.secondFactorEnrollment(SecondFactorEnrollmentFeature(accountName: "ada@example.com", step: .scanning(MfaFixtures.secret))))
        qr.banner = Banner(.info, "hidden behind the QR code on 80×24")
        let text = render(qr)
        assertSnapshot(of: text, as: .lines, named: "qr")
        #expect(text.contains("JBSW Y3DP EHPK 3PXP"))
        #expect(!text.contains("hidden behind"))
        // The QR code stays between the title bar and the key bar: the title bar is whole, and no cell of the
        // code is on its row or the key bar's.
        let canvas = TextCanvas(size: Size(width: 80, height: 24))
        ConsoleView.draw(qr, on: canvas)
        let codeRows = (0..<24).filter { row in (0..<80).contains { canvas.style(atRow: row, column: $0).role == .qrCode } }
        #expect(codeRows == Array(1...22))
        #expect(canvas.lines[0].hasPrefix(" AuthDeck · Add an authenticator app"))
        #expect(canvas.lines[0].hasSuffix("embedded · ada@example.com"))
        #expect(text.contains("enter added it: next"))
        // Beside a long backend name the bar is as on every screen: the title whole, who is signed in too.
        var longStatus = ConsoleModel(backendName: "demo project visitor-8cc9afc7b9d34e21")
        longStatus.user = qr.user
        longStatus.screen = qr.screen
        let titleRow = render(longStatus).split(separator: "\n").first.map(String.init) ?? ""
        #expect(titleRow.hasPrefix(" AuthDeck · Add an authenticator app "))
        #expect(titleRow.hasSuffix(" · ada@example.com"))
        let small = render(qr, size: Size(width: 80, height: 22))
        #expect(small.contains("too small") || small.contains("enlarge the terminal"))
        let ascii = TextCanvas(size: Size(width: 80, height: 24), symbols: .ascii)
        ConsoleView.draw(qr, on: ascii)
        #expect(ascii.text.contains("needs a UTF-8 terminal"))
        #expect(ascii.text.contains("JBSW Y3DP EHPK 3PXP"))
        let code = render(model(.secondFactorEnrollment(SecondFactorEnrollmentFeature(accountName: "ada@example.com",
            step: .enteringTotpCode(MfaFixtures.secret, code: MfaFixtures.code("1234"))))))
        assertSnapshot(of: code, as: .lines, named: "code")
        // The key's label stays on the screen, never cut mid-word.
        #expect(code.contains("Key, to type instead:"))
        let rows: [String] = code.components(separatedBy: "\n")
        #expect(rows.dropFirst().dropLast().allSatisfy { $0.count < 80 || $0.hasSuffix(" ") })
    }

    @Test func factorSelectionAndCodeEntry() {
        var signedOut = ConsoleModel(backendName: "embedded · authdeck-local")
        signedOut.outbox = Self.outbox
        let challenge = MfaFixtures.challenge()
        var flow = SecondFactorSignInFeature(challenge: challenge, purpose: .signIn)
        flow.step = .choosingFactor(selection: 1)
        signedOut.screen = .secondFactorSignIn(flow)
        signedOut.banner = Banner(.info, "This account has 2-step verification: choose a second factor.")
        let choosing = render(signedOut)
        assertSnapshot(of: choosing, as: .lines, named: "choose")
        #expect(choosing.contains("+*******0100"))
        flow.step = .enteringCode(MfaFixtures.phoneHint, verificationID: "v1", code: MfaFixtures.code("4829"))
        signedOut.screen = .secondFactorSignIn(flow)
        signedOut.banner = .error(.server("INVALID_CODE"), advice: "Check the text and type it again.")
        assertSnapshot(of: render(signedOut), as: .lines, named: "sms-code")
    }

    @Test func phoneSignInAndTheLinkConflict() {
        var signedOut = ConsoleModel(backendName: "embedded · authdeck-local")
        signedOut.outbox = Self.outbox
        var flow = PhoneFeature(purpose: .signIn)
        flow.step = .enteringCode(phone: "+15555550100", verificationID: "v1", code: codeField())
        signedOut.screen = .phone(flow)
        assertSnapshot(of: render(signedOut), as: .lines, named: "code")
        var link = PhoneFeature(purpose: .link)
        link.step = .conflict(phone: "+15555550100", credential: .phone(PhoneAuthCredential(proof: .temporaryProof("p", phoneNumber: "+15555550100"))),
                              signInSelected: true)
        assertSnapshot(of: render(model(.phone(link))), as: .lines, named: "conflict")
    }

    /// The empty outbox's text stays inside the box's right border at 80 columns.
    @Test func theEmptyOutboxKeepsItsBorder() {
        var empty = model(.account(AccountFeature()))
        empty.outbox = Outbox()
        empty.overlay = .outbox(selection: 0)
        let rows = render(empty).split(separator: "\n", omittingEmptySubsequences: false)
        #expect(rows.count == 24)
        for row in rows[2...21] { #expect(row.hasSuffix("│"), "\(row)") }
        #expect(render(empty).contains("│ here."))
    }

    @Test func passwordResetAndTheOutbox() {
        var signedOut = ConsoleModel(backendName: "embedded · authdeck-local")
        signedOut.screen = .passwordReset(PasswordResetFeature(step: .sent(email: "ada@example.com")))
        assertSnapshot(of: render(signedOut), as: .lines, named: "sent")
        signedOut.screen = .passwordReset(.choosingPassword(code: "oob", email: "ada@example.com"))
        assertSnapshot(of: render(signedOut), as: .lines, named: "new-password")
        signedOut.outbox = Self.outbox
        signedOut.overlay = .outbox(selection: 0)
        let outbox = render(signedOut)
        assertSnapshot(of: outbox, as: .lines, named: "outbox")
        #expect(outbox.contains("enter open the link"))
    }
}
