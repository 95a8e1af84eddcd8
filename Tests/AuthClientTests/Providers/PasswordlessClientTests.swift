@testable import AuthClient
import Foundation
import IdentityEmulator
import IdentityTestSupport
import IdentityToolkit
import Testing

extension Harness {
    /// Email-enumeration protection off, as the emulator's default and `PATCH …/config` set it.
    func disableEnumerationProtection() async throws {
        let response = await served.backend.handle(WireRequest(
            method: "PATCH", path: "/emulator/v1/projects/\(served.backend.projectId)/config",
            body: Data(#"{"emailPrivacyConfig":{"enableImprovedEmailPrivacy":false}}"#.utf8)))
        #expect(response.status == 200)
    }

    /// The newest email of one kind to `email`.
    func lastMessage(_ action: AuthEmulatorOutbox.Email.Action, to email: String) async throws -> AuthEmulatorOutbox.Email {
        try #require(try await outbox.emails().last { $0.to == email && $0.action == action })
    }
}

// Generous: the whole test run shares a few cores, and a call may wait its turn.
@Suite("Custom tokens, email links and email changes, in process and over HTTP", .timeLimit(.minutes(5)))
struct PasswordlessClientTests {
    @Test(arguments: BackendTransport.allCases)
    func aCustomTokenSignsInWithItsDeveloperClaims(_ transport: BackendTransport) async throws {
        try await withHarness(transport) { harness in
            let auth = harness.auth()
            let result = try await auth.signIn(withCustomToken: #"{"uid":"player-7","claims":{"tier":"gold"}}"#)
            #expect(result.user.uid == "player-7")
            #expect(result.user.isAnonymous == false)
            #expect(result.additionalUserInfo?.isNewUser == true)
            let token = try await auth.idTokenResult()
            #expect(token.signInProvider == CustomAuthProvider.id)
            #expect(token.claims["tier"]?.stringValue == "gold")
            // Still there after a refresh.
            #expect(try await auth.idTokenResult(forceRefresh: true).claims["tier"]?.stringValue == "gold")
            await expectAuthError(.invalidCustomToken) { _ = try await harness.auth(session: "other.json").signIn(withCustomToken: "junk") }
        }
    }

    @Test(arguments: BackendTransport.allCases)
    func aSharedBackendRefusesAnUnsignedCustomToken(_ transport: BackendTransport) async throws {
        try await withHarness(transport, EmbeddedBackendConfiguration(adminToken: "0123456789abcdef-admin")) { harness in
            await expectAuthError(.invalidCustomToken) { _ = try await harness.auth().signIn(withCustomToken: #"{"uid":"someone"}"#) }
            #expect(await harness.auth().currentUser == nil)
        }
    }

    @Test(arguments: BackendTransport.allCases)
    func anEmailLinkFromTheOutboxSignsIn(_ transport: BackendTransport) async throws {
        try await withHarness(transport) { harness in
            let auth = harness.auth()
            try await auth.sendSignInLink(toEmail: "link@example.com", continueURL: "https://app.example.com")
            let message = try await harness.lastMessage(.signIn, to: "link@example.com")
            #expect(auth.isSignIn(withEmailLink: message.link))
            #expect(!auth.isSignIn(withEmailLink: "https://app.example.com/?mode=resetPassword&oobCode=x"))
            #expect(auth.isSignIn(withEmailLink: "https://app.page.link/?link=" + (message.link.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")))
            await expectAuthError(.invalidEmail) { _ = try await auth.signIn(withEmail: "other@example.com", link: message.link) }
            let result = try await auth.signIn(withEmail: "link@example.com", link: message.link)
            #expect(result.user.email == "link@example.com")
            #expect(result.user.emailVerified)
            #expect(result.additionalUserInfo?.isNewUser == true)
            #expect(try await auth.idTokenResult().signInProvider == EmailAuthProvider.id)
            await expectAuthError(.invalidActionCode) { _ = try await auth.signIn(withEmail: "link@example.com", link: message.link) }
        }
    }

    @Test(arguments: BackendTransport.allCases)
    func anEmailLinkCredentialUpgradesAnAnonymousAccount(_ transport: BackendTransport) async throws {
        try await withHarness(transport) { harness in
            let auth = harness.auth()
            let guest = try await auth.signInAnonymously().user
            try await auth.sendSignInLink(toEmail: "upgrade@example.com")
            let message = try await harness.lastMessage(.signIn, to: "upgrade@example.com")
            let linked = try await auth.link(with: EmailAuthProvider.credential(withEmail: "upgrade@example.com", link: message.link))
            #expect(linked.user.uid == guest.uid)
            #expect(linked.user.isAnonymous == false)
            #expect(linked.user.email == "upgrade@example.com")
            #expect(linked.user.emailVerified)
            #expect(linked.user.providerData.map(\.providerID) == [EmailAuthProvider.id])
            // The link was used: it signs in no one now.
            await expectAuthError(.invalidActionCode) {
                _ = try await harness.auth(session: "other.json").signIn(withEmail: "upgrade@example.com", link: message.link)
            }
            // And a link to that address later signs in to the same account.
            try await auth.sendSignInLink(toEmail: "upgrade@example.com")
            let again = try await harness.lastMessage(.signIn, to: "upgrade@example.com")
            let other = harness.auth(session: "other.json")
            #expect(try await other.signIn(with: EmailAuthProvider.credential(withEmail: "upgrade@example.com", link: again.link)).user.uid == guest.uid)
        }
    }

    @Test(arguments: BackendTransport.allCases)
    func signInMethodsAreToldOnlyWithProtectionOff(_ transport: BackendTransport) async throws {
        try await withHarness(transport) { harness in
            let auth = harness.auth()
            _ = try await auth.createUser(email: "methods@example.com", password: "hunter22")
            #expect(try await auth.fetchSignInMethods(forEmail: "methods@example.com") == [])
            try await harness.disableEnumerationProtection()
            #expect(try await auth.fetchSignInMethods(forEmail: "methods@example.com") == ["password"])
            #expect(try await auth.fetchSignInMethods(forEmail: "nobody@example.com") == [])
        }
    }

    @Test(arguments: BackendTransport.allCases)
    func updateEmailChangesItAndTheOldAddressCanTakeItBack(_ transport: BackendTransport) async throws {
        try await withHarness(transport) { harness in
            let auth = harness.auth()
            _ = try await auth.createUser(email: "before@example.com", password: "hunter22")
            try await auth.updateEmail(to: "after@example.com")
            #expect(await auth.currentUser?.email == "after@example.com")
            // The session goes on with the new tokens.
            #expect(try await auth.reload().email == "after@example.com")

            let recover = try await harness.lastMessage(.recoverEmail, to: "before@example.com")
            // Revocation counts whole seconds, as Firebase's `validSince` does.
            harness.clock.advance(1)
            try await auth.applyActionCode(recover.oobCode)
            // Recovery ends every session, this one included.
            #expect(await auth.currentUser == nil)
            let back = try await auth.signIn(email: "before@example.com", password: "hunter22")
            #expect(back.user.email == "before@example.com")
            #expect(back.user.emailVerified)
        }
    }

    @Test(arguments: BackendTransport.allCases)
    func verifyBeforeUpdateEmailChangesWhenTheLinkIsOpened(_ transport: BackendTransport) async throws {
        try await withHarness(transport) { harness in
            let auth = harness.auth()
            _ = try await auth.createUser(email: "current@example.com", password: "hunter22")
            try await auth.verifyBeforeUpdateEmail(to: "next@example.com")
            #expect(try await auth.reload().email == "current@example.com")
            let message = try await harness.lastMessage(.verifyAndChangeEmail, to: "next@example.com")
            harness.clock.advance(1)
            try await auth.applyActionCode(message.oobCode)
            #expect(await auth.currentUser == nil)
            let signedIn = try await auth.signIn(email: "next@example.com", password: "hunter22")
            #expect(signedIn.user.emailVerified)
            _ = try await harness.auth(session: "other.json").createUser(email: "busy@example.com", password: "hunter22")
            await expectAuthError(.emailAlreadyInUse) { try await auth.verifyBeforeUpdateEmail(to: "busy@example.com") }
        }
    }
}
