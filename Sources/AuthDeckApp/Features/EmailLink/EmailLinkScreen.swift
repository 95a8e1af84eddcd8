import AuthClient
import Foundation
import TerminalUI

/// The email-link flow: the address, then where the link is, or what an opened link should do.
enum EmailLinkScreen {
    static func draw(_ flow: EmailLinkFeature, context: ConsoleContext, on canvas: any Canvas, in frame: Rect) {
        let column = frame.column + 1
        canvas.put(flow.purpose == .link ? "Link an email by a sign-in link" : "Sign in with an email link", row: frame.row, column: column, style: .title)
        let width = min(frame.width, 70)
        switch flow.step {
        case let .enteringEmail(field):
            let inside = Box.draw(on: canvas, frame: Rect(row: frame.row + 2, column: frame.column, width: width, height: 5))
            field.drawRow(on: canvas, row: inside.row + 1, column: inside.column, width: inside.width - 1,
                          label: "Email", labelWidth: CredentialFormFeature.labelWidth, focused: true)
            let hint = flow.purpose == .link
                ? "A link is emailed to this address; opening it from the outbox (F3) links the address to this account, which keeps its uid."
                : "No password: a link is emailed to this address; opening it from the outbox (F3) signs in, creating the account if there is none."
            paragraph(hint, on: canvas, row: frame.row + 8, column: column, width: frame.width - 2)
            FormFields.placeCursorLast(field, on: canvas, row: inside.row + 1, column: inside.column, width: inside.width - 1,
                                       labelWidth: CredentialFormFeature.labelWidth)
        case let .sent(email):
            let text = "A sign-in link was emailed to \(email). Press m to open the outbox, select the message and press enter: "
                + (flow.purpose == .link ? "the address is linked to this account." : "you are signed in as \(email).")
                + " The link works once, for an hour; r sends another."
            paragraph(text, on: canvas, row: frame.row + 2, column: column, width: frame.width - 2)
        case let .opening(email, _, selection):
            let choices = flow.choices(for: context.user)
            let current = context.user.map { $0.email ?? $0.uid } ?? "nobody"
            let items = choices.map { choice -> ListView.Item in
                switch choice {
                case .linkHere: ListView.Item("Link \(email) to this account (\(current))")
                case .signInInstead: ListView.Item("Sign in as \(email) instead")
                }
            }
            let box = Box.draw(on: canvas, frame: Rect(row: frame.row + 2, column: frame.column, width: width, height: items.count + 2),
                               title: "A sign-in link for \(email)", style: .accent)
            ListView(items: items, selection: selection).draw(on: canvas, in: box, focused: true)
            let hint = choices.contains(.linkHere)
                ? "Linking keeps this account's uid and cart and adds the address as a way to sign in."
                : "This account has an email and password already; signing in as \(email) leaves it."
            paragraph(hint, on: canvas, row: box.row + box.height + 1, column: column, width: frame.width - 2)
            canvas.placeCursor(row: box.row + selection, column: box.column)
        }
    }

    private static func paragraph(_ text: String, on canvas: any Canvas, row: Int, column: Int, width: Int) {
        for (index, line) in TextWidth.wrap(text, width: width).enumerated() {
            canvas.put(line, row: row + index, column: column, style: .dim)
        }
    }
}
