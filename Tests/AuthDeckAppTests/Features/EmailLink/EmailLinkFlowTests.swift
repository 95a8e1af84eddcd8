import AppData
@testable import AuthClient
@testable import AuthDeckApp
import Foundation
import Testing
import TerminalUI

@Suite("Console: signing in and linking with an email link from the outbox")
struct EmailLinkFlowTests {
    static let link = "http://127.0.0.1:9099/emulator/action?mode=signIn&lang=en&oobCode=oob-link&apiKey=fake-api-key"

    static func message(to email: String) -> Outbox.Email {
        Outbox.Email(to: email, action: .signIn, oobCode: "oob-link", link: link)
    }

    static func field(_ text: String) -> TextField { TextField(text: text, maxLength: 254) }

    @Test func aLinkFromTheOutboxSignsInAndCreatesTheAccount() {
        let index = SignInMethod.allCases.firstIndex(of: .emailLink) ?? 0
        var model = ConsoleModel(backendName: "embedded")
        model.screen = .signInMethods(SignInMethodsFeature(selection: index))
        var store = FlowStore(model)
        store.send(.key(.enter)) { $0.screen = .emailLink(EmailLinkFeature(purpose: .signIn)) }
        store.type("lin@example.com") {
            $0.screen = .emailLink(EmailLinkFeature(purpose: .signIn, step: .enteringEmail(Self.field("lin@example.com"))))
        }
        store.send(.key(.enter), effects: [.emailLink(.sendSignInLink(email: "lin@example.com"))]) {
            $0.busy = "Sending a sign-in link to lin@example.com…"
        }
        store.send(.feature(EmailLinkFeature.Event.signInLinkSent(.success("lin@example.com"))), effects: [.verification(.refreshOutbox)]) {
            $0.busy = nil
            $0.screen = .emailLink(EmailLinkFeature(purpose: .signIn, step: .sent(email: "lin@example.com")))
            $0.banner = Banner(.info, "A sign-in link to lin@example.com is in the outbox: press m and open it.")
        }
        store.send(.key(.character("m")), effects: [.verification(.refreshOutbox)]) { $0.overlay = .outbox(selection: 0) }
        let outbox = Outbox(emails: [Self.message(to: "lin@example.com")])
        store.send(.verification(.outboxChanged(.success(outbox)))) { $0.outbox = outbox }
        let credential = EmailAuthProvider.credential(withEmail: "lin@example.com", link: Self.link)
        store.send(.key(.enter), effects: [.signIn(credential)]) {
            $0.overlay = nil
            $0.banner = nil
            $0.busy = "Signing in as lin@example.com with the link…"
        }
        var user = Fixtures.passwordUser(email: "lin@example.com")
        user.emailVerified = true
        let created = AuthDataResult(user: user, additionalUserInfo: AdditionalUserInfo(providerID: "password", isNewUser: true))
        store.send(.signInFinished(.success(SignedIn(created, cart: .success([]))))) {
            $0.busy = nil
            $0.user = user
            $0.screen = .account(AccountFeature())
            $0.banner = Banner(.success, "Account created.")
        }
    }

    @Test func aRefusedLinkIsExplainedAndEscLeadsBack() {
        var model = ConsoleModel(backendName: "embedded")
        model.screen = .emailLink(EmailLinkFeature(purpose: .signIn, step: .sent(email: "lin@example.com")))
        var store = FlowStore(model)
        store.send(.key(.character("r")), effects: [.emailLink(.sendSignInLink(email: "lin@example.com"))]) {
            $0.busy = "Sending a sign-in link to lin@example.com…"
        }
        let refused = AuthError.server("INVALID_EMAIL")
        store.send(.feature(EmailLinkFeature.Event.signInLinkSent(.failure(refused)))) {
            $0.busy = nil
            $0.banner = .error(refused)
        }
        store.send(.key(.escape)) {
            $0.screen = .signInMethods(.selecting(.emailLink))
            $0.banner = nil
        }
        store.send(.key(.enter)) { $0.screen = .emailLink(EmailLinkFeature(purpose: .signIn)) }
        store.send(.key(.enter)) { $0.banner = Banner(.error, "Enter an email address.") }
    }

