import AuthClient
import Foundation
import TerminalUI

/// "Forgot password": the email, the request sent, then the new password.
enum PasswordResetScreen {
    static func draw(_ flow: PasswordResetFeature, on canvas: any Canvas, in frame: Rect) {
        let column = frame.column + 1
        switch flow.step {
        case let .enteringEmail(field):
            canvas.put("Reset a forgotten password", row: frame.row, column: column, style: .title)
            FieldRow.draw(field, label: "Email", on: canvas, frame: frame)
            EnrollmentScreen.hint("A reset link is emailed to the account. The embedded backend delivers it to the outbox (F3: m would type a letter here); "
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
