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
            let text = outbox.problem?.sentence
                ?? "No messages. Emails (verify email, reset password) and texted codes appear here."
            for (index, line) in TextWidth.wrap(text, width: inside.width - 2).prefix(inside.height).enumerated() {
                canvas.put(line, row: inside.row + index, column: inside.column + 1, style: outbox.problem == nil ? .dim : .normal)
            }
            return
        }
        // Newest first; an older message of the same kind to the same address is marked and dimmed.
        let items = outbox.emails.map { email in
            let superseded = outbox.isSuperseded(email)
            return ListView.Item("mail \(time(outbox.firstSeen[email.oobCode])) \(TextWidth.pad(email.to, toCells: 26)) \(email.subject)"
                + (superseded ? " (superseded)" : ""), isDim: superseded)
        } + outbox.texts.map { text in
            let superseded = outbox.isSuperseded(text)
            return ListView.Item("sms  \(time(outbox.firstSeen[text.verificationID])) \(TextWidth.pad(text.to, toCells: 26)) code \(text.code)"
                + (superseded ? " (superseded)" : ""), isDim: superseded)
        }
        let listHeight = min(items.count, max(3, inside.height - 5))
        ListView(items: items, selection: selection).draw(on: canvas, in: Rect(row: inside.row, column: inside.column, width: inside.width, height: listHeight))
        let detailRow = inside.row + listHeight + 1
        let detail: String
        if outbox.emails.indices.contains(selection) {
            let email = outbox.emails[selection]
            detail = "To \(email.to): \(email.subject)." + seen(outbox.firstSeen[email.oobCode])
                + (outbox.isSuperseded(email) ? " Superseded: a newer one went to the same address; open that one." : "")
                + " Link: \(email.link)  (enter opens it)"
        } else if outbox.texts.indices.contains(selection - outbox.emails.count) {
            let text = outbox.texts[selection - outbox.emails.count]
            detail = "To \(text.to): your AuthDeck code is \(text.code). It works once, for a few minutes." + seen(outbox.firstSeen[text.verificationID])
                + (outbox.isSuperseded(text) ? " Superseded: a newer code went to the same number; type that one." : "")
        } else {
            detail = ""
        }
        for (index, line) in TextWidth.wrap(detail, width: inside.width - 2).prefix(max(0, inside.height - listHeight - 1)).enumerated() {
            canvas.put(line, row: detailRow + index, column: inside.column + 1, style: .normal)
        }
    }

    /// `HH:MM:SS` (UTC) of when the console first read a message; blank before it has.
    static func time(_ date: Date?) -> String {
        guard let date else { return "        " }
        return String(ConsoleView.dateText(date).dropFirst(11).prefix(8))
    }

    static func seen(_ date: Date?) -> String {
        date.map { " First read \(ConsoleView.dateText($0))." } ?? ""
    }
}
