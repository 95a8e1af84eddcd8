import AuthClient
import Foundation
import TerminalUI

/// What the app will ask the provider for, before anything is sent.
enum ProviderFormScreen {
    static let labelWidth = 14

    static func draw(_ form: ProviderFormFeature, on canvas: any Canvas, in frame: Rect) {
        let column = frame.column + 1
        let purpose = switch form.purpose {
        case .signIn: "Sign in with \(form.provider.name)"
        case .link: "Link \(form.provider.name) to this account"
        case let .reauthenticate(operation): "Confirm it's you with \(form.provider.name) to \(operation.title)"
        case .signInToLink: "Sign in with \(form.provider.name), then link the pending provider"
        }
        // Wrapped, not cut: a reauthentication names what it is for, an email address and all.
        let heading = TextWidth.wrap(purpose, width: frame.width - 2).prefix(2)
        for (index, line) in heading.enumerated() {
            canvas.put(line, row: frame.row + index, column: column, style: .title)
        }
        let top = frame.row + heading.count
        canvas.put("The request to the simulated \(form.provider.id) (an OAuthProvider):", row: top, column: column, style: .dim)
        let fields = form.fields
        let inside = Box.draw(on: canvas, frame: Rect(row: top + 1, column: frame.column, width: min(frame.width, 76), height: fields.count + 2))
        for (index, field) in fields.enumerated() {
            form[field].drawRow(on: canvas, row: inside.row + index, column: inside.column, width: inside.width - 1,
                                label: label(field), labelWidth: labelWidth, focused: form.focus == field)
        }
        var notes = [
            "Custom parameters: key=value separated by spaces. client_id, response_type, redirect_uri, state, scope and response_mode are reserved and refused here, before anything is sent.",
        ]
        if form.provider == .microsoft {
            notes.insert("Tenant: common, organizations, consumers, a directory GUID or a domain. Prompt: login, none, consent or select_account. Add scopes such as mail.read calendars.read.", at: 0)
        }
        if form.provider.usesNonce {
            notes.append("At consent AuthDeck draws a fresh 32-character nonce; the provider gets its SHA-256, the backend the raw nonce.")
        }
        var row = inside.row + inside.height + 1
        for note in notes {
            for line in TextWidth.wrap(note, width: frame.width - 2) where row < frame.row + frame.height {
                canvas.put(line, row: row, column: column, style: .dim)
                row += 1
            }
        }
        if let focusedIndex = fields.firstIndex(of: form.focus) {
            let field = form[form.focus]
            field.draw(on: canvas, row: inside.row + focusedIndex, column: inside.column + 2 + labelWidth + 1,
                       width: inside.width - 1 - (2 + labelWidth + 1), focused: true)
        }
    }

    static func label(_ field: ProviderFormFeature.Field) -> String {
        switch field {
        case .tenant: "Tenant"
        case .prompt: "Prompt"
        case .loginHint: "Login hint"
        case .scopes: "Scopes"
        case .parameters: "Parameters"
        }
    }
}
