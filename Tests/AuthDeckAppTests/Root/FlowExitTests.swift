import AppData
@testable import AuthDeckApp
import AuthClient
import Foundation
import Testing
import TerminalUI

/// Every way out of a flow is one `FlowExit` through `leaveFlow`: one banner and one cart load,
/// whether the session's own news (`authStateChanged`) arrives before the flow's result or after it.
@Suite("One cart load per way out of a flow, whichever order the session's news arrives in")
struct FlowExitTests {
    private func cartLoads(_ effects: [ConsoleEffect]) -> [String] {
        effects.compactMap { effect in
            if case let .loadCart(uid) = effect { return uid }
            if case let .mergeCart(_, uid) = effect { return uid }
            return nil
        }
    }

    @Test(arguments: [true, false])
    func anAnonymousSignIn(authStateFirst: Bool) {
        var model = ConsoleModel(backendName: "embedded")
        model.screen = .signInMethods(SignInMethodsFeature(selection: 0))
        var loads = cartLoads(model.handle(.key(.enter)))
        let result = AuthDataResult(user: Fixtures.anonymous, additionalUserInfo: AdditionalUserInfo(providerID: nil, isNewUser: true))
        let news: [ConsoleEvent] = [.authStateChanged(Fixtures.anonymous, nil), .signInFinished(.success(result))]
        for event in authStateFirst ? news : news.reversed() { loads += cartLoads(model.handle(event)) }
        #expect(loads == [Fixtures.anonymous.uid])
        #expect(model.user == Fixtures.anonymous)
        #expect(model.screen == .account(AccountFeature()))
        #expect(model.banner == Banner(.success, "Account created."))
    }

    /// The session's news of another account leaves the console on the one it shows: the sign-in's
    /// landing adopts the new one, once; a fresh copy of the account shown is taken at once.
    @Test func aUserIsAdoptedOncePerSignIn() {
        var model = ConsoleModel(backendName: "embedded")
        model.screen = .signInMethods(SignInMethodsFeature(selection: 0))
        _ = model.handle(.authStateChanged(Fixtures.anonymous, nil))
        #expect(model.user == nil)
        let result = AuthDataResult(user: Fixtures.anonymous, additionalUserInfo: AdditionalUserInfo(providerID: nil, isNewUser: true))
        #expect(model.handle(.signInFinished(.success(result))) == [.loadCart(uid: Fixtures.anonymous.uid)])
        #expect(model.user == Fixtures.anonymous)
        let other = Fixtures.passwordUser()
        _ = model.handle(.authStateChanged(other, nil))
        #expect(model.user == Fixtures.anonymous)
        var renamed = Fixtures.anonymous
        renamed.displayName = "Guest"
        _ = model.handle(.authStateChanged(renamed, nil))
        #expect(model.user == renamed)
    }

    @Test(arguments: [true, false])
    func aPhoneSignInThatTheFeatureEnds(authStateFirst: Bool) {
        let user = Fixtures.passwordUser(extraProviders: [UserInfo(providerID: "phone", uid: "+15555550100")])
        var phone = PhoneFeature(purpose: .signIn)
        phone.step = .enteringCode(phone: "+15555550100", verificationID: "verification-1", code: TextField(text: "123456", maxLength: 6))
        var model = ConsoleModel(backendName: "embedded")
        model.screen = .phone(phone)
        var loads = cartLoads(model.handle(.key(.enter)))
        let result = AuthDataResult(user: user, additionalUserInfo: AdditionalUserInfo(providerID: "phone", isNewUser: false))
        let news: [ConsoleEvent] = [.authStateChanged(user, nil), .phone(.signInFinished(.success(result)))]
        for event in authStateFirst ? news : news.reversed() { loads += cartLoads(model.handle(event)) }
        #expect(loads == [user.uid])
        #expect(model.banner == Banner(.success, "Signed in."))
    }

    /// The account that had the email is signed in to, then the pending credential is linked to it:
    /// the guest's cart is merged in once, and the link's end loads nothing more.
    @Test(arguments: [true, false])
    func aPendingLinkFinishedOnTheAccountSignedIntoForIt(authStateFirst: Bool) {
        let ada = Fixtures.passwordUser()
        let pending = PendingLink(credential: FederatedFixtures.updatedGoogle, email: ada.email, reason: .emailInUse,
                                  previousAnonymousUid: Fixtures.anonymous.uid)
        var model = Fixtures.signedIn(Fixtures.anonymous)
        model.screen = .credentialForm(Fixtures.form(.signInToLink(pending), email: "ada@example.com", password: "correct horse"))
        var loads = cartLoads(model.handle(.key(.enter)))
        let signedIn = AuthDataResult(user: ada, additionalUserInfo: AdditionalUserInfo(providerID: "password", isNewUser: false))
        var news: [ConsoleEvent] = [.authStateChanged(ada, nil), .signInFinished(.success(signedIn))]
        for event in authStateFirst ? news : news.reversed() { loads += cartLoads(model.handle(event)) }
        let linked = AuthDataResult(user: Fixtures.passwordUser(extraProviders: [UserInfo(providerID: "google.com", uid: "g-1")]),
                                    additionalUserInfo: AdditionalUserInfo(providerID: "google.com", isNewUser: false))
        news = [.authStateChanged(linked.user, nil), .linkFinished(.success(linked))]
        var effects: [ConsoleEffect] = []
        for event in authStateFirst ? news : news.reversed() { effects += model.handle(event) }
        loads += cartLoads(effects)
        #expect(loads == [ada.uid])
        #expect(effects == [.deleteLeftGuest(uid: Fixtures.anonymous.uid)])
        #expect(model.banner?.text.hasPrefix("Signed in to ada@example.com and linked Google to it.") == true)
        #expect(model.linkAfterSignIn == nil)
    }
}