    @Test func anAnonymousAccountLinksTheAddressItAskedALinkFor() {
        var store = FlowStore(Fixtures.signedIn(Fixtures.anonymous))
        store.send(.key(.character("l"))) { $0.screen = .linking(LinkingFeature(selection: 0)) }
        let row = LinkingFeature.notLinked(Fixtures.anonymous).firstIndex(of: EmailLinkAuthSignInMethod.id) ?? 0
        store.model.screen = .linking(LinkingFeature(selection: row))
        store.send(.key(.enter)) { $0.screen = .emailLink(EmailLinkFeature(purpose: .link)) }
        store.type("guest@example.com") {
            $0.screen = .emailLink(EmailLinkFeature(purpose: .link, step: .enteringEmail(Self.field("guest@example.com"))))
        }
        store.send(.key(.enter), effects: [.emailLink(.sendSignInLink(email: "guest@example.com"))]) {
            $0.busy = "Sending a sign-in link to guest@example.com…"
        }
        store.send(.feature(EmailLinkFeature.Event.signInLinkSent(.success("guest@example.com"))), effects: [.verification(.refreshOutbox)]) {
            $0.busy = nil
            $0.screen = .emailLink(EmailLinkFeature(purpose: .link, step: .sent(email: "guest@example.com")))
            $0.banner = Banner(.info, "A sign-in link to guest@example.com is in the outbox: press m and open it.")
        }
        store.send(.key(.character("m")), effects: [.verification(.refreshOutbox)]) { $0.overlay = .outbox(selection: 0) }
        let outbox = Outbox(emails: [Self.message(to: "guest@example.com")])
        store.send(.verification(.outboxChanged(.success(outbox)))) { $0.outbox = outbox }
        store.send(.key(.enter), effects: [.link(EmailAuthProvider.credential(withEmail: "guest@example.com", link: Self.link))]) {
            $0.overlay = nil
            $0.banner = nil
            $0.busy = "Linking guest@example.com…"
        }
    }

    @Test func aLinkOpenedWhileSignedInAsksWhatItIsFor() {
        var store = FlowStore(Fixtures.signedIn(Fixtures.anonymous))
        store.model.outbox = Outbox(emails: [Self.message(to: "other@example.com")])
        store.send(.key(.character("m")), effects: [.verification(.refreshOutbox)]) { $0.overlay = .outbox(selection: 0) }
        let opening = EmailLinkFeature(purpose: .signIn, step: .opening(email: "other@example.com", link: Self.link, selection: 0))
        store.send(.key(.enter)) {
            $0.overlay = nil
            $0.screen = .emailLink(opening)
            $0.banner = Banner(.info, "This link signs in as other@example.com. You are signed in as \(Fixtures.anonymous.uid): choose what it does.")
        }
        store.send(.key(.down)) {
            $0.screen = .emailLink(EmailLinkFeature(purpose: .signIn, step: .opening(email: "other@example.com", link: Self.link, selection: 1)))
        }
        store.send(.key(.down))
        store.send(.key(.escape)) {
            $0.screen = .account(AccountFeature())
            $0.banner = Banner(.info, "The link was not used; it is still in the outbox.")
        }

        // An account with an address already can only leave for the link's account.
        store = FlowStore(Fixtures.signedIn(Fixtures.passwordUser()))
        store.model.outbox = Outbox(emails: [Self.message(to: "other@example.com")])
        store.model.overlay = .outbox(selection: 0)
        store.send(.key(.enter)) {
            $0.overlay = nil
            $0.screen = .emailLink(opening)
            $0.banner = Banner(.info, "This link signs in as other@example.com. You are signed in as ada@example.com: choose what it does.")
        }
        store.send(.key(.down))
        store.send(.key(.enter), effects: [.signIn(EmailAuthProvider.credential(withEmail: "other@example.com", link: Self.link))]) {
            $0.banner = nil
            $0.busy = "Signing in as other@example.com with the link…"
        }
    }

    @Test func theLinkingListOffersAnEmailLinkOnlyWithoutAnAddress() {
        #expect(LinkingFeature.notLinked(Fixtures.anonymous).last == EmailLinkAuthSignInMethod.id)
        #expect(!LinkingFeature.notLinked(Fixtures.passwordUser()).contains(EmailLinkAuthSignInMethod.id))
    }
}

extension EmailLinkFlowTests {
    @Test func everyBarKeyOfTheNewScreensDoesSomething() {
        var form = ChangeEmailFeature()
        form.newEmail = TextField(text: "ada@new.example", maxLength: 254)
        let screens: [Screen] = [
            .emailLink(EmailLinkFeature(purpose: .signIn, step: .enteringEmail(Self.field("lin@example.com")))),
            .emailLink(EmailLinkFeature(purpose: .link, step: .sent(email: "lin@example.com"))),
            .emailLink(EmailLinkFeature(purpose: .signIn, step: .opening(email: "lin@example.com", link: Self.link, selection: 0))),
            .changeEmail(form),
        ]
        for screen in screens {
            var model = Fixtures.signedIn(Fixtures.anonymous)
            model.user?.email = "guest@example.com"
            model.screen = screen
            for binding in model.bindings where binding.inBar {
                var copy = model
                let effects = copy.handle(.key(binding.keys[0]))
                #expect(copy != model || !effects.isEmpty, "\(screen.title): \(binding.label) did nothing")
            }
        }
    }
}
