import AuthClient
import Foundation
import TerminalUI

/// A stale sign-in of an account with several methods: choose one to confirm it's you; the
/// operation that needed it then runs by itself.
public struct ReauthMethods: ConsoleFeature {
    public var operation: SensitiveOperation
    public var selection: Int

    public init(_ operation: SensitiveOperation, selection: Int) {
        self.operation = operation
        self.selection = selection
    }

    var title: String { "Confirm it's you" }
    var needsUser: Bool { true }
    var screen: Screen { .reauthMethods(self) }

    /// The methods an account can sign in again with, in its own order.
    static func methods(of user: User) -> [String] {
        user.providerData.map(\.providerID).filter { $0 == EmailAuthProvider.id || FederatedProvider.named($0) != nil }
    }

    func bindings(in context: ConsoleContext) -> [KeyBinding] {
        [.moveUp, .moveDown, KeyBinding([.enter], "enter", "choose", .choose), KeyBinding([.escape], "esc", "cancel", .back), .help, .inspector]
    }

    mutating func perform(_ intent: Intent, in context: ConsoleContext) -> [FlowStep] {
        guard let user = context.user else { return [] }
        let methods = Self.methods(of: user)
        switch intent {
        case .up: selection = max(selection - 1, 0)
        case .down: selection = min(selection + 1, max(methods.count - 1, 0))
        case .back:
            return [.banner(Banner(.info, "Cancelled: did not \(operation.title).")), .show(.account(AccountFocus()))]
        case .choose:
            guard methods.indices.contains(selection) else { return [] }
            if let provider = FederatedProvider.named(methods[selection]) {
                return [.banner(nil), .show(.providerForm(ProviderForm(provider: provider, purpose: .reauthenticate(operation))))]
            }
            let email = user.providerData.first { $0.providerID == EmailAuthProvider.id }?.email ?? user.email ?? ""
            return [.banner(nil), .show(.credentialForm(CredentialForm(purpose: .reauthenticate(operation), email: email)))]
        default:
            break
        }
        return []
    }

    func draw(in context: ConsoleContext, on canvas: any Canvas, frame: Rect) {
        guard let user = context.user else { return }
        canvas.put("Confirm it's you to \(operation.title)", row: frame.row, column: frame.column + 1, style: .title)
        let methods = Self.methods(of: user)
        let box = Box.draw(on: canvas, frame: Rect(row: frame.row + 2, column: frame.column, width: min(frame.width, 60), height: methods.count + 2),
                           title: "Sign in again with", style: .accent)
        let items = methods.map { method in
            ListView.Item(FederatedProvider.displayName(method) + (method == EmailAuthProvider.id ? " (\(user.email ?? ""))" : ""))
        }
        ListView(items: items, selection: selection).draw(on: canvas, in: box)
        canvas.placeCursor(row: box.row + selection, column: box.column)
        canvas.put(TextWidth.truncate("Another account than this one is refused (userMismatch).", toCells: frame.width - 2),
                   row: box.row + box.height + 1, column: frame.column + 1, style: .dim)
    }
}
