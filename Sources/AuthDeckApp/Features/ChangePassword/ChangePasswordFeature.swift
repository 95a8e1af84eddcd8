import AuthClient
import Foundation
import TerminalUI

/// Changing the password: the new one twice. A sensitive operation: a stale sign-in is confirmed first.
public struct ChangePasswordFeature: ConsoleFeature {
    /// What the screen's keys mean.
    public enum Action: Equatable, Sendable, FormAction {
        case submit, back, nextField, previousField
    }

    /// It starts no work of its own: what it runs, the console answers.
    typealias Event = Never

    public var newPassword = TextField(maxLength: 128, isSecure: true)
    public var confirmation = TextField(maxLength: 128, isSecure: true)
    public var focusOnConfirmation = false

    public init() {}

    var title: String { "Change password" }
    var needsUser: Bool { true }
    var editsText: Bool { true }
    var screen: Screen { .changePassword(self) }

    func bindings(in context: ConsoleContext) -> [KeyBinding<KeyIntent<Action>>] {
        KeyBinding.formKeys(enter: focusOnConfirmation ? .send("change password") : .next)
    }

    mutating func perform(_ action: Action, in context: ConsoleContext) -> [FlowStep] {
        switch action {
        case .nextField, .previousField:
            focusOnConfirmation.toggle()
        case .back:
            // The form's error goes with it.
            return [.banner(nil), .show(.account(AccountFeature()))]
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
        }
        return []
    }

    mutating func edit(_ key: Key) {
        if focusOnConfirmation { _ = confirmation.handle(key) } else { _ = newPassword.handle(key) }
    }

    func draw(in context: ConsoleContext, on canvas: any Canvas, frame: Rect) {
        let labelWidth = CredentialFormFeature.labelWidth
        canvas.put("Change the password", row: frame.row, column: frame.column + 1, style: .title)
        let inside = Box.draw(on: canvas, frame: Rect(row: frame.row + 2, column: frame.column, width: min(frame.width, 70), height: 6))
        newPassword.drawRow(on: canvas, row: inside.row + 1, column: inside.column, width: inside.width - 1,
                            label: "New password", labelWidth: labelWidth, focused: !focusOnConfirmation)
        confirmation.drawRow(on: canvas, row: inside.row + 2, column: inside.column, width: inside.width - 1,
                             label: "Repeat it", labelWidth: labelWidth, focused: focusOnConfirmation)
        let hint = "A sensitive change: if you signed in more than \(context.recentLoginWindow.text) ago, you will be asked to confirm it's you."
        for (index, line) in TextWidth.wrap(hint, width: frame.width - 2).enumerated() {
            canvas.put(line, row: frame.row + 9 + index, column: frame.column + 1, style: .dim)
        }
        FormFields.placeCursorLast(focusOnConfirmation ? confirmation : newPassword, on: canvas,
                                   row: inside.row + (focusOnConfirmation ? 2 : 1), column: inside.column, width: inside.width - 1,
                                   labelWidth: labelWidth)
    }
}
