import AppData
@testable import AuthDeckApp
import AuthClient
import Foundation
import Testing
import TerminalUI

/// Every way out of a flow is one `FlowExit` through `leaveFlow`: one banner, and a sign-in's
/// account adopted once with the cart that came with it, whether the session's own news
/// (`authStateChanged`) arrives before the flow's result or after it.
@Suite("A sign-in lands once, with its cart, whichever order the session's news arrives in")
struct FlowExitTests {
    private static func cart(of user: User) -> [CartItem] {
        [CartItem(uid: user.uid, name: "apple", quantity: 2), CartItem(uid: user.uid, name: "pear", quantity: 1)]
    }

    @Test(arguments: [true, false])
    func anAnonymousSignIn(authStateFirst: Bool) {
        var model = ConsoleModel(backendName: "embedded")
        model.screen = .signInMethods(SignInMethodsFeature(selection: 0))
        #expect(model.handle(.key(.enter)) == [.signInAnonymously])
        let result = AuthDataResult(user: Fixtures.anonymous, additionalUserInfo: AdditionalUserInfo(providerID: nil, isNewUser: true))
        let cart = Self.cart(of: Fixtures.anonymous)
        let news: [ConsoleEvent] = [.authStateChanged(Fixtures.anonymous, nil), .signInFinished(.success(SignedIn(result, cart: .success(cart))))]
        var effects: [ConsoleEffect] = []
        for event in authStateFirst ? news : news.reversed() { effects += model.handle(event) }
        #expect(effects == [])
        #expect(model.user == Fixtures.anonymous)
        #expect(model.cart == cart)
        #expect(model.screen == .account(AccountFeature()))
        #expect(model.banner == Banner(.success, "Account created."))
    }

    /// The session's news of another account leaves the console on the one it shows: the sign-in's
    /// landing adopts the new one, once, with its cart; a fresh copy of the account shown is taken at once.
    @Test func aUserIsAdoptedOncePerSignIn() {
        var model = ConsoleModel(backendName: "embedded")
        model.screen = .signInMethods(SignInMethodsFeature(selection: 0))
        _ = model.handle(.authStateChanged(Fixtures.anonymous, nil))
        #expect(model.user == nil)
        let result = AuthDataResult(user: Fixtures.anonymous, additionalUserInfo: AdditionalUserInfo(providerID: nil, isNewUser: true))
        let cart = Self.cart(of: Fixtures.anonymous)
        #expect(model.handle(.signInFinished(.success(SignedIn(result, cart: .success(cart))))) == [])
        #expect(model.user == Fixtures.anonymous)
        #expect(model.cart == cart)
        let other = Fixtures.passwordUser()
        _ = model.handle(.authStateChanged(other, nil))
        #expect(model.user == Fixtures.anonymous)
        #expect(model.cart == cart)
        var renamed = Fixtures.anonymous
        renamed.displayName = "Guest"
        _ = model.handle(.authStateChanged(renamed, nil))
        #expect(model.user == renamed)
    }

    /// Signed in, but the app data could not be read: the account is shown, with an empty cart and
    /// the reason in the banner.
    @Test func aSignInWhoseCartCouldNotBeRead() {
        var model = ConsoleModel(backendName: "embedded")
        model.screen = .signInMethods(SignInMethodsFeature(selection: 0))
        let result = AuthDataResult(user: Fixtures.passwordUser(), additionalUserInfo: AdditionalUserInfo(providerID: "password", isNewUser: false))
        let unreadable = SignedIn(result, cart: .failure(AppDataError(reason: "disk I/O error")))
        #expect(model.handle(.signInFinished(.success(unreadable))) == [])
        #expect(model.user == Fixtures.passwordUser())
        #expect(model.cart == [])
        #expect(model.screen == .account(AccountFeature()))
        #expect(model.banner == Banner(.error, "The app data could not be read or changed.", detail: "disk I/O error"))
    }

    @Test(arguments: [true, false])
    func aPhoneSignInThatTheFeatureEnds(authStateFirst: Bool) {
        let user = Fixtures.passwordUser(extraProviders: [UserInfo(providerID: "phone", uid: "+15555550100")])
        var phone = PhoneFeature(purpose: .signIn)
        phone.step = .enteringCode(phone: "+15555550100", verificationID: "verification-1", code: TextField(text: "123456", maxLength: 6))
        var model = ConsoleModel(backendName: "embedded")
        model.screen = .phone(phone)
        _ = model.handle(.key(.enter))
        let result = AuthDataResult(user: user, additionalUserInfo: AdditionalUserInfo(providerID: "phone", isNewUser: false))
        let cart = Self.cart(of: user)
        let news: [ConsoleEvent] = [.authStateChanged(user, nil), .feature(PhoneFeature.Event.signInFinished(.success(SignedIn(result, cart: .success(cart)))))]
        var effects: [ConsoleEffect] = []
        for event in authStateFirst ? news : news.reversed() { effects += model.handle(event) }
        #expect(effects == [])
        #expect(model.cart == cart)
        #expect(model.banner == Banner(.success, "Signed in."))
    }

    /// The account that had the email is signed in to, with its cart, then the pending credential is
    /// linked to it: the guest's cart is merged in once, and the link's end changes no cart.
    @Test(arguments: [true, false])
    func aPendingLinkFinishedOnTheAccountSignedIntoForIt(authStateFirst: Bool) {
        let ada = Fixtures.passwordUser()
        let pending = PendingLink(credential: FederatedFixtures.updatedGoogle, email: ada.email, reason: .emailInUse,
                                  previousAnonymousUid: Fixtures.anonymous.uid)
        var model = Fixtures.signedIn(Fixtures.anonymous)
        model.screen = .credentialForm(Fixtures.form(.signInToLink(pending), email: "ada@example.com", password: "correct horse"))
        _ = model.handle(.key(.enter))
        let signedIn = AuthDataResult(user: ada, additionalUserInfo: AdditionalUserInfo(providerID: "password", isNewUser: false))
        var news: [ConsoleEvent] = [.authStateChanged(ada, nil), .signInFinished(.success(SignedIn(signedIn, cart: .success(Self.cart(of: ada)))))]
        var effects: [ConsoleEffect] = []
        for event in authStateFirst ? news : news.reversed() { effects += model.handle(event) }
        #expect(effects == [.mergeCart(from: Fixtures.anonymous.uid, into: ada.uid), .link(FederatedFixtures.updatedGoogle)])
        #expect(model.cart == Self.cart(of: ada))
        let linked = AuthDataResult(user: Fixtures.passwordUser(extraProviders: [UserInfo(providerID: "google.com", uid: "g-1")]),
                                    additionalUserInfo: AdditionalUserInfo(providerID: "google.com", isNewUser: false))
        news = [.authStateChanged(linked.user, nil), .linkFinished(.success(linked))]
        effects = []
        for event in authStateFirst ? news : news.reversed() { effects += model.handle(event) }
        #expect(effects == [.deleteLeftGuest(uid: Fixtures.anonymous.uid)])
        #expect(model.banner?.text.hasPrefix("Signed in to ada@example.com and linked Google to it.") == true)
        #expect(model.linkAfterSignIn == nil)
    }
}
