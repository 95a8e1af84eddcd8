import AppData
@testable import AuthClient
@testable import AuthDeckApp
import Foundation
import Testing
import TerminalUI

/// A link conflict whose other account has 2-step verification: the preview says so, and the
/// switch goes through factor selection before the merge.
@Suite("Link conflict with a second factor")
struct ConflictSecondFactorFlowTests {
    typealias F = FederatedFixtures

    static let previous = AccountSnapshot(uid: Fixtures.anonymous.uid, isAnonymous: true, email: nil, providerIDs: [],
                                          cart: [CartItem(uid: Fixtures.anonymous.uid, name: "apple", quantity: 2)])
    static let plan = MergePlan(credential: F.updatedMicrosoft, previousUid: Fixtures.anonymous.uid, deletePrevious: true)

    static func secondFactorRequired(_ pending: MultiFactorChallenge) -> AuthError {
        var error = AuthError(.secondFactorRequired)
        error.multiFactorChallenge = pending
        return error
    }

    /// The conflict screen once the other account turned out to need its second factor, "switch + merge" chosen.
    static func conflictNeedingSecondFactor() -> ConflictFeature {
        var state = ConflictFeature(credential: F.updatedMicrosoft, email: "carol@contoso.com", previous: previous)
        state.other = .needsSecondFactor(MfaFixtures.challenge().hints)
        state.choice = 1
        return state
    }

    @Test func thePreviewSaysTheOtherAccountNeedsItsSecondFactorAndTheSwitchAsksForIt() {
        var model = Fixtures.signedIn(Fixtures.anonymous)
        var state = ConflictFeature(credential: F.updatedMicrosoft, email: "carol@contoso.com", previous: Self.previous)
        model.screen = .conflict(state)
        var store = FlowStore(model)
        // The preview's sign-in (on an Auth of its own) stopped at the second factor.
        store.send(.feature(ConflictFeature.Event.conflictAccountLoaded(.failure(Self.secondFactorRequired(MfaFixtures.challenge()))))) {
            state.other = .needsSecondFactor([MfaFixtures.totpHint, MfaFixtures.phoneHint])
            $0.screen = .conflict(state)
        }
        #expect(state.options == [.cancel, .mergeAndDelete])
        store.send(.key(.right)) {
            state.choice = 1
            $0.screen = .conflict(state)
        }
        store.send(.key(.enter), effects: [.conflict(.mergeAccounts(Self.plan))]) { $0.busy = "Merging into the account that has Microsoft…" }

        // The console's own sign-in stops there too: its pending challenge (finished on the console's Auth) drives the factor selection.
        let pending = MfaFixtures.challenge()
        let challenge = SecondFactorSignInFeature(challenge: pending, purpose: .mergeAfterConflict(state))
        store.send(.feature(ConflictFeature.Event.mergeFinished(.failure(Self.secondFactorRequired(pending))))) {
            $0.busy = nil
            $0.screen = .secondFactorSignIn(challenge)
            $0.banner = Banner(.info, "The account that has Microsoft has 2-step verification: choose its second factor.")
        }
        var entering = challenge
        entering.step = .enteringCode(MfaFixtures.totpHint, verificationID: nil, code: codeField())
        store.send(.key(.enter)) {
            $0.screen = .secondFactorSignIn(entering)
            $0.banner = Banner(.info, "Type the 6-digit code your authenticator app shows for this account.")
        }
        entering.step = .enteringCode(MfaFixtures.totpHint, verificationID: nil, code: MfaFixtures.code("123456"))
        store.type("123456") { $0.screen = .secondFactorSignIn(entering) }
        let assertion = TotpMultiFactorGenerator.assertionForSignIn(withEnrollmentID: MfaFixtures.totpInfo.uid, oneTimePassword: "123456")
        store.send(.key(.enter), effects: [.secondFactorSignIn(.resolveMerge(pending, assertion, Self.plan))]) {
            $0.screen = .secondFactorSignIn(entering)
            $0.banner = nil
            $0.busy = "Checking the code, then merging…"
        }

        let bob = Fixtures.passwordUser(uid: "bobUID0000000000000000000001", email: "bob@example.com")
        let data = AuthDataResult(user: bob, additionalUserInfo: AdditionalUserInfo(providerID: "microsoft.com", isNewUser: false))
        store.send(.feature(SecondFactorSignInFeature.Event.secondFactorMergeFinished(.success(MergeOutcome(result: SignedIn(data, cart: .success([]))))))) {
            $0.busy = nil
            $0.user = bob
            $0.screen = .account(AccountFeature())
            $0.banner = Banner(.success, "Signed in to the account that has Microsoft; the cart of \(Fixtures.anonymous.uid) was merged into it. \(Fixtures.anonymous.uid) was deleted.")
        }
    }

