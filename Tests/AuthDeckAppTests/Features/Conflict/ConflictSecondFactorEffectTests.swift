import AppData
@testable import AuthDeckApp
import AuthClient
import Foundation
import IdentityEmulator
import IdentityTestSupport
import Testing

/// The link-conflict merge into an account with a second factor, against a real embedded backend
/// and a real cart store: the preview and the switch stop at the factor; the texted code finishes both.
@Suite("Link conflict with a second factor, against the embedded backend")
struct ConflictSecondFactorEffectTests {
    let microsoft = OAuthProvider(providerID: "microsoft.com", scopes: ["openid", "email", "profile"])

    // Generous, as for the other HTTP suites: the whole suite runs in parallel on few cores.
    @Test(.timeLimit(.minutes(3)), arguments: BackendTransport.allCases)
    func theSwitchStopsAtTheSecondFactorAndTheCodeFinishesTheMerge(_ transport: BackendTransport) async throws {
        try await EffectRunnerHarness.with(transport) { setup in
            let auth = setup.auth
            let other = try await auth.createUser(email: "bob@example.com", password: "hunter22").user
            try await setup.cart.add("book", to: other.uid)
            _ = try await auth.link(with: try await setup.consent(microsoft, name: "Carol", email: "carol@contoso.com").credential)
            await auth.signOut()
            // An administrator gives the other account a phone factor.
            #expect(await setup.backend.enrollPhoneFactor(uid: other.uid, phoneNumber: "+15555550100", displayName: "Bob's phone") == 200)

            let anonymous = try await auth.signInAnonymously().user
            try await setup.cart.add("apple", to: anonymous.uid)
            guard case let .providerDirectoryLoaded(_, .success(list))? = await setup.runner.perform(.consent(.loadProviderDirectory(providerID: "microsoft.com"))).feature(ConsentFeature.Event.self),
                  let carol = list.identities.first?.subject,
                  case let .providerAuthorized(.success(again))? = await setup.runner.perform(.consent(.authorize(microsoft, subject: carol, hideEmail: nil))).feature(ConsentFeature.Event.self),
                  case let .linkFinished(.failure(conflict))? = await setup.runner.perform(.link(again.credential)),
                  let updated = conflict.updatedCredential else {
                Issue.record("no link conflict")
                return
            }

            // The preview cannot see past the second factor; it says which factors there are.
            guard case let .conflictAccountLoaded(.failure(preview))? = await setup.runner.perform(.conflict(.inspectConflictAccount(updated))).feature(ConflictFeature.Event.self) else {
                Issue.record("the preview signed in without a second factor")
                return
            }
            #expect(preview.code == .secondFactorRequired)
            #expect(preview.multiFactorChallenge?.hints.map(\.displayName) == ["Bob's phone"])
            #expect(await auth.currentUser?.uid == anonymous.uid)

            // The switch stops there too, with nothing changed.
            let plan = MergePlan(credential: updated, previousUid: anonymous.uid, deletePrevious: true)
            guard case let .mergeFinished(.failure(stopped))? = await setup.runner.perform(.conflict(.mergeAccounts(plan))).feature(ConflictFeature.Event.self),
                  let challenge = stopped.multiFactorChallenge, case let .phone(hint)? = challenge.hints.first else {
                Issue.record("the switch did not ask for the second factor")
                return
            }
            #expect(hint.phoneNumber == "+*******0100")
            #expect(await auth.currentUser?.uid == anonymous.uid)
            #expect(try await setup.cart.items(of: anonymous.uid) == [CartItem(uid: anonymous.uid, name: "apple", quantity: 1)])

            guard case let .codeSent(.success(verificationID))? = await setup.runner.perform(.secondFactorSignIn(.startSecondFactorSignIn(hint, challenge))).feature(SecondFactorSignInFeature.Event.self) else {
                Issue.record("no code texted")
                return
            }
            let outbox = AuthEmulatorOutbox(backend: setup.served.makeTransport(), projectId: setup.backend.projectId)
            let code = try #require(try await outbox.texts().first { $0.verificationID == verificationID }?.code)
            let assertion = PhoneMultiFactorGenerator.assertion(with: PhoneAuthProvider.credential(withVerificationID: verificationID, verificationCode: code))
            guard case let .secondFactorMergeFinished(.success(outcome))? = await setup.runner.perform(.secondFactorSignIn(.resolveMerge(challenge, assertion, plan))).feature(SecondFactorSignInFeature.Event.self) else {
                Issue.record("the merge failed")
                return
            }
            #expect(outcome.deletionFailure == nil)
            #expect(outcome.result.user.uid == other.uid)
            #expect(await auth.currentUser?.uid == other.uid)
            #expect(try await setup.cart.items(of: other.uid) == [CartItem(uid: other.uid, name: "apple", quantity: 1), CartItem(uid: other.uid, name: "book", quantity: 1)])
            #expect(try await setup.cart.items(of: anonymous.uid).isEmpty)
            #expect(try await setup.backend.accountExists(uid: anonymous.uid) == false)
        }
    }
}
