import AuthClient
import Foundation
import TerminalUI

/// Changing the account's email, the two ways Firebase offers: `verifyBeforeUpdateEmail` (a link to
/// the new address changes it when opened) or `updateEmail` (at once; the previous address gets a
/// message that undoes it). Both are sensitive: a stale sign-in is confirmed first.
public struct ChangeEmailFeature: ConsoleFeature {
    /// What the screen's keys mean.
    public enum Action: Equatable, Sendable, BackAction {
        case submit, toggle, back
    }

    /// It starts no work of its own: what it runs, the console answers.
    typealias Event = Never

    public enum Mode: Equatable, Sendable { case verifyFirst, atOnce }

    public var newEmail = TextField(maxLength: 254)
    public var mode: Mode = .verifyFirst

    public init() {}

    var title: String { "Change email" }
    var needsUser: Bool { true }
    var editsText: Bool { true }
    var screen: Screen { .changeEmail(self) }

    func bindings(in context: ConsoleContext) -> [KeyBinding<KeyIntent<Action>>] {
        [KeyBinding([.enter], "enter", mode == .verifyFirst ? "send the link" : "change it", .submit),
         KeyBinding([.tab, .backTab], "tab", mode == .verifyFirst ? "change at once instead" : "verify first instead", .toggle),
         .back(), .helpInForm, .inspectorInForm]
    }

    mutating func perform(_ action: Action, in context: ConsoleContext) -> [FlowStep] {
        switch action {
        case .toggle:
            mode = mode == .verifyFirst ? .atOnce : .verifyFirst
        case .back:
            return [.banner(nil), .show(.account(AccountFeature()))]
        case .submit:
            let email = newEmail.text.trimmingCharacters(in: .whitespaces)
            guard !email.isEmpty else { return [.banner(Banner(.error, "Enter the new email address."))] }
            guard email.lowercased() != context.user?.email?.lowercased() else {
                return [.banner(Banner(.error, "That is this account's email already."))]
            }
            return switch mode {
            case .verifyFirst: [.banner(nil), .run(.perform(.verifyBeforeUpdateEmail(email)), busy: "Sending a link that confirms \(email)…")]
            case .atOnce: [.banner(nil), .run(.perform(.updateEmail(email, previous: context.user?.email)), busy: "Changing the email…")]
            }
        }
        return []
    }

    mutating func edit(_ key: Key) { _ = newEmail.handle(key) }

    func draw(in context: ConsoleContext, on canvas: any Canvas, frame: Rect) {
        let labelWidth = CredentialFormFeature.labelWidth
        let column = frame.column + 1
        canvas.put("Change the email of this account", row: frame.row, column: column, style: .title)
        let inside = Box.draw(on: canvas, frame: Rect(row: frame.row + 2, column: frame.column, width: min(frame.width, 70), height: 6))
        canvas.put(TextWidth.truncate("Now: \(context.user?.email ?? "no email")", toCells: inside.width - 2),
                   row: inside.row, column: inside.column + 1, style: .dim)
        newEmail.drawRow(on: canvas, row: inside.row + 1, column: inside.column, width: inside.width - 1,
                         label: "New email", labelWidth: labelWidth, focused: true)
        let how = mode == .verifyFirst ? "(•) verify the new address first   ( ) change it at once"
                                       : "( ) verify the new address first   (•) change it at once"
        canvas.put(TextWidth.truncate(how, toCells: inside.width - 2), row: inside.row + 3, column: inside.column + 1, style: .normal)
        let hint = mode == .verifyFirst
            ? "verifyBeforeUpdateEmail: a link goes to the outbox; the email changes when it is opened, and every session then ends."
            : "updateEmail: the email changes now; the previous address gets a message (in the outbox) that undoes the change."
        let lines = TextWidth.wrap(hint + " If you signed in more than \(context.recentLoginWindow.text) ago, you confirm it's you first.", width: frame.width - 2)
        for (index, line) in lines.enumerated() {
            canvas.put(line, row: frame.row + 9 + index, column: column, style: .dim)
        }
        FormFields.placeCursorLast(newEmail, on: canvas, row: inside.row + 1, column: inside.column, width: inside.width - 1, labelWidth: labelWidth)
    }
}
