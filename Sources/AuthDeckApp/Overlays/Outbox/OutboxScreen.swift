import AuthClient
import Foundation
import TerminalUI

/// The outbox overlay: what the backend would have emailed and texted, newest first. Opening an
/// email follows its link, as clicking it in a mail client would.
enum OutboxScreen {
    /// `remoteTerminal`: the console is drawn on someone else's terminal (over SSH), where a link to the
    /// server's loopback address would point at their own machine, so the link is described, not shown.
    static func draw(_ outbox: Outbox, selection: Int, remoteTerminal: Bool, on canvas: any Canvas) {
        let frame = Rect(row: 1, column: 0, width: canvas.size.width, height: canvas.size.height - 2)
        let readTimesOnly = outbox.emails.contains { $0.sentAt == nil } || outbox.texts.contains { $0.sentAt == nil }
        // The emulator does not say when it sent a message: the times are then this console's own reads.
        let title = readTimesOnly && outbox.count > 0 ? "Messages: the backend's outbox · times when first read"
                                                      : "Messages: the backend's outbox (simulated email and SMS)"
        let inside = Box.draw(on: canvas, frame: frame, title: title, style: .accent)
        guard outbox.count > 0 else {
            let text = outbox.problem?.sentence
                ?? "No messages. Emails (verify email, reset password) and texted codes appear here."
            for (index, line) in TextWidth.wrap(text, width: inside.width - 2).prefix(inside.height).enumerated() {
                canvas.put(line, row: inside.row + index, column: inside.column + 1, style: outbox.problem == nil ? .dim : .normal)
            }
            return
        }
        // Newest first; a message that is not the one to open is marked and dimmed.
        // Across projects each row ends with its project: cut first on a narrow terminal, named whole in the detail.
        let projects = outbox.namesProjects
        func project(_ id: String) -> String { projects ? "  " + id : "" }
        let items = outbox.emails.map { email in
            let mark = outbox.mark(email)
            let subject = email.subject + (mark.map { " (\($0.label))" } ?? "")
            return ListView.Item("mail \(time(outbox.time(sentAt: email.sentAt, key: email.oobCode))) \(TextWidth.pad(email.to, toCells: 26)) "
                + (projects ? TextWidth.pad(subject, toCells: 22) : subject) + project(email.project), isDim: mark != nil)
        } + outbox.texts.map { text in
            let mark = outbox.mark(text)
            let code = "code \(text.code)" + (mark.map { " (\($0.label))" } ?? "")
            return ListView.Item("sms  \(time(outbox.time(sentAt: text.sentAt, key: text.verificationID))) \(TextWidth.pad(text.to, toCells: 26)) "
                + (projects ? TextWidth.pad(code, toCells: 22) : code) + project(text.project), isDim: mark != nil)
        }
        let listHeight = min(items.count, max(3, inside.height - 5))
        ListView(items: items, selection: selection).draw(on: canvas, in: Rect(row: inside.row, column: inside.column, width: inside.width, height: listHeight))
        let detailRow = inside.row + listHeight + 1
        let detail: String
        if outbox.emails.indices.contains(selection) {
            let email = outbox.emails[selection]
            detail = emailDetail(email, in: outbox, remoteTerminal: remoteTerminal)
        } else if outbox.texts.indices.contains(selection - outbox.emails.count) {
            let text = outbox.texts[selection - outbox.emails.count]
            detail = "To \(text.to)\(inProject(text.project, of: outbox)): your AuthDeck code is \(text.code). It works once, for a few minutes."
                + when(outbox.time(sentAt: text.sentAt, key: text.verificationID))
                + textMarkDetail(outbox.mark(text))
        } else {
            detail = ""
        }
        for (index, line) in TextWidth.wrap(detail, width: inside.width - 2).prefix(max(0, inside.height - listHeight - 1)).enumerated() {
            canvas.put(line, row: detailRow + index, column: inside.column + 1, style: .normal)
        }
    }

    static func emailDetail(_ email: Outbox.Email, in outbox: Outbox, remoteTerminal: Bool) -> String {
        var detail = "To \(email.to)\(inProject(email.project, of: outbox)): \(email.subject)."
        if let account = email.account { detail += " For the account of \(account)." }
        detail += when(outbox.time(sentAt: email.sentAt, key: email.oobCode))
        switch outbox.mark(email) {
        case .superseded: detail += " Superseded: a newer one went to the same address; open that one."
        case .used: detail += " Used: this console opened it."
        case .expired: detail += " Expired: its code is no longer taken; send a new one."
        case .noLongerWorks: detail += " It no longer works: the backend refused its code."
        case nil: break
        }
        if outbox.isElsewhere(project: email.project) {
            return detail + " It acts in that project: open it from a console there."
        }
        // The code is a credential: shortened, as the inspector shortens tokens.
        let code = "code \(email.oobCode.prefix(6))…"
        return detail + (remoteTerminal ? " enter opens it here (\(code))." : " Link: \(email.link)  (enter opens it)")
    }

    static func textMarkDetail(_ mark: Outbox.Mark?) -> String {
        switch mark {
        case .superseded: " Superseded: a newer code went to the same number; type that one."
        case .used, .noLongerWorks: " Used: the backend no longer takes it."
        case .expired: " Expired: the backend no longer takes it; ask for a new code."
        case nil: ""
        }
    }

    static func inProject(_ project: String, of outbox: Outbox) -> String {
        outbox.namesProjects ? " in \(project)" : ""
    }

    /// `HH:MM:SS` (UTC) of when a message was sent, or first read; blank before it has been.
    static func time(_ time: MessageTime?) -> String {
        guard let time else { return "        " }
        return String(ConsoleView.dateText(time.date).dropFirst(11).prefix(8))
    }

    static func when(_ time: MessageTime?) -> String {
        guard let time else { return "" }
        return time.isSendingTime ? " Sent \(ConsoleView.dateText(time.date))."
                                  : " First read \(ConsoleView.dateText(time.date)) (this backend does not say when it sent it)."
    }
}
