@testable import AuthClient
import Foundation
import IdentityEmulator
import IdentityTestSupport
import IdentityToolkit
import Testing

/// A real embedded backend on SQLite in a fresh temporary directory, reached in process or over
/// HTTP through the served backend, with one movable clock for the backend and the clients.
struct Harness {
    let served: TestBackend
    let clock: TestClock

    var directory: URL { served.directory }

    /// A client with its own session file and transport, as a separate console would have.
    func auth(session name: String = "session.json") -> Auth {
        Auth(backend: served.makeTransport(), sessionStore: FileSessionStore(url: directory.appendingPathComponent(name)), clock: clock.read)
    }
}

func withHarness(_ transport: BackendTransport, _ configuration: EmbeddedBackendConfiguration = EmbeddedBackendConfiguration(),
                 _ body: (Harness) async throws -> Void) async throws {
    let clock = TestClock()
    try await withTestBackend(transport, configuration: configuration, clock: clock.read) { served in
        try await body(Harness(served: served, clock: clock))
    }
}

func expectAuthError(_ code: AuthErrorCode, sourceLocation: SourceLocation = #_sourceLocation, _ body: () async throws -> Void) async {
    do {
        try await body()
        Issue.record("expected \(code), got success", sourceLocation: sourceLocation)
    } catch let error as AuthError {
        #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
    } catch {
        Issue.record("expected AuthError \(code), got \(error)", sourceLocation: sourceLocation)
    }
}

@Suite("Auth against the embedded backend, in process and over HTTP", .timeLimit(.minutes(3)))
struct AuthTests {
    @Test(arguments: BackendTransport.allCases)
    func anonymousSignInThenUpgradeKeepsTheUid(_ transport: BackendTransport) async throws {
        try await withHarness(transport) { harness in
            let auth = harness.auth()
            let anonymous = try await auth.signInAnonymously()
            #expect(anonymous.user.isAnonymous)
            #expect(anonymous.user.providerData.isEmpty)
            #expect(anonymous.additionalUserInfo?.isNewUser == true)
            #expect(try await auth.idTokenResult().signInProvider == "anonymous")
            let again = try await auth.signInAnonymously()
            #expect(again.user.uid == anonymous.user.uid)

            let linked = try await auth.link(with: EmailAuthProvider.credential(withEmail: "Ada@Example.com", password: "hunter22"))
            #expect(linked.user.uid == anonymous.user.uid)
            #expect(!linked.user.isAnonymous)
            #expect(linked.user.email == "ada@example.com")
            #expect(linked.user.providerData.map(\.providerID) == ["password"])
            await expectAuthError(.providerAlreadyLinked) {
                _ = try await auth.link(with: EmailAuthProvider.credential(withEmail: "ada@example.com", password: "hunter22"))
            }

            await auth.signOut()
            #expect(await auth.currentUser == nil)
            let back = try await auth.signIn(email: "ada@example.com", password: "hunter22")
            #expect(back.user.uid == anonymous.user.uid)
        }
    }

    @Test(arguments: BackendTransport.allCases)
    func theSessionSurvivesARestart(_ transport: BackendTransport) async throws {
        try await withHarness(transport) { harness in
            let first = harness.auth()
            let created = try await first.createUser(email: "grace@example.com", password: "hopper1")
            let second = harness.auth()
            let restored = try await second.restoreSession()
            #expect(restored?.uid == created.user.uid)
            #expect(try await second.reload().email == "grace@example.com")
            let attributes = try FileManager.default.attributesOfItem(atPath: harness.directory.appendingPathComponent("session.json").path)
            #expect((attributes[.posixPermissions] as? Int) == 0o600)
        }
    }

    @Test(arguments: BackendTransport.allCases)
    func anUnreadableSessionFileIsReportedAndKept(_ transport: BackendTransport) async throws {
        try await withHarness(transport) { harness in
            let url = harness.directory.appendingPathComponent("session.json")
            try Data("not json".utf8).write(to: url)
            await #expect(throws: (any Error).self) { try await harness.auth().restoreSession() }
            #expect(try Data(contentsOf: url) == Data("not json".utf8))
        }
    }