    @Test func aWrongCodeStaysInTheChallengeAndBackingOutReturnsToTheConflict() {
        let state = Self.conflictNeedingSecondFactor()
        let pending = MfaFixtures.challenge()
        var challenge = SecondFactorSignInFeature(challenge: pending, purpose: .mergeAfterConflict(state))
        challenge.step = .enteringCode(MfaFixtures.totpHint, verificationID: nil, code: MfaFixtures.code("000000"))
        var model = Fixtures.signedIn(Fixtures.anonymous)
        model.screen = .secondFactorSignIn(challenge)
        model.busy = "Checking the code, then merging…"
        var store = FlowStore(model)

        let wrong = AuthError.server("INVALID_CODE")
        challenge.step = .enteringCode(MfaFixtures.totpHint, verificationID: nil, code: codeField())
        store.send(.feature(SecondFactorSignInFeature.Event.secondFactorMergeFinished(.failure(wrong)))) {
            $0.busy = nil
            $0.screen = .secondFactorSignIn(challenge)
            $0.banner = .error(wrong, advice: "Type the code the app shows now.")
        }
        challenge.step = .choosingFactor(selection: 0)
        store.send(.key(.escape)) {
            $0.screen = .secondFactorSignIn(challenge)
            $0.banner = nil
        }
        // Nothing has changed yet: back on the conflict, still signed in to this account.
        store.send(.key(.escape)) {
            $0.screen = .conflict(state)
            $0.banner = Banner(.info, "Switch cancelled: still signed in to this account, nothing merged.")
        }
        store.send(.key(.escape)) {
            $0.screen = .account(AccountFeature())
            $0.banner = Banner(.info, "Cancelled: Microsoft stays with the other account; this one is unchanged.")
        }
    }

    @Test func theFlowTextsTheCodeThenMergesWithIt() {
        let state = Self.conflictNeedingSecondFactor()
        let pending = MfaFixtures.challenge()
        var flow = SecondFactorSignInFeature(challenge: pending, purpose: .mergeAfterConflict(state))
        flow.step = .choosingFactor(selection: 1)
        var tester = FlowTester(flow)
        tester.perform(.choose, steps: [.banner(nil), .run(.secondFactorSignIn(.startSecondFactorSignIn(MfaFixtures.phoneInfo, pending)), busy: "Texting a code to +*******0100…")])
        tester.handle(.codeSent(.success("verification-1")), steps: [
            .banner(Banner(.info, "A code was texted to +*******0100; it shows in the phone pane (top right).")), .run(.verification(.refreshOutbox), busy: nil),
        ]) { $0.step = .enteringCode(MfaFixtures.phoneHint, verificationID: "verification-1", code: codeField()) }
        tester.type("654321") { $0.step = .enteringCode(MfaFixtures.phoneHint, verificationID: "verification-1", code: MfaFixtures.code("654321")) }
        let assertion = PhoneMultiFactorGenerator.assertion(
            with: PhoneAuthProvider.credential(withVerificationID: "verification-1", verificationCode: "654321"))
        tester.perform(.submit, steps: [.banner(nil), .run(.secondFactorSignIn(.resolveMerge(pending, assertion, Self.plan)), busy: "Checking the code, then merging…")])
        let outcome = MergeOutcome(result: SignedIn(MfaFixtures.signedIn(Fixtures.passwordUser()), cart: .success([])))
        tester.handle(.secondFactorMergeFinished(.success(outcome)), steps: [.exit(.merged(outcome, state))])
        // An expired pending credential means starting over from the account.
        let expired = AuthError(.invalidMultiFactorSession, serverMessage: "INVALID_MFA_PENDING_CREDENTIAL")
        tester.handle(.secondFactorMergeFinished(.failure(expired)), steps: [.exit(.restartSignIn(.error(expired, advice: "Sign in again.")))]) {
            $0.step = .enteringCode(MfaFixtures.phoneHint, verificationID: "verification-1", code: codeField())
        }
    }

    @Test func theConflictScreenListsTheOtherAccountsFactors() {
        var model = Fixtures.signedIn(Fixtures.anonymous)
        model.screen = .conflict(Self.conflictNeedingSecondFactor())
        let canvas = TextCanvas(size: Size(width: 80, height: 24))
        ConsoleView.draw(model, on: canvas)
        let text = canvas.text
        #expect(text.contains("It has 2-step verification:"))
        #expect(text.contains("TOTP Authenticator app"))
        #expect(text.contains("SMS  +*******0100 Work phone"))
        #expect(text.contains("Its uid, email and cart show once"))
        #expect(text.contains("[>Switch + merge cart<]"))
        #expect(text.contains("Its second factor first, then this cart moves there; this one is deleted."))
    }
}
