import AuthClient
import Foundation
import TerminalUI

/// Passwordless sign-in: a link is emailed to an address, and opening it from the outbox signs in
/// to that address's account (creating it when there is none) or, for the signed-in account,
/// links the address to it (`EmailAuthProvider.credential(withEmail:link:)`).
public struct EmailLinkFeature: ConsoleFeature {
    /// What the screen's keys mean.
    public enum Action: Equatable, Sendable, ListAction, BackAction {
        case submit, resend, back, up, down, choose
    }

    /// Work the screen asks for; `EffectRunner` performs it (`EffectRunner+EmailLink` beside this file).
    public enum Effect: Equatable, Sendable {
        /// Emails a passwordless sign-in link.
        case sendSignInLink(email: String)
    }

    /// The outcome of an `Effect`.
    public enum Event: FeatureResult {
        case signInLinkSent(Result<String, AuthError>)
    }

    public enum Purpose: Equatable, Sendable {
        case signIn
        /// From the account's sign-in methods: the address is linked to the signed-in account.
        case link
    }

    public enum Step: Equatable, Sendable {
        case enteringEmail(TextField)
        /// The link is in the outbox; opening it there finishes the flow.
        case sent(email: String)
        /// A sign-in link opened while signed in: link its address here, or sign in as it instead.
        case opening(email: String, link: String, selection: Int)
    }

    public enum Choice: Equatable, Sendable { case linkHere, signInInstead }

    public var purpose: Purpose
    public var step: Step

    public init(purpose: Purpose, step: Step = .enteringEmail(TextField(maxLength: 254))) {
        self.purpose = purpose
        self.step = step
    }

    /// Short, for the title bar and the room's column; the screen's heading says it whole.
    var title: String { purpose == .link ? "Link an email address" : "Email link sign-in" }
    var needsUser: Bool {
        if purpose == .link { return true }
        if case .opening = step { return true }
        return false
    }
    var editsText: Bool {
        if case .enteringEmail = step { return true }
        return false
    }
    var screen: Screen { .emailLink(self) }

    /// What opening a sign-in link does: signed out, it signs in; signed in, it links the address when
    /// this console asked for that link, and otherwise asks which of the two is meant.
    static func open(_ email: Outbox.Email, on screen: Screen, user: User?) -> [FlowStep] {
        let credential = EmailAuthProvider.credential(withEmail: email.to, link: email.link)
        guard let user else {
            return [.banner(nil), .run(.signIn(credential), busy: "Signing in as \(email.to) with the link…")]
        }
        if case let .emailLink(flow) = screen, flow.purpose == .link, flow.step == .sent(email: email.to), canLink(to: user) {
            return [.banner(nil), .run(.link(credential), busy: "Linking \(email.to)…")]
        }
        let flow = EmailLinkFeature(purpose: .signIn, step: .opening(email: email.to, link: email.link, selection: 0))
        return [.banner(Banner(.info, "This link signs in as \(email.to). You are signed in as \(user.email ?? user.uid): choose what it does.")),
                .show(.emailLink(flow))]
    }

    /// An account with a `password` provider has an address already; only one can be linked.
    static func canLink(to user: User) -> Bool {
        !user.providerData.contains { $0.providerID == EmailAuthProvider.id }
    }

    func choices(for user: User?) -> [Choice] {
        guard let user else { return [.signInInstead] }
        return Self.canLink(to: user) ? [.linkHere, .signInInstead] : [.signInInstead]
    }

    func bindings(in context: ConsoleContext) -> [KeyBinding<KeyIntent<Action>>] {
        switch step {
        case .enteringEmail:
            return [KeyBinding([.enter], "enter", "send the link", .submit), .back(), .helpInForm, .inspectorInForm, .messagesInForm]
        case .sent:
            return [KeyBinding([.character("m")], "m", "messages: open the link", .console(.messages)), .char("r", "send another", .resend),
                    .back(), .help, .inspector]
        case .opening:
            return [.moveUp(), .moveDown(), KeyBinding([.enter], "enter", "choose", .choose), KeyBinding([.escape], "esc", "leave it", .back),
                    .help, .inspector]
        }
    }

    mutating func perform(_ action: Action, in context: ConsoleContext) -> [FlowStep] {
        switch (step, action) {
        case let (.enteringEmail(field), .submit):
            let email = field.text.trimmingCharacters(in: .whitespaces)
            guard !email.isEmpty else { return [.banner(Banner(.error, "Enter an email address."))] }
            return [.banner(nil), .run(.emailLink(.sendSignInLink(email: email)), busy: "Sending a sign-in link to \(email)…")]
        case let (.sent(email), .resend):
            return [.banner(nil), .run(.emailLink(.sendSignInLink(email: email)), busy: "Sending a sign-in link to \(email)…")]
        case (.enteringEmail, .back), (.sent, .back):
            guard purpose == .link, let user = context.user else { return [.banner(nil), .show(.signInMethods(.selecting(.emailLink)))] }
            return [.banner(nil), .show(.linking(LinkingFeature.initial(for: user)))]
        case let (.opening(email, link, selection), .up):
            step = .opening(email: email, link: link, selection: max(selection - 1, 0))
        case let (.opening(email, link, selection), .down):
            step = .opening(email: email, link: link, selection: min(selection + 1, choices(for: context.user).count - 1))
        case let (.opening(email, link, selection), .choose):
            let credential = EmailAuthProvider.credential(withEmail: email, link: link)
            let choices = choices(for: context.user)
            switch choices[min(selection, choices.count - 1)] {
            case .linkHere: return [.banner(nil), .run(.link(credential), busy: "Linking \(email)…")]
            case .signInInstead: return [.banner(nil), .run(.signIn(credential), busy: "Signing in as \(email) with the link…")]
            }
        case (.opening, .back):
            return [.banner(Banner(.info, "The link was not used; it is still in the outbox.")), .show(context.home)]
        case (.enteringEmail, _), (.sent, _), (.opening, _):
            break
        }
        return []
    }

    mutating func edit(_ key: Key) {
        guard case var .enteringEmail(field) = step else { return }
        _ = field.handle(key)
        step = .enteringEmail(field)
    }

    mutating func handle(_ event: Event, in context: ConsoleContext) -> [FlowStep] {
        guard case let .signInLinkSent(result) = event else { return [] }
        switch result {
        case let .success(email):
            step = .sent(email: email)
            return [.banner(Banner(.info, "A sign-in link to \(email) is in the outbox: press m and open it.")),
                    .run(.verification(.refreshOutbox), busy: nil)]
        case let .failure(error):
            return [.banner(.error(error))]
        }
    }

    func draw(in context: ConsoleContext, on canvas: any Canvas, frame: Rect) {
        EmailLinkScreen.draw(self, context: context, on: canvas, in: frame)
    }
}