    @Test(arguments: BackendTransport.allCases)
    func serverErrorsMapToFirebaseCodes(_ transport: BackendTransport) async throws {
        try await withHarness(transport) { harness in
            let auth = harness.auth()
            _ = try await auth.createUser(email: "taken@example.com", password: "secret1")
            await auth.signOut()
            await expectAuthError(.emailAlreadyInUse) { _ = try await auth.createUser(email: "taken@example.com", password: "secret1") }
            await expectAuthError(.weakPassword) { _ = try await auth.createUser(email: "new@example.com", password: "12345") }
            await expectAuthError(.invalidEmail) { _ = try await auth.createUser(email: "not-an-email", password: "secret1") }
            await expectAuthError(.invalidCredential) { _ = try await auth.signIn(email: "taken@example.com", password: "wrong!!") }
            await expectAuthError(.invalidCredential) { _ = try await auth.signIn(email: "nobody@example.com", password: "secret1") }
            #expect(await auth.currentUser == nil)
        }
    }

    @Test(arguments: BackendTransport.allCases)
    func withoutEnumerationProtectionTheCodesAreSpecific(_ transport: BackendTransport) async throws {
        var configuration = EmbeddedBackendConfiguration()
        configuration.emailEnumerationProtection = false
        try await withHarness(transport, configuration) { harness in
            let auth = harness.auth()
            _ = try await auth.createUser(email: "taken@example.com", password: "secret1")
            await auth.signOut()
            await expectAuthError(.wrongPassword) { _ = try await auth.signIn(email: "taken@example.com", password: "wrong!!") }
            await expectAuthError(.userNotFound) { _ = try await auth.signIn(email: "nobody@example.com", password: "secret1") }
        }
    }

    @Test(arguments: BackendTransport.allCases)
    func unlinkingAProviderThatIsNotLinkedFailsOnTheClient(_ transport: BackendTransport) async throws {
        try await withHarness(transport) { harness in
            let auth = harness.auth()
            _ = try await auth.signInAnonymously()
            await expectAuthError(.noSuchProvider) { try await auth.unlink(fromProvider: "password") }
            _ = try await auth.link(with: EmailAuthProvider.credential(withEmail: "u@example.com", password: "secret1"))
            let user = try await auth.unlink(fromProvider: "password")
            #expect(user.providerData.isEmpty)
            #expect(user.email == nil)
        }
    }

    @Test(arguments: BackendTransport.allCases)
    func sensitiveOperationsNeedARecentSignInAndReauthenticationFixesIt(_ transport: BackendTransport) async throws {
        try await withHarness(transport) { harness in
            let auth = harness.auth()
            let created = try await auth.createUser(email: "ada@example.com", password: "hunter22")
            harness.clock.advance(6 * 60)
            await expectAuthError(.requiresRecentLogin) { try await auth.updatePassword(to: "newpass1") }
            #expect(await auth.currentUser?.uid == created.user.uid)

            _ = try await auth.createUser(email: "other@example.com", password: "other11")
            let other = harness.auth(session: "other.json")
            _ = try await other.signIn(email: "ada@example.com", password: "hunter22")
            harness.clock.advance(6 * 60)
            await expectAuthError(.userMismatch) {
                _ = try await other.reauthenticate(with: EmailAuthProvider.credential(withEmail: "other@example.com", password: "other11"))
            }
            await expectAuthError(.invalidCredential) {
                _ = try await other.reauthenticate(with: EmailAuthProvider.credential(withEmail: "ada@example.com", password: "wrong!!"))
            }
            _ = try await other.reauthenticate(with: EmailAuthProvider.credential(withEmail: "ada@example.com", password: "hunter22"))
            try await other.updatePassword(to: "newpass1")
            #expect(try await other.reload().uid == created.user.uid)

            await auth.signOut()
            await expectAuthError(.invalidCredential) { _ = try await auth.signIn(email: "ada@example.com", password: "hunter22") }
            _ = try await auth.signIn(email: "ada@example.com", password: "newpass1")
        }
    }

    @Test(arguments: BackendTransport.allCases)
    func aPasswordChangeEndsOtherSessions(_ transport: BackendTransport) async throws {
        try await withHarness(transport) { harness in
            let laptop = harness.auth(session: "laptop.json")
            let phone = harness.auth(session: "phone.json")
            _ = try await laptop.createUser(email: "ada@example.com", password: "hunter22")
            _ = try await phone.signIn(email: "ada@example.com", password: "hunter22")
            try await laptop.updatePassword(to: "newpass1")
            #expect(try await laptop.reload().email == "ada@example.com")
            await expectAuthError(.userTokenExpired) { _ = try await phone.idToken(forceRefresh: true) }
            #expect(await phone.currentUser == nil)
            #expect(await phone.sessionEndReason == .userTokenExpired)
            await laptop.signOut()
            #expect(await laptop.sessionEndReason == nil)
        }
    }

