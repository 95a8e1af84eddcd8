import AppData
@testable import AuthClient
@testable import AuthDeckApp
import Foundation
import SnapshotTesting
import Testing
import TerminalUI

/// The passwordless, email-change and outbox-problem screens at 80×24, as text.
@Suite("Screen snapshots: email links, email change, sign-in methods of an email, outbox problems")
struct EmailLinkSnapshotTests {
    static let backend = "embedded · authdeck-local"

    static func rows(_ text: String) -> [Substring] { text.split(separator: "\n", omittingEmptySubsequences: false) }

    @Test func signingInWithAnEmailLink() {
        var model = ConsoleModel(backendName: Self.backend)
        model.screen = .signInMethods(.selecting(.emailLink))
        let methods = render(model)
        assertSnapshot(of: methods, as: .lines, named: "methods")
        #expect(methods.contains("Sign in with an email link (passwordless)"))
        model.screen = .emailLink(EmailLinkFeature(purpose: .signIn, step: .enteringEmail(TextField(text: "lin@example.com", maxLength: 254))))
        assertSnapshot(of: render(model), as: .lines, named: "address")
        model.screen = .emailLink(EmailLinkFeature(purpose: .signIn, step: .sent(email: "lin@example.com")))
        model.banner = Banner(.info, "A sign-in link to lin@example.com is in the outbox: press m and open it.")
        let sent = render(model)
        assertSnapshot(of: sent, as: .lines, named: "sent")
        #expect(sent.contains("m messages: open the link"))
        model.outbox = Outbox(emails: [EmailLinkFlowTests.message(to: "lin@example.com")])
        model.overlay = .outbox(selection: 0)
        let outbox = render(model)
        assertSnapshot(of: outbox, as: .lines, named: "outbox")
        #expect(outbox.contains("Sign in with this link"))
        #expect(Self.rows(outbox).count == 24)
    }

    @Test func anOpenedLinkWhileSignedIn() {
        var model = Fixtures.signedIn(Fixtures.anonymous)
        model.screen = .emailLink(EmailLinkFeature(purpose: .signIn, step: .opening(email: "other@example.com", link: EmailLinkFlowTests.link, selection: 0)))
        model.banner = Banner(.info, "This link signs in as other@example.com. You are signed in as \(Fixtures.anonymous.uid): choose what it does.")
        let text = render(model)
        assertSnapshot(of: text, as: .lines)
        #expect(text.contains("Link other@example.com to this account"))
        #expect(text.contains("Sign in as other@example.com instead"))
    }

    @Test func changingTheEmail() {
        var model = Fixtures.signedIn(Fixtures.passwordUser())
        let account = render(model)
        #expect(account.contains("ada@example.com"))
        var form = ChangeEmailFeature()
        form.newEmail = TextField(text: "ada@new.example", maxLength: 254)
        model.screen = .changeEmail(form)
        assertSnapshot(of: render(model), as: .lines, named: "verify-first")
        form.mode = .atOnce
        model.screen = .changeEmail(form)
        let atOnce = render(model)
        assertSnapshot(of: atOnce, as: .lines, named: "at-once")
        #expect(atOnce.contains("(•) change it at once"))
        model.screen = .account(AccountFeature())
        model.overlay = .help
        #expect(render(model).contains("change the email"))
    }

    @Test func theSignInMethodsOfAnEmailOnTheAccountExistsScreen() {
        var model = ConsoleModel(backendName: Self.backend)
        let pending = PendingLink(credential: FederatedFixtures.updatedFacebook, email: "mark@example.com", reason: .accountExists)
        model.screen = .pendingLink(PendingLinkFeature(pending: pending, knownMethods: ["google.com", "password"]))
        let told = render(model)
        assertSnapshot(of: told, as: .lines, named: "told")
        #expect(told.contains("The backend says mark@example.com signs in with: Google,"))
        #expect(told.contains("  Email and password.\n"))
        model.screen = .pendingLink(PendingLinkFeature(pending: pending, knownMethods: []))
        let protected = render(model)
        assertSnapshot(of: protected, as: .lines, named: "protected")
        #expect(protected.contains("Email-enumeration protection is on"))
    }

    @Test func anOutboxThatCouldNotBeRead() {
        var model = Fixtures.signedIn(Fixtures.passwordUser())
        let refused = AuthError(.internalError, serverMessage: "Request had invalid authentication credentials.")
        model.outbox = Outbox(problem: .unreadable(AuthEmulatorOutbox.ReadFailure(.administratorsOnly, refused)))
        model.overlay = .outbox(selection: 0)
        let text = render(model)
        assertSnapshot(of: text, as: .lines, named: "administrators-only")
        #expect(!text.contains("No messages"))
        #expect(text.contains("AUTHDECK_ADMIN_TOKEN"))
        for row in Self.rows(text)[2...21] { #expect(row.hasSuffix("│"), "\(row)") }
        model.outbox = Outbox(problem: .unreadable(AuthEmulatorOutbox.ReadFailure(.unknownProject("authdeck-local"), .server("PROJECT_NOT_FOUND"))))
        let project = render(model)
        assertSnapshot(of: project, as: .lines, named: "unknown-project")
        #expect(project.contains("--project"))
    }
}
