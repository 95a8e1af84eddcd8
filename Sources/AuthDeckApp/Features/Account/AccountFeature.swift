import AppData
import AuthClient
import Foundation
import TerminalUI

/// The signed-in account: who it is, how it signs in, its token, and its app data. The state is
/// which list has the selection.
public struct AccountFeature: ConsoleFeature {
    /// What the screen's keys mean.
    public enum Action: Equatable, Sendable, ListAction {
        case up, down, nextPane, addItem, removeItem, link, unlink, changePassword, changeEmail, verifyEmail, secondFactors, linkPhone, deleteAccount, refresh, signOut, openAccounts
    }

    /// It starts no work of its own: what it runs, the console answers.
    typealias Event = Never

    public enum Pane: Equatable, Sendable { case providers, cart }
    public var pane: Pane = .providers
    public var providerSelection = 0
    public var cartSelection = 0

    public init() {}

    var title: String { "Account" }
    var needsUser: Bool { true }
    var screen: Screen { .account(self) }

    mutating func cartChanged(_ cart: [CartItem]) {
        cartSelection = min(cartSelection, max(cart.count - 1, 0))
    }

    /// The account screen after an unlink: as it was if it is showing, its provider selection within
    /// the providers left.
    static func afterUnlink(from screen: Screen, providers: Int) -> AccountFeature {
        var account = AccountFeature()
        if case let .account(current) = screen { account = current }
        account.providerSelection = min(account.providerSelection, max(providers - 1, 0))
        return account
    }

    func bindings(in context: ConsoleContext) -> [KeyBinding<KeyIntent<Action>>] {
        guard let user = context.user else { return [.quit] }
        // Actions first, then help and quit, so those two survive a narrow terminal's truncation.
        var keys: [KeyBinding<KeyIntent<Action>>] = [.moveUp(), .moveDown()]
        if user.email != nil, !user.emailVerified { keys.append(.char("v", "verify", .verifyEmail)) }
        // Second factors need a verified email: the bar offers "verify" first, then "2-step".
        if user.email != nil { keys.append(.char("f", "2-step", .secondFactors, inBar: user.emailVerified)) }
        keys.append(.char("a", "add item", .addItem))
        if pane == .cart, !context.cart.isEmpty { keys.append(.char("x", "remove item", .removeItem)) }
        keys.append(.char("l", user.isAnonymous ? "upgrade" : "link", .link))
        if pane == .providers, !user.providerData.isEmpty { keys.append(.char("u", "unlink", .unlink)) }
        if user.providerData.contains(where: { $0.providerID == EmailAuthProvider.id }) {
            keys.append(.char("p", "password", .changePassword, inBar: false))
        }
        if user.email != nil { keys.append(.char("e", "change the email", .changeEmail, inBar: false)) }
        if !user.providerData.contains(where: { $0.providerID == PhoneAuthProvider.id }) {
            keys.append(.char("n", "link a phone number", .linkPhone, inBar: false))
        }
        keys += [.char("D", "delete", .deleteAccount, inBar: user.isAnonymous), .char("o", "sign out", .signOut),
                 .char("r", "reload the account", .refresh, inBar: false)]
            + AccountsFeature.openBinding(.openAccounts, in: context) + [.help, .quit,
                 .inspector, KeyBinding([.character("m")], "m", "messages (outbox)", .console(.messages), inBar: false),
                 KeyBinding([.tab, .backTab], "tab", pane == .providers ? "to cart" : "to providers", .nextPane)]
        return keys
    }

    mutating func perform(_ action: Action, in context: ConsoleContext) -> [FlowStep] {
        guard let user = context.user else { return [] }
        let clearBanner: [FlowStep] = action == .up || action == .down ? [] : [.banner(nil)]
        switch action {
        case .nextPane:
            pane = pane == .providers ? .cart : .providers
        case .up, .down:
            let delta = action == .up ? -1 : 1
            if pane == .providers {
                providerSelection = max(0, min(providerSelection + delta, user.providerData.count - 1))
            } else {
                cartSelection = max(0, min(cartSelection + delta, context.cart.count - 1))
            }
        case .addItem:
            return clearBanner + [.show(.addCartItem(AddCartItemFeature()))]
        case .removeItem:
            guard context.cart.indices.contains(cartSelection) else { return clearBanner }
            return clearBanner + [.run(.removeFromCart(uid: user.uid, name: context.cart[cartSelection].name), busy: nil)]
        case .link:
            return clearBanner + [.show(.linking(LinkingFeature.initial(for: user)))]
        case .unlink:
            guard user.providerData.indices.contains(providerSelection) else { return clearBanner }
            let provider = user.providerData[providerSelection].providerID
            guard user.providerData.count > 1 else {
                return [.banner(Banner(.error, "\(provider) is this account's only way to sign in; link another provider before unlinking it."))]
            }
            return clearBanner + [.show(.confirm(ConfirmationFeature(subject: .unlink(providerID: provider), over: screen)))]
        case .changePassword:
            return clearBanner + [.show(.changePassword(ChangePasswordFeature()))]
        case .changeEmail:
            return clearBanner + [.show(.changeEmail(ChangeEmailFeature()))]
        case .verifyEmail:
            return clearBanner + [.run(.verification(.sendEmailVerification), busy: "Sending the verification email…")]
        case .secondFactors:
            return clearBanner + [.show(.secondFactors(SecondFactorsFeature(selection: 0)))]
        case .linkPhone:
            return clearBanner + [.show(.phone(PhoneFeature(purpose: .link)))]
        case .deleteAccount:
            return clearBanner + [.show(.confirm(ConfirmationFeature(subject: .deleteAccount, over: screen)))]
        case .refresh:
            return clearBanner + [.run(.reloadUser, busy: "Reloading the account…")]
        case .signOut:
            if user.isAnonymous { return clearBanner + [.show(.confirm(ConfirmationFeature(subject: .signOutAnonymous, over: screen)))] }
            return Self.signOut
        case .openAccounts:
            return AccountsFeature.open(in: context)
        }
        return clearBanner
    }

    static let signOut: [FlowStep] = [.banner(Banner(.success, "Signed out.")), .show(.signInMethods(SignInMethodsFeature(selection: 0))), .run(.signOut, busy: nil)]

    func draw(in context: ConsoleContext, on canvas: any Canvas, frame: Rect) {
        AccountScreen.draw(context, focus: self, on: canvas, in: frame)
    }
}
