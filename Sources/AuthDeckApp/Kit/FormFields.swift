import AuthClient
import Foundation
import TerminalUI

/// Drawing help and keys shared by the forms.
enum FormFields {
    /// What enter does on a form's focused field: it goes to the next field until the form can be
    /// sent from there, then sends it. The key bar and help say which, so "submit" never stands on a
    /// field where enter only moves on.
    enum Enter: Equatable, Sendable {
        case next
        /// Sends the form: what sending does, in the bar's words ("sign in", "add").
        case send(String)

        var label: String {
            switch self {
            case .next: "next"
            case let .send(label): label
            }
        }
    }

    /// The focused field draws again last so the terminal cursor (screen readers follow it)
    /// ends on it, whatever was drawn after it.
    static func placeCursorLast(_ field: TextField, on canvas: any Canvas, row: Int, column: Int, width: Int, labelWidth: Int) {
        field.draw(on: canvas, row: row, column: column + 2 + labelWidth + 1, width: width - (2 + labelWidth + 1), focused: true)
    }
}

extension KeyBinding {
    /// enter on a form, named for what it does on the focused field.
    static func formEnter<Action>(_ enter: FormFields.Enter, _ own: Action) -> KeyBinding where Meaning == KeyIntent<Action> {
        KeyBinding([.enter], "enter", enter.label, .feature(own))
    }

    /// A form's keys: printable keys are typed, so commands are on enter, tab, esc and function keys.
    static func formKeys<Action: FormAction>(enter: FormFields.Enter) -> [KeyBinding] where Meaning == KeyIntent<Action> {
        [
            .formEnter(enter, .submit),
            KeyBinding([.tab, .down], "tab", "next", .feature(.nextField)),
            KeyBinding([.backTab, .up], "shift-tab", "previous field", .feature(.previousField), inBar: false),
            .back(), .helpInForm, .inspectorInForm,
        ]
    }
}
