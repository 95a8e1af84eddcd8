import AuthClient
import Foundation
import TerminalUI

/// The outbox overlay: what the backend would have emailed and texted, newest first. Opening an
/// email follows its link, as clicking it in a mail client would.
enum OutboxScreen {
    static func draw(_ outbox: Outbox, selection: Int, on canvas: any Canvas) {
        let frame = Rect(row: 1, column: 0, width: canvas.size.width, height: canvas.size.height - 2)
        let inside = Box.draw(on: canvas, frame: frame, title: "Messages: the backend's outbox (simulated email and SMS)", style: .accent)
        guard outbox.count > 0 else {
            canvas.put("No messages. Emails (verify email, reset password) and texted codes appear here.", row: inside.row,
                       column: inside.column + 1, style: .dim)
            return
        }
        let items = outbox.emails.map { ListView.Item("mail  \(TextWidth.pad($0.to, toCells: 30)) \($0.subject)") }
            + outbox.texts.map { ListView.Item("sms   \(TextWidth.pad($0.to, toCells: 30)) code \($0.code)", isDim: false) }
        let listHeight = min(items.count, max(3, inside.height - 5))
        ListView(items: items, selection: selection).draw(on: canvas, in: Rect(row: inside.row, column: inside.column, width: inside.width, height: listHeight))
        let detailRow = inside.row + listHeight + 1
        let detail: String
        if outbox.emails.indices.contains(selection) {
            let email = outbox.emails[selection]
            detail = "To \(email.to): \(email.subject). Link: \(email.link)  (enter opens it)"
        } else if outbox.texts.indices.contains(selection - outbox.emails.count) {
            let text = outbox.texts[selection - outbox.emails.count]
            detail = "To \(text.to): your AuthDeck code is \(text.code). It works once, for a few minutes."
        } else {
            detail = ""
        }
        for (index, line) in TextWidth.wrap(detail, width: inside.width - 2).prefix(max(0, inside.height - listHeight - 1)).enumerated() {
            canvas.put(line, row: detailRow + index, column: inside.column + 1, style: .normal)
        }
    }
}
