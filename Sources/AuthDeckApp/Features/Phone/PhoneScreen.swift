import AuthClient
import Foundation
import TerminalUI

/// Phone sign-in and phone linking: number, texted code, and the conflict when the number is
/// another account's.
enum PhoneScreen {
    static func draw(_ flow: PhoneFeature, outbox: Outbox, on canvas: any Canvas, in frame: Rect) {
        let column = frame.column + 1
        // The title bar and the room have the short title; the screen says it whole, on the row under it too.
        for (index, line) in TextWidth.wrap(heading(flow), width: frame.width - 2).prefix(2).enumerated() {
            canvas.put(line, row: frame.row + index, column: column, style: .title)
        }
        switch flow.step {
        case let .enteringNumber(field):
            FieldRow.draw(field, label: "Phone number", on: canvas, frame: frame)
            EnrollmentScreen.hint(PhoneNumberText.entryHint, on: canvas, frame: frame)
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

    static func heading(_ flow: PhoneFeature) -> String {
        switch flow.purpose {
        case .signIn: "Sign in with a phone number"
        case .link: "Link a phone number to this account"
        case let .reauthenticate(operation): "Confirm it's you to \(operation.title)"
        }
    }
}
