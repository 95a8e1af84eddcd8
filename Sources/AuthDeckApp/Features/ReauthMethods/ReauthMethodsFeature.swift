import AuthClient
import Foundation
import TerminalUI

/// A stale sign-in of an account with several methods: choose one to confirm it's you; the
/// operation that needed it then runs by itself.
public struct ReauthMethodsFeature: ConsoleFeature {
    /// What the screen's keys mean.
    public enum Action: Equatable, Sendable, ListAction, BackAction {
        case up, down, choose, back
    }

    /// It starts no work of its own: what it runs, the console answers.
    typealias Event = Never

    public var operation: SensitiveOperation
    public var selection: Int

    public init(_ operation: SensitiveOperation, selection: Int) {
        self.operation = operation
        self.selection = selection
    }

    var title: String { "Confirm it's you" }
    var needsUser: Bool { true }
    var screen: Screen { .reauthMethods(self) }

    /// The account to confirm: the signed-in one, or the one a merge switched from.
    struct Account {
        /// The methods it can sign in again with, in its own order.
        var methods: [String]
        /// The email its password goes with.
        var email: String?
        /// The number a code is texted to, when known.
        var phoneNumber: String?

        init(_ operation: SensitiveOperation, user: User?) {
            let providerIDs: [String]
            if case let .deletePreviousAccount(previous) = operation {
                providerIDs = previous.providerIDs
                email = previous.email
            } else {
                providerIDs = user?.providerData.map(\.providerID) ?? []
                email = user?.providerData.first { $0.providerID == EmailAuthProvider.id }?.email ?? user?.email
            }
            methods = providerIDs.filter { [EmailAuthProvider.id, PhoneAuthProvider.id].contains($0) || FederatedProvider.named($0) != nil }
            phoneNumber = if case .deletePreviousAccount = operation { nil } else { user?.phoneNumber }
        }
    }

    func bindings(in context: ConsoleContext) -> [KeyBinding<KeyIntent<Action>>] {
        [.moveUp(), .moveDown(), KeyBinding([.enter], "enter", "choose", .choose), KeyBinding([.escape], "esc", "cancel", .back), .help, .inspector]
    }

    mutating func perform(_ action: Action, in context: ConsoleContext) -> [FlowStep] {
        let account = Account(operation, user: context.user)
        let methods = account.methods
        switch action {
        case .up: selection = max(selection - 1, 0)
        case .down: selection = min(selection + 1, max(methods.count - 1, 0))
        case .back:
            return [.banner(Banner(.info, "Cancelled: did not \(operation.title).")), .show(.account(AccountFeature()))]
        case .choose:
            guard methods.indices.contains(selection) else { return [] }
            return [.banner(nil), .show(Self.screen(for: methods[selection], operation, account))]
        }
        return []
    }

    /// The screen that confirms it's the account's owner with `method`.
    static func screen(for method: String, _ operation: SensitiveOperation, _ account: Account) -> Screen {
        if let provider = FederatedProvider.named(method) {
            return .providerForm(ProviderFormFeature(provider: provider, purpose: .reauthenticate(operation)))
        }
        if method == PhoneAuthProvider.id {
            return .phone(PhoneFeature(purpose: .reauthenticate(operation), number: account.phoneNumber ?? ""))
        }
        return .credentialForm(CredentialFormFeature(purpose: .reauthenticate(operation), email: account.email ?? ""))
    }

    /// The one way to a recent sign-in, whatever needs it: the password again, the one provider
    /// again, the texted code, or a choice among them; `operation` then runs by itself.
    static func require(_ operation: SensitiveOperation, user: User?, lead: String) -> [FlowStep] {
        let account = Account(operation, user: user)
        if account.methods.contains(where: { $0 != EmailAuthProvider.id }) {
            if account.methods.count == 1, let provider = FederatedProvider.named(account.methods[0]) {
                return [.banner(Banner(.info, "\(lead) Sign in with \(provider.name) again to \(operation.title); it then runs by itself.")),
                        .show(screen(for: provider.id, operation, account))]
            }
            if account.methods == [PhoneAuthProvider.id] {
                return [.banner(Banner(.info, "\(lead) Confirm it with a code texted to your number to \(operation.title); it then runs by itself.")),
                        .show(screen(for: PhoneAuthProvider.id, operation, account))]
            }
            return [.banner(Banner(.info, "\(lead) Choose how to confirm it's you; then \(operation.title) runs by itself.")),
                    .show(.reauthMethods(ReauthMethodsFeature(operation, selection: 0)))]
        }
        guard account.email != nil else {
            return [.banner(Banner(.error, "This operation needs a recent sign-in, and this account has no credential to sign in again with. Link one first, or sign out and in again.",
                                   detail: "\(AuthErrorCode.requiresRecentLogin) (\(AuthErrorCode.requiresRecentLogin.rawValue)) · CREDENTIAL_TOO_OLD_LOGIN_AGAIN")),
                    .show(.account(AccountFeature()))]
        }
        let whose = if case .deletePreviousAccount = operation { "its" } else { "your" }
        return [.banner(Banner(.info, "\(lead) Enter \(whose) password to \(operation.title); it then runs by itself.")),
                .show(screen(for: EmailAuthProvider.id, operation, account))]
    }

    func draw(in context: ConsoleContext, on canvas: any Canvas, frame: Rect) {
        let account = Account(operation, user: context.user)
        // Wrapped, not cut: what it is for may name an email address.
        for (index, line) in TextWidth.wrap("Confirm it's you to \(operation.title)", width: frame.width - 2).prefix(2).enumerated() {
            canvas.put(line, row: frame.row + index, column: frame.column + 1, style: .title)
        }
        let methods = account.methods
        let box = Box.draw(on: canvas, frame: Rect(row: frame.row + 2, column: frame.column, width: min(frame.width, 60), height: methods.count + 2),
                           title: "Sign in again with", style: .accent)
        let items = methods.map { method in
            ListView.Item(FederatedProvider.displayName(method) + (method == EmailAuthProvider.id ? " (\(account.email ?? ""))" : "")
                + (method == PhoneAuthProvider.id ? account.phoneNumber.map { " (\(PhoneNumberText.masked($0)))" } ?? "" : ""))
        }
        ListView(items: items, selection: selection).draw(on: canvas, in: box)
        canvas.placeCursor(row: box.row + selection, column: box.column)
        canvas.put(TextWidth.truncate("Another account than this one is refused (userMismatch).", toCells: frame.width - 2),
                   row: box.row + box.height + 1, column: frame.column + 1, style: .dim)
    }
}
