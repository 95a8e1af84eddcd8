import AuthClient
import Foundation
import TerminalUI

/// Phone sign-in and phone linking: number, texted code, and the conflict when the number is
/// another account's.
enum PhoneScreen {
    static func draw(_ flow: PhoneFlow, outbox: Outbox, on canvas: any Canvas, in frame: Rect) {
        let column = frame.column + 1
        canvas.put(flow.title, row: frame.row, column: column, style: .title)
        switch flow.step {
        case let .enteringNumber(field):
            FieldRow.draw(field, label: "Phone number", on: canvas, frame: frame)
            EnrollmentScreen.hint("International (E.164) format: +, country code, number, e.g. +1 555 555 0100. A code is texted to it.",
                                  on: canvas, frame: frame)
        case let .enteringCode(phone, verificationID, code):
            let left = Rect(row: frame.row, column: frame.column, width: min(frame.width, 46), height: frame.height)
            FieldRow.draw(code, label: "Code", on: canvas, frame: left, labelWidth: 6)
            EnrollmentScreen.hint("The 6-digit code texted to \(phone). r texts a new one.", on: canvas, frame: left)
            PhonePane.draw(outbox.text(for: verificationID), to: phone, on: canvas, frame: frame)
        case let .conflict(phone, _, signInSelected):
            Dialog(title: "\(phone) belongs to another account",
                   message: "The code was right, but \(phone) is already the sign-in of another account, so it was not linked. "
                       + "You can sign in to that account instead (no second code needed).",
                   buttons: ["Cancel", "Sign in to that account"], selection: signInSelected ? 1 : 0).draw(on: canvas)
        }
    }
}

/// "Forgot password": the email, the request sent, then the new password.
enum PasswordResetScreen {
    static func draw(_ flow: PasswordResetFlow, on canvas: any Canvas, in frame: Rect) {
        let column = frame.column + 1
        switch flow.step {
        case let .enteringEmail(field):
            canvas.put("Reset a forgotten password", row: frame.row, column: column, style: .title)
            FieldRow.draw(field, label: "Email", on: canvas, frame: frame)
            EnrollmentScreen.hint("A reset link is emailed to the account. The embedded backend delivers it to the outbox (m); "
                                  + "an unknown address gets the same answer (email-enumeration protection).", on: canvas, frame: frame)
        case let .sent(email):
            canvas.put("Reset a forgotten password", row: frame.row, column: column, style: .title)
            for (index, line) in TextWidth.wrap("If an account uses \(email), the reset email is in the outbox. Press m, choose it and press enter to open its link.",
                                                width: frame.width - 2).enumerated() {
                canvas.put(line, row: frame.row + 2 + index, column: column, style: .normal)
            }
        case let .choosingPassword(_, email, form):
            canvas.put("Choose a new password for \(email)", row: frame.row, column: column, style: .title)
            let inside = Box.draw(on: canvas, frame: Rect(row: frame.row + 2, column: frame.column, width: min(frame.width, 70), height: 4))
            form.newPassword.drawRow(on: canvas, row: inside.row, column: inside.column, width: inside.width - 1,
                                     label: "New password", labelWidth: 18, focused: !form.focusOnConfirmation)
            form.confirmation.drawRow(on: canvas, row: inside.row + 1, column: inside.column, width: inside.width - 1,
                                      label: "Repeat it", labelWidth: 18, focused: form.focusOnConfirmation)
            EnrollmentScreen.hint("At least 6 characters. Every session of the account ends; sign in again afterwards.", on: canvas, frame: frame)
            let focused = form.focusOnConfirmation ? form.confirmation : form.newPassword
            focused.draw(on: canvas, row: inside.row + (form.focusOnConfirmation ? 1 : 0), column: inside.column + 21,
                         width: inside.width - 22, focused: true)
        }
    }
}

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
