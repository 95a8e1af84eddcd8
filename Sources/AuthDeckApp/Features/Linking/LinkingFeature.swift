import AuthClient
import Foundation
import TerminalUI

/// The sign-in methods of the account in two lists, linked and not yet linked (Keycloak's
/// account console "Linked accounts"): link another, or unlink one.
public struct LinkingFeature: ConsoleFeature {
    /// What the screen's keys mean.
    public enum Action: Equatable, Sendable, ListAction, BackAction {
        case up, down, choose, unlink, back
    }

    /// It starts no work of its own: what it runs, the console answers.
    typealias Event = Never

    public var selection: Int

    public init(selection: Int) { self.selection = selection }

    /// Every method the console can link, in the order it lists them.
    static let methods = [EmailAuthProvider.id] + FederatedProvider.allCases.map(\.id) + [EmailLinkAuthSignInMethod.id]

    static func linked(_ user: User) -> [String] { user.providerData.map(\.providerID) }

    static func notLinked(_ user: User) -> [String] {
        let linked = Set(linked(user))
        // An email link is the `password` provider without a password: one address per account.
        return methods.filter { !linked.contains($0) && !($0 == EmailLinkAuthSignInMethod.id && linked.contains(EmailAuthProvider.id)) }
    }

    static func rows(_ user: User) -> [String] { linked(user) + notLinked(user) }

    /// Opens on the first method not linked yet: what the operator most likely came for.
    static func initial(for user: User) -> LinkingFeature {
        LinkingFeature(selection: min(linked(user).count, max(rows(user).count - 1, 0)))
    }

    var title: String { "Sign-in methods" }
    var needsUser: Bool { true }
    var screen: Screen { .linking(self) }

    func bindings(in context: ConsoleContext) -> [KeyBinding<KeyIntent<Action>>] {
        guard let user = context.user else { return [.back()] }
        let rows = Self.rows(user)
        let onLinked = selection < Self.linked(user).count
        var keys: [KeyBinding<KeyIntent<Action>>] = [.moveUp(), .moveDown()]
        if !rows.isEmpty, !onLinked { keys.append(KeyBinding([.enter], "enter", "link", .choose)) }
        if onLinked { keys.append(.char("u", "unlink", .unlink)) }
        return keys + [.back(), .help, .inspector]
    }

    mutating func perform(_ action: Action, in context: ConsoleContext) -> [FlowStep] {
        guard let user = context.user else { return [] }
        let rows = Self.rows(user)
        let linked = Self.linked(user)
        switch action {
        case .up: selection = max(selection - 1, 0)
        case .down: selection = min(selection + 1, max(rows.count - 1, 0))
        case .back:
            return [.show(.account(AccountFeature()))]
        case .choose:
            guard rows.indices.contains(selection), selection >= linked.count else { return [] }
            if let provider = FederatedProvider.named(rows[selection]) {
                return [.banner(nil), .show(.providerForm(ProviderFormFeature(provider: provider, purpose: .link)))]
            }
            if rows[selection] == EmailLinkAuthSignInMethod.id { return [.banner(nil), .show(.emailLink(EmailLinkFeature(purpose: .link)))] }
            return [.banner(nil), .show(.credentialForm(CredentialFormFeature(purpose: .link)))]
        case .unlink:
            guard linked.indices.contains(selection) else { return [] }
            let provider = linked[selection]
            guard linked.count > 1 else {
                return [.banner(Banner(.error, "\(provider) is this account's only way to sign in; link another method before unlinking it."))]
            }
            return [.banner(nil), .show(.confirm(ConfirmationFeature(subject: .unlink(providerID: provider), over: screen)))]
        }
        return []
    }

    func draw(in context: ConsoleContext, on canvas: any Canvas, frame: Rect) {
        LinkingScreen.draw(context, state: self, on: canvas, in: frame)
    }
}
