import AuthClient
import Foundation
import TerminalUI

/// Drawing help shared by the forms.
enum FormFields {
    /// The focused field draws again last so the terminal cursor (screen readers follow it)
    /// ends on it, whatever was drawn after it.
    static func placeCursorLast(_ field: TextField, on canvas: any Canvas, row: Int, column: Int, width: Int, labelWidth: Int) {
        field.draw(on: canvas, row: row, column: column + 2 + labelWidth + 1, width: width - (2 + labelWidth + 1), focused: true)
    }
}
