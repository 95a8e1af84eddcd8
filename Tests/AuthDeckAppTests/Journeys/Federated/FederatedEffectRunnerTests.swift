import AppData
@testable import AuthDeckApp
import AuthClient
import Foundation
import IdentityEmulator
import IdentityTestSupport
import Testing

/// The effect runner's federated work against a real embedded backend and a real cart store.
@Suite("Federated effects against the embedded backend")
struct FederatedEffectRunnerTests {
    let microsoft = OAuthProvider(providerID: "microsoft.com", scopes: ["openid", "email", "profile"])

    // Generous, as for the other HTTP suites: the whole suite runs in parallel on few cores.
    @Test(.timeLimit(.minutes(3)), arguments: BackendTransport.allCases)
    func theConsentDrawsAFreshNonceEachTime(_ transport: BackendTransport) async throws {
        try await EffectRunnerHarness.with(transport) { setup in
            let first = try await setup.consent(OAuthProvider(providerID: "apple.com", scopes: ["email"]), name: "Ada", email: "ada@example.com")
            let raw = try #require(first.rawNonce)
            // 32 random bytes as hex, as the SDK pane's nonce code makes it.
            #expect(raw.count == 64 && raw.allSatisfy(\.isHexDigit))
            #expect(first.hashedNonce == OAuthProvider.sha256(raw))
            #expect(first.idTokenClaims?["nonce"]?.stringValue == first.hashedNonce)
            let facebook = try await setup.consent(OAuthProvider(providerID: "facebook.com", scopes: ["email"]), name: "Mark", email: "mark@example.com")
            #expect(facebook.rawNonce == nil)
            guard case let .providerDirectoryLoaded(_, .success(list))? = await setup.runner.perform(.consent(.loadProviderDirectory(providerID: "apple.com"))).feature(ConsentFeature.Event.self) else {
                Issue.record("no directory")
                return
            }
            #expect(list.identities.map(\.email) == ["ada@example.com"])
            #expect(list.identities.first?.authorized == true)
        }
    }

    @Test(.timeLimit(.minutes(3)), arguments: BackendTransport.allCases)
    func theConflictIsInspectedAsideThenMergedAndTheAnonymousAccountDeleted(_ transport: BackendTransport) async throws {
        try await EffectRunnerHarness.with(transport) { setup in
            let auth = setup.auth
            let other = try await auth.createUser(email: "bob@example.com", password: "hunter22").user
            try await setup.cart.add("book", to: other.uid)
            _ = try await auth.link(with: try await setup.consent(microsoft, name: "Carol", email: "carol@contoso.com").credential)
            await auth.signOut()

            let anonymous = try await auth.signInAnonymously().user
            try await setup.cart.add("apple", to: anonymous.uid)
            try await setup.cart.add("book", to: anonymous.uid)
            let carol = try #require(await carolSubject(setup))
            guard case let .providerAuthorized(.success(again))? = await setup.runner.perform(.consent(.authorize(microsoft, subject: carol, hideEmail: nil))).feature(ConsentFeature.Event.self) else {
                Issue.record("no consent")
                return
            }
            guard case let .linkFinished(.failure(conflict))? = await setup.runner.perform(.link(again.credential)) else {
                Issue.record("expected a link failure")
                return
            }
            #expect(conflict.code == .credentialAlreadyInUse)
            let updated = try #require(conflict.updatedCredential)

            guard case let .conflictAccountLoaded(.success(snapshot))? = await setup.runner.perform(.conflict(.inspectConflictAccount(updated))).feature(ConflictFeature.Event.self) else {
                Issue.record("the other account was not shown")
                return
            }
            #expect(snapshot.uid == other.uid)
            #expect(snapshot.providerIDs.sorted() == ["microsoft.com", "password"])
            #expect(snapshot.cart == [CartItem(uid: other.uid, name: "book", quantity: 1)])
            #expect(await auth.currentUser?.uid == anonymous.uid)

            let plan = MergePlan(credential: updated, previousUid: anonymous.uid, deletePrevious: true)
            guard case let .mergeFinished(.success(outcome))? = await setup.runner.perform(.conflict(.mergeAccounts(plan))).feature(ConflictFeature.Event.self) else {
                Issue.record("the merge failed")
                return
            }
            #expect(outcome.deletionFailure == nil)
            #expect(outcome.result.user.uid == other.uid)
            #expect(await auth.currentUser?.uid == other.uid)
            #expect(try await setup.cart.items(of: other.uid) == [CartItem(uid: other.uid, name: "apple", quantity: 1), CartItem(uid: other.uid, name: "book", quantity: 2)])
            #expect(try await setup.cart.items(of: anonymous.uid).isEmpty)
            // An administrator's lookup finds no such account any more.
            #expect(try await setup.backend.accountExists(uid: anonymous.uid) == false)
        }
    }

