import AppData
@testable import AuthDeckApp
import AuthClient
import Foundation
import IdentityEmulator
import IdentityTestSupport
import Logging
import Synchronization
import Testing

/// The effect runner's federated work against a real embedded backend and a real cart store.
@Suite("Federated effects against the embedded backend")
struct FederatedEffectRunnerTests {
    struct Setup {
        let directory: URL
        let backend: EmbeddedBackend
        let auth: Auth
        let cart: CartStore
        let runner: EffectRunner

        init() throws {
            directory = FileManager.default.temporaryDirectory.appendingPathComponent("authdeck-app-\(UUID().uuidString)")
            backend = try EmbeddedBackend(dataDirectory: directory)
            auth = Auth(backend: backend.transport())
            cart = try CartStore()
            runner = EffectRunner(auth: auth, cart: cart, logger: Logger(label: "test"), send: { _ in })
        }

        /// An identity at the simulated provider and a consent, through the runner as the console does it.
        func consent(_ provider: OAuthProvider, name: String, email: String) async throws -> ProviderAuthorization {
            guard case let .federated(.simulatedIdentityAdded(_, .success(identity)))? = await runner.perform(
                .federated(.addSimulatedIdentity(providerID: provider.providerID, name: name, email: email))) else { throw AuthError(.internalError) }
            guard case let .federated(.providerAuthorized(.success(authorization)))? = await runner.perform(
                .federated(.authorize(provider, subject: identity.subject, hideEmail: nil))) else { throw AuthError(.internalError) }
            return authorization
        }
    }

    let microsoft = OAuthProvider(providerID: "microsoft.com", scopes: ["openid", "email", "profile"])

    @Test func theConsentDrawsAFreshNonceEachTime() async throws {
        let setup = try Setup()
        let first = try await setup.consent(OAuthProvider(providerID: "apple.com", scopes: ["email"]), name: "Ada", email: "ada@example.com")
        let raw = try #require(first.rawNonce)
        #expect(raw.count == 32)
        #expect(first.hashedNonce == OAuthProvider.sha256(raw))
        #expect(first.idTokenClaims?["nonce"]?.stringValue == first.hashedNonce)
        let facebook = try await setup.consent(OAuthProvider(providerID: "facebook.com", scopes: ["email"]), name: "Mark", email: "mark@example.com")
        #expect(facebook.rawNonce == nil)
        guard case let .federated(.providerDirectoryLoaded(_, .success(list)))? = await setup.runner.perform(.federated(.loadProviderDirectory(providerID: "apple.com"))) else {
            Issue.record("no directory")
            return
        }
        #expect(list.identities.map(\.email) == ["ada@example.com"])
        #expect(list.identities.first?.authorized == true)
    }

    @Test func theConflictIsInspectedAsideThenMergedAndTheAnonymousAccountDeleted() async throws {
        let setup = try Setup()
        let auth = setup.auth
        let other = try await auth.createUser(email: "bob@example.com", password: "hunter22").user
        try setup.cart.add("book", to: other.uid)
        _ = try await auth.link(with: try await setup.consent(microsoft, name: "Carol", email: "carol@contoso.com").credential)
        await auth.signOut()

        let anonymous = try await auth.signInAnonymously().user
        try setup.cart.add("apple", to: anonymous.uid)
        try setup.cart.add("book", to: anonymous.uid)
        let carol = try #require(await carolSubject(setup))
        guard case let .federated(.providerAuthorized(.success(again)))? = await setup.runner.perform(.federated(.authorize(microsoft, subject: carol, hideEmail: nil))) else {
            Issue.record("no consent")
            return
        }
        guard case let .linkFinished(.failure(conflict))? = await setup.runner.perform(.link(again.credential)) else {
            Issue.record("expected a link failure")
            return
        }
        #expect(conflict.code == .credentialAlreadyInUse)
        let updated = try #require(conflict.updatedCredential)

        guard case let .federated(.conflictAccountLoaded(.success(snapshot)))? = await setup.runner.perform(.federated(.inspectConflictAccount(updated))) else {
            Issue.record("the other account was not shown")
            return
        }
        #expect(snapshot.uid == other.uid)
        #expect(snapshot.providerIDs.sorted() == ["microsoft.com", "password"])
        #expect(snapshot.cart == [CartItem(uid: other.uid, name: "book", quantity: 1)])
        #expect(await auth.currentUser?.uid == anonymous.uid)

        let plan = MergePlan(credential: updated, previousUid: anonymous.uid, deletePrevious: true)
        guard case let .federated(.mergeFinished(.success(outcome)))? = await setup.runner.perform(.federated(.mergeAccounts(plan))) else {
            Issue.record("the merge failed")
            return
        }
        #expect(outcome.deletionFailure == nil)
        #expect(outcome.result.user.uid == other.uid)
        #expect(await auth.currentUser?.uid == other.uid)
        #expect(try setup.cart.items(of: other.uid) == [CartItem(uid: other.uid, name: "apple", quantity: 1), CartItem(uid: other.uid, name: "book", quantity: 2)])
        #expect(try setup.cart.items(of: anonymous.uid).isEmpty)
        // An administrator's lookup finds no such account any more.
        #expect(try await setup.backend.accountExists(uid: anonymous.uid) == false)
    }

    @Test func aStaleNonAnonymousAccountIsKeptWhenItCannotBeDeleted() async throws {
        let clock = MovableClock()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("authdeck-app-\(UUID().uuidString)")
        let backend = try EmbeddedBackend(dataDirectory: directory, clock: clock.read)
        let auth = Auth(backend: backend.transport(), clock: clock.read)
        let cart = try CartStore()
        let runner = EffectRunner(auth: auth, cart: cart, logger: Logger(label: "test"), send: { _ in })
        let other = try await auth.createUser(email: "bob@example.com", password: "hunter22").user
        await auth.signOut()
        let previous = try await auth.createUser(email: "ada@example.com", password: "hunter22").user
        try cart.add("pear", to: previous.uid)
        clock.advance(10 * 60)
        let plan = MergePlan(credential: EmailAuthProvider.credential(withEmail: "bob@example.com", password: "hunter22"),
                             previousUid: previous.uid, deletePrevious: true)
        guard case let .federated(.mergeFinished(.success(outcome)))? = await runner.perform(.federated(.mergeAccounts(plan))) else {
            Issue.record("the merge failed")
            return
        }
        #expect(outcome.deletionFailure?.code == .requiresRecentLogin)
        #expect(outcome.result.user.uid == other.uid)
        #expect(try cart.items(of: other.uid) == [CartItem(uid: other.uid, name: "pear", quantity: 1)])
        _ = try await auth.signIn(email: "ada@example.com", password: "hunter22")
    }

    private func carolSubject(_ setup: Setup) async throws -> String? {
        guard case let .federated(.providerDirectoryLoaded(_, .success(list)))? = await setup.runner.perform(.federated(.loadProviderDirectory(providerID: "microsoft.com"))) else {
            return nil
        }
        return list.identities.first?.subject
    }
}

/// A clock the test moves by hand, shared by the backend and the client.
final class MovableClock: Sendable {
    private let now = Mutex(Date(timeIntervalSince1970: 1_790_000_000))
    func advance(_ seconds: TimeInterval) { now.withLock { $0 += seconds } }
    var read: @Sendable () -> Date { { self.now.withLock { $0 } } }
}
