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
    static func embed(_ action: Action) -> ConsoleAction { .reauthMethods(action) }
    static func extract(_ action: ConsoleAction) -> Action? {
        if case let .reauthMethods(action) = action { action } else { nil }
    }

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

    mutating func perform(_ intent: Action, in context: ConsoleContext) -> [FlowStep] {
        let account = Account(operation, user: context.user)
        let methods = account.methods
        switch intent {
        case .up: selection = max(selection - 1, 0)
        case .down: selection = min(selection + 1, max(methods.count - 1, 0))
        case .back:
            return [.banner(Banner(.info, "Cancelled: did not \(operation.title).")), .show(.account(AccountFeature()))]
        case .choose:
            guard methods.indices.contains(selection) else { return [] }
            if let provider = FederatedProvider.named(methods[selection]) {
                return [.banner(nil), .show(.providerForm(ProviderFormFeature(provider: provider, purpose: .reauthenticate(operation))))]
            }
            if methods[selection] == PhoneAuthProvider.id {
                return [.banner(nil), .show(.phone(PhoneFeature(purpose: .reauthenticate(operation), number: account.phoneNumber ?? "")))]
            }
            return [.banner(nil), .show(.credentialForm(CredentialFormFeature(purpose: .reauthenticate(operation), email: account.email ?? "")))]
        }
        return []
    }

    func draw(in context: ConsoleContext, on canvas: any Canvas, frame: Rect) {
        let account = Account(operation, user: context.user)
        canvas.put(TextWidth.truncate("Confirm it's you to \(operation.title)", toCells: frame.width - 2), row: frame.row, column: frame.column + 1, style: .title)
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
