import AuthClient
import Foundation
import TerminalUI

/// Where texted codes arrive: the emulator's SMS outbox, drawn as a phone notification.
enum PhonePane {
    static func draw(_ message: Outbox.TextMessage?, to phone: String, on canvas: any Canvas, frame: Rect) {
        let width = 30
        let box = Rect(row: frame.row + 2, column: frame.column + frame.width - width, width: width, height: 5)
        guard box.column > frame.column + 46 else { return }
        let inside = Box.draw(on: canvas, frame: box, title: "Phone \(phone)", style: .accent)
        if let message {
            canvas.put("AuthDeck: your code is", row: inside.row, column: inside.column + 1, style: .normal)
            canvas.put(message.code, row: inside.row + 1, column: inside.column + 1, style: Style(.success, bold: true))
            canvas.put("(simulated SMS)", row: inside.row + 2, column: inside.column + 1, style: .dim)
        } else {
            canvas.put("no text yet (m: messages)", row: inside.row, column: inside.column + 1, style: .dim)
        }
    }
}
