import AppData
import AuthClient
import Foundation
import TerminalUI

/// A prompt over the account screen for an item to add to the cart.
public struct AddCartItem: ConsoleFeature {
    public var field = TextField(maxLength: CartStore.maximumNameLength)

    public init(field: TextField = TextField(maxLength: CartStore.maximumNameLength)) { self.field = field }

    var title: String { "Add to cart" }
    var needsUser: Bool { true }
    var editsText: Bool { true }
    var screen: Screen { .addCartItem(self) }

    func bindings(in context: ConsoleContext) -> [KeyBinding] {
        [KeyBinding([.enter], "enter", "add", .submit), .back, .helpInForm]
    }

    mutating func perform(_ intent: Intent, in context: ConsoleContext) -> [FlowStep] {
        switch intent {
        case .back:
            return [.show(.account(AccountFocus()))]
        case .submit:
            guard let uid = context.user?.uid else { return [] }
            let name = field.text.trimmingCharacters(in: .whitespaces)
            guard !name.isEmpty else { return [.banner(Banner(.error, "Type the item's name, or press esc."))] }
            var focus = AccountFocus()
            focus.pane = .cart
            return [.show(.account(focus)), .run(.addToCart(uid: uid, name: name), busy: nil)]
        default:
            return []
        }
    }

    mutating func edit(_ key: Key) { _ = field.handle(key) }

    func draw(in context: ConsoleContext, on canvas: any Canvas, frame: Rect) {
        AccountScreen.draw(context, focus: AccountFocus(), on: canvas, in: frame)
        let prompt = Rect.centered(width: 56, height: 5, in: canvas.size)
        let inside = Box.draw(on: canvas, frame: prompt, title: "Add to cart", style: .accent)
        field.drawRow(on: canvas, row: inside.row + 1, column: inside.column, width: inside.width - 1, label: "Item", labelWidth: 6, focused: true)
    }
}

/// Changing the password: the new one twice. A sensitive operation: a stale sign-in is confirmed first.
public struct PasswordForm: ConsoleFeature {
    public var newPassword = TextField(maxLength: 128, isSecure: true)
    public var confirmation = TextField(maxLength: 128, isSecure: true)
    public var focusOnConfirmation = false

    public init() {}

    var title: String { "Change password" }
    var needsUser: Bool { true }
    var editsText: Bool { true }
    var screen: Screen { .changePassword(self) }

    func bindings(in context: ConsoleContext) -> [KeyBinding] { KeyBinding.formKeys }

    mutating func perform(_ intent: Intent, in context: ConsoleContext) -> [FlowStep] {
        switch intent {
        case .nextField, .previousField:
            focusOnConfirmation.toggle()
        case .back:
            return [.show(.account(AccountFocus()))]
        case .submit:
            guard focusOnConfirmation else {
                focusOnConfirmation = true
                return []
            }
            guard newPassword.text == confirmation.text else {
                confirmation.text = ""
                return [.banner(Banner(.error, "The two passwords do not match."))]
            }
            return [.banner(nil), .run(.perform(.updatePassword(newPassword.text)), busy: "Changing the password…")]
        default: break
        }
        return []
    }

    mutating func edit(_ key: Key) {
        if focusOnConfirmation { _ = confirmation.handle(key) } else { _ = newPassword.handle(key) }
    }

    func draw(in context: ConsoleContext, on canvas: any Canvas, frame: Rect) {
        let labelWidth = CredentialForm.labelWidth
        canvas.put("Change the password", row: frame.row, column: frame.column + 1, style: .title)
        let inside = Box.draw(on: canvas, frame: Rect(row: frame.row + 2, column: frame.column, width: min(frame.width, 70), height: 6))
        newPassword.drawRow(on: canvas, row: inside.row + 1, column: inside.column, width: inside.width - 1,
                            label: "New password", labelWidth: labelWidth, focused: !focusOnConfirmation)
        confirmation.drawRow(on: canvas, row: inside.row + 2, column: inside.column, width: inside.width - 1,
                             label: "Repeat it", labelWidth: labelWidth, focused: focusOnConfirmation)
        canvas.put("A sensitive change: if you signed in more than 5 minutes ago, you will be asked to confirm it's you.",
                   row: frame.row + 9, column: frame.column + 1, style: .dim)
        FormFields.placeCursorLast(focusOnConfirmation ? confirmation : newPassword, on: canvas,
                                   row: inside.row + (focusOnConfirmation ? 2 : 1), column: inside.column, width: inside.width - 1,
                                   labelWidth: labelWidth)
    }
}

/// A destructive or irreversible action waiting for a yes, drawn over the screen it was asked
/// from; cancelling returns there.
public struct Confirmation: ConsoleFeature {
    public enum Action: Equatable, Sendable {
        case deleteAccount
        case unlink(providerID: String)
        case signOutAnonymous
        case unenroll(MultiFactorInfo)
    }

    public var action: Action
    public var confirmSelected = false
    /// The screen the dialog sits on, and goes back to when cancelled.
    public var behind: Screen

    public init(action: Action, over behind: Screen) {
        self.action = action
        self.behind = behind
    }

    var title: String { "Confirm" }
    var needsUser: Bool { true }
    var screen: Screen { .confirm(self) }

    func bindings(in context: ConsoleContext) -> [KeyBinding] {
        [KeyBinding([.left, .right, .tab], "←/→", "choose", .toggle),
         KeyBinding([.enter], "enter", "confirm choice", .choose),
         .char("y", "yes", .confirm), KeyBinding([.escape, .character("n")], "esc/n", "cancel", .cancel)]
    }

    mutating func perform(_ intent: Intent, in context: ConsoleContext) -> [FlowStep] {
        switch intent {
        case .toggle:
            confirmSelected.toggle()
            return []
        case .cancel:
            return [.show(behind)]
        case .choose where !confirmSelected:
            return [.show(behind)]
        case .choose, .confirm:
            switch action {
            case .deleteAccount:
                return [.run(.perform(.deleteAccount), busy: "Deleting the account…")]
            case let .unlink(providerID):
                return [.run(.unlink(providerID: providerID), busy: "Unlinking \(providerID)…")]
            case .signOutAnonymous:
                return AccountFocus.signOut
            case let .unenroll(factor):
                return [.run(.perform(.unenroll(factor)), busy: "Removing \(factor.displayName ?? factor.factorID)…")]
            }
        default:
            return []
        }
    }

    func draw(in context: ConsoleContext, on canvas: any Canvas, frame: Rect) {
        behind.feature.draw(in: context, on: canvas, frame: frame)
        dialog.draw(on: canvas)
    }

    var dialog: Dialog {
        let (title, message, action): (String, String, String) = switch action {
        case .deleteAccount:
            ("Delete account", "Delete this account and its app data? This cannot be undone.", "Delete")
        case let .unlink(providerID):
            ("Unlink \(providerID)", "Unlink \(providerID)? You will no longer be able to sign in with it.", "Unlink")
        case .signOutAnonymous:
            ("Sign out", "This account is anonymous: once signed out, nobody can sign in to it again and its data is lost. Link a credential first to keep it.", "Sign out")
        case let .unenroll(factor):
            ("Remove a second factor", "Remove \"\(factor.displayName ?? factor.factorID)\"? It will no longer be offered at sign-in, and other sessions of this account are signed out.", "Remove")
        }
        return Dialog(title: title, message: message, buttons: ["Cancel", action], selection: confirmSelected ? 1 : 0)
    }
}
