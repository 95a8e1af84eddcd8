import AppData
@testable import AuthDeckApp
import AuthClient
import Foundation
import Testing
import TerminalUI

/// Every sign-in or link result returns to the feature that asked, which calls one routine for what
/// all of them share (a second factor, a pending link, a link conflict); every landing is a
/// `FlowExit` through `leaveFlow`.
@Suite("One road for auth results")
struct AuthResultRoadTests {
    private static var secondFactorRequired: AuthError {
        var error = AuthError(.secondFactorRequired)
        error.multiFactorChallenge = MfaFixtures.challenge()
        return error
    }

    private static func phoneScreen(_ purpose: PhoneFeature.Purpose) -> PhoneFeature {
        var phone = PhoneFeature(purpose: purpose)
        phone.step = .enteringCode(phone: "+15555550100", verificationID: "verification-1", code: TextField(text: "123456", maxLength: 6))
        return phone
    }

    /// The session's sign-in (a password) and the phone screen's own both lead to the second factor.
    @Test func aSecondFactorFollowsEverySignInWhicheverFeatureAsked() {
        var form = ConsoleModel(backendName: "embedded")
        form.screen = .credentialForm(Fixtures.form(.signIn, email: "ada@example.com", password: "correct horse"))
        _ = form.handle(.signInFinished(.failure(Self.secondFactorRequired)))
        var phone = ConsoleModel(backendName: "embedded")
        phone.screen = .phone(Self.phoneScreen(.signIn))
        _ = phone.handle(.feature(PhoneFeature.Event.signInFinished(.failure(Self.secondFactorRequired))))
        for model in [form, phone] {
            guard case let .secondFactorSignIn(feature) = model.screen else {
                Issue.record("\(model.screen.title) instead of the second factor")
                continue
            }
            #expect(feature.challenge == MfaFixtures.challenge())
            #expect(feature.purpose == .signIn)
        }
    }

    /// A sign-in refused for another account's email opens the pending link, from the phone screen too.
    @Test func anAccountThatExistsOpensThePendingLinkFromThePhoneScreen() {
        var model = ConsoleModel(backendName: "embedded")
        model.screen = .phone(Self.phoneScreen(.signIn))
        let error = AuthError(.accountExistsWithDifferentCredential, updatedCredential: FederatedFixtures.updatedGoogle, email: "ada@example.com")
        let effects = model.handle(.feature(PhoneFeature.Event.signInFinished(.failure(error))))
        #expect(model.screen == .pendingLink(PendingLinkFeature(pending: PendingLink(credential: FederatedFixtures.updatedGoogle, email: "ada@example.com",
                                                                                       reason: .accountExists))))
        #expect(effects == [.pendingLink(.fetchSignInMethods(email: "ada@example.com"))])
    }

    /// A failure no route takes is the asking feature's to show: the phone screen keeps its own advice.
    @Test func aFailureNoRouteTakesIsShownByTheFeatureThatAsked() {
        var model = ConsoleModel(backendName: "embedded")
        model.screen = .phone(Self.phoneScreen(.signIn))
        _ = model.handle(.feature(PhoneFeature.Event.signInFinished(.failure(AuthError(.invalidVerificationCode)))))
        #expect(model.banner?.detail?.contains("Check the text and type the code again.") == true
            || model.banner?.text.contains("Check the text and type the code again.") == true)
        guard case .phone = model.screen else {
            Issue.record("left the phone screen")
            return
        }
    }

    /// A link refused because another account holds the credential opens the conflict, whichever screen asked.
    @Test func aLinkConflictOpensTheConflictScreen() {
        var model = Fixtures.signedIn(Fixtures.anonymous)
        let error = AuthError(.credentialAlreadyInUse, updatedCredential: FederatedFixtures.updatedGoogle, email: "ada@example.com")
        let effects = model.handle(.linkFinished(.failure(error)))
        guard case let .conflict(conflict) = model.screen else {
            Issue.record("\(model.screen.title) instead of the conflict")
            return
        }
        #expect(conflict.credential == FederatedFixtures.updatedGoogle)
        #expect(effects == [.conflict(.inspectConflictAccount(FederatedFixtures.updatedGoogle))])
    }

    /// A sensitive operation's end lands through `leaveFlow`, as every flow's does.
    @Test(arguments: [SensitiveOperation.updatePassword("new password 1"), .deleteAccount, .verifyBeforeUpdateEmail("new@example.com")])
    func aSensitiveOperationLandsThroughLeaveFlow(_ operation: SensitiveOperation) {
        var byEvent = Fixtures.signedIn(Fixtures.passwordUser())
        byEvent.screen = .changePassword(ChangePasswordFeature())
        var byExit = byEvent
        let effects = byEvent.handle(.sensitiveOperationFinished(operation, .success(nil)))
        #expect(effects == byExit.leaveFlow(.operationFinished(operation, nil)))
        #expect(byEvent.screen == byExit.screen)
        #expect(byEvent.banner == byExit.banner)
        #expect(byEvent.screen != .changePassword(ChangePasswordFeature()))
    }

    /// Unlinking lands through `leaveFlow` too, whether it worked or not.
    @Test(arguments: [true, false])
    func unlinkingLandsThroughLeaveFlow(worked: Bool) {
        let linked = Fixtures.passwordUser(extraProviders: [UserInfo(providerID: "google.com", uid: "g-1")])
        let result: Result<User, AuthError> = worked ? .success(Fixtures.passwordUser()) : .failure(AuthError(.noSuchProvider))
        var byEvent = Fixtures.signedIn(linked)
        byEvent.screen = .linking(LinkingFeature(selection: 0))
        var byExit = byEvent
        _ = byEvent.handle(.unlinkFinished(providerID: "google.com", result))
        _ = byExit.leaveFlow(.unlinked(providerID: "google.com", result))
        #expect(byEvent.screen == byExit.screen)
        #expect(byEvent.banner == byExit.banner)
        #expect(byEvent.user == (worked ? Fixtures.passwordUser() : linked))
        guard case .account = byEvent.screen else {
            Issue.record("\(byEvent.screen.title) instead of the account")
            return
        }
    }

    /// A session that ends without a flow of this screen (the backend, an email change, the room's
    /// reset) lands through `leaveFlow` too: the sign-in methods, the account and its cart gone.
    @Test func aSessionEndedElsewhereLandsThroughLeaveFlow() {
        var byEvent = Fixtures.signedIn(Fixtures.passwordUser())
        byEvent.cart = [CartItem(uid: Fixtures.passwordUser().uid, name: "book", quantity: 1)]
        var byExit = byEvent
        _ = byEvent.handle(.authStateChanged(nil, nil, endedBy: .userDisabled))
        _ = byExit.leaveFlow(.sessionEnded(Banner(.error, ConsoleModel.sessionEndText(.userDisabled))))
        #expect(byEvent.screen == byExit.screen)
        #expect(byEvent.banner == byExit.banner)
        #expect(byEvent.user == nil && byEvent.cart.isEmpty)
        #expect(byEvent.screen == .signInMethods(SignInMethodsFeature(selection: 0)))
    }
}