    @Test(arguments: BackendTransport.allCases)
    func tokensRefreshBeforeTheyExpireAndKeepTheSignInTime(_ transport: BackendTransport) async throws {
        try await withHarness(transport) { harness in
            let auth = harness.auth()
            _ = try await auth.createUser(email: "ada@example.com", password: "hunter22")
            let first = try await auth.idTokenResult()
            harness.clock.advance(50 * 60)
            #expect(try await auth.idTokenResult().token == first.token)
            harness.clock.advance(6 * 60)
            let refreshed = try await auth.idTokenResult()
            #expect(refreshed.token != first.token)
            #expect(refreshed.authDate == first.authDate)
            #expect(refreshed.issuedAtDate! > first.issuedAtDate!)
        }
    }

    @Test(arguments: BackendTransport.allCases)
    func deletingTheAccountSignsOut(_ transport: BackendTransport) async throws {
        try await withHarness(transport) { harness in
            let auth = harness.auth()
            _ = try await auth.createUser(email: "ada@example.com", password: "hunter22")
            try await auth.delete()
            #expect(await auth.currentUser == nil)
            #expect(try await harness.auth().restoreSession() == nil)
            await expectAuthError(.invalidCredential) { _ = try await auth.signIn(email: "ada@example.com", password: "hunter22") }
        }
    }

    @Test(arguments: BackendTransport.allCases)
    func authStateChangesFollowTheUser(_ transport: BackendTransport) async throws {
        try await withHarness(transport) { harness in
            let auth = harness.auth()
            var changes = await auth.authStateChanges().makeAsyncIterator()
            #expect(await changes.next() == .some(nil))
            let user = try await auth.signInAnonymously().user
            #expect(await changes.next()??.uid == user.uid)
            await auth.signOut()
            #expect(await changes.next() == .some(nil))
        }
    }

    @Test(arguments: BackendTransport.allCases)
    func exchangesAreRecordedForTheInspector(_ transport: BackendTransport) async throws {
        try await withHarness(transport) { harness in
            let auth = harness.auth()
            _ = try await auth.signInAnonymously()
            let entries = await auth.backend.exchanges.entries
            #expect(entries.map(\.path) == ["/identitytoolkit.googleapis.com/v1/accounts:signUp", "/identitytoolkit.googleapis.com/v1/accounts:lookup"])
            #expect(entries.allSatisfy { $0.status == 200 })
        }
    }

    @Test(arguments: BackendTransport.allCases)
    func backgroundReloadsThatChangeNothingFoldIntoOneEntry(_ transport: BackendTransport) async throws {
        try await withHarness(transport) { harness in
            let auth = harness.auth()
            _ = try await auth.createUser(email: "ada@example.com", password: "hunter22")
            for _ in 0..<12 { try await auth.reloadInBackground() }
            var entries = await auth.backend.exchanges.entries
            #expect(entries.count == 3)
            #expect(entries.last?.isBackground == true)
            #expect(entries.last?.repeats == 12)
            // What the user asks for stands on its own row, and so does a background call after it.
            _ = try await auth.reload()
            try await auth.reloadInBackground()
            entries = await auth.backend.exchanges.entries
            #expect(entries.suffix(3).map(\.isBackground) == [true, false, true])
            #expect(entries.suffix(3).map(\.repeats) == [12, 1, 1])
            // An account changed elsewhere answers differently: a new row, which later repeats fold into.
            let other = harness.auth(session: "other.json")
            _ = try await other.signIn(email: "ada@example.com", password: "hunter22")
            try await other.updateEmail(to: "ada.l@example.com")
            try await auth.reloadInBackground()
            try await auth.reloadInBackground()
            try await auth.reloadInBackground()
            entries = await auth.backend.exchanges.entries
            #expect(entries.suffix(2).map(\.repeats) == [1, 3])
            #expect(entries.suffix(2).allSatisfy { $0.isBackground })
        }
    }
}