    @Test(.timeLimit(.minutes(3)), arguments: BackendTransport.allCases)
    func aStalePreviousAccountIsDeletedAfterItsOwnReauthentication(_ transport: BackendTransport) async throws {
        try await EffectRunnerHarness.with(transport) { setup in
            let (auth, cart, runner, clock) = (setup.auth, setup.cart, setup.runner, setup.clock)
            let other = try await auth.createUser(email: "bob@example.com", password: "hunter22").user
            await auth.signOut()
            let previous = try await auth.createUser(email: "ada@example.com", password: "hunter22").user
            try await cart.add("pear", to: previous.uid)
            clock.advance(10 * 60)
            let plan = MergePlan(credential: EmailAuthProvider.credential(withEmail: "bob@example.com", password: "hunter22"),
                                 previousUid: previous.uid, deletePrevious: true)
            guard case let .mergeFinished(.success(outcome))? = await runner.perform(.conflict(.mergeAccounts(plan))).feature(ConflictFeature.Event.self) else {
                Issue.record("the merge failed")
                return
            }
            #expect(outcome.deletionFailure?.code == .requiresRecentLogin)
            #expect(outcome.result.user.uid == other.uid)
            #expect(try await cart.items(of: other.uid) == [CartItem(uid: other.uid, name: "pear", quantity: 1)])
            #expect(try await setup.backend.accountExists(uid: previous.uid))

            // As the SDKs' requiresRecentLogin flow: the previous account is reauthenticated on its own session, then deleted.
            let operation = SensitiveOperation.deletePreviousAccount(AccountSnapshot(user: previous, cart: []))
            let bobsPassword = EmailAuthProvider.credential(withEmail: "bob@example.com", password: "hunter22")
            guard case let .reauthenticationFinished(_, .failure(mismatch))? = await runner.perform(.reauthenticate(bobsPassword, then: operation)) else {
                Issue.record("another account's password confirmed the previous account")
                return
            }
            #expect(mismatch.code == .userMismatch)
            let adasPassword = EmailAuthProvider.credential(withEmail: "ada@example.com", password: "hunter22")
            guard case .reauthenticationFinished(_, .success)? = await runner.perform(.reauthenticate(adasPassword, then: operation)) else {
                Issue.record("the reauthentication failed")
                return
            }
            #expect(await auth.currentUser?.uid == other.uid)
            guard case let .sensitiveOperationFinished(_, .success(current))? = await runner.perform(.perform(operation)) else {
                Issue.record("the deletion failed")
                return
            }
            #expect(current?.uid == other.uid)
            #expect(await auth.currentUser?.uid == other.uid)
            #expect(try await setup.backend.accountExists(uid: previous.uid) == false)
        }
    }

    @Test(.timeLimit(.minutes(3)), arguments: BackendTransport.allCases)
    func aGuestWhoseLinkFinishesOnAnotherAccountIsDeletedThere(_ transport: BackendTransport) async throws {
        try await EffectRunnerHarness.with(transport) { setup in
            let (auth, runner) = (setup.auth, setup.runner)
            let alan = try await auth.createUser(email: "alan@gmail.com", password: "hunter22").user
            await auth.signOut()
            let guest = try await auth.signInAnonymously().user
            try await setup.cart.add("apple", to: guest.uid)
            let google = try await setup.consent(OAuthProvider(providerID: "google.com", scopes: ["email"]), name: "Alan", email: "alan@gmail.com")
            guard case let .linkFinished(.failure(taken))? = await runner.perform(.link(google.credential)), taken.code == .emailAlreadyInUse,
                  let updated = taken.updatedCredential else {
                Issue.record("expected emailAlreadyInUse")
                return
            }
            // The console's steps: sign in to the account with the email, the cart, the link, then the guest account.
            guard case .signInFinished(.success)? = await runner.perform(.signIn(EmailAuthProvider.credential(withEmail: "alan@gmail.com", password: "hunter22"))),
                  case .cartChanged(_, .success)? = await runner.perform(.mergeCart(from: guest.uid, into: alan.uid)),
                  case .linkFinished(.success)? = await runner.perform(.link(updated)) else {
                Issue.record("the pending link did not finish")
                return
            }
            #expect(try await setup.backend.accountExists(uid: guest.uid))
            guard case let .leftGuestDeleted(uid, failure)? = await runner.perform(.deleteLeftGuest(uid: guest.uid)) else {
                Issue.record("no answer for the guest account")
                return
            }
            #expect(uid == guest.uid)
            #expect(failure == nil)
            #expect(try await setup.backend.accountExists(uid: guest.uid) == false)
            #expect(await auth.currentUser?.uid == alan.uid)
            #expect(try await setup.cart.items(of: alan.uid) == [CartItem(uid: alan.uid, name: "apple", quantity: 1)])
        }
    }

    private func carolSubject(_ setup: EffectRunnerHarness) async throws -> String? {
        guard case let .providerDirectoryLoaded(_, .success(list))? = await setup.runner.perform(.consent(.loadProviderDirectory(providerID: "microsoft.com"))).feature(ConsentFeature.Event.self) else {
            return nil
        }
        return list.identities.first?.subject
    }
}
