import AuthClient
import Foundation
import TerminalUI

/// A one-field form row in a box, with the cursor on the field.
enum FieldRow {
    static func draw(_ field: TextField, label: String, on canvas: any Canvas, frame: Rect, labelWidth: Int = 14) {
        let inside = Box.draw(on: canvas, frame: Rect(row: frame.row + 2, column: frame.column, width: min(frame.width, 60), height: 3))
        field.drawRow(on: canvas, row: inside.row, column: inside.column, width: inside.width - 1, label: label,
                      labelWidth: labelWidth, focused: true)
    }
}
