import AuthClient
import Foundation
import TerminalUI

/// The simulated provider's account chooser and consent, labelled as simulated throughout.
enum ConsentScreen {
    static func draw(_ consent: ConsentFeature, on canvas: any Canvas, in frame: Rect) {
        let column = frame.column + 1
        let name = FederatedProvider.displayName(consent.provider.providerID)
        canvas.put(" SIMULATED \(name.uppercased()) ", row: frame.row, column: column, style: .badge)
        canvas.put(TextWidth.truncate(" test identities of AuthDeck, not the real \(name)", toCells: frame.width - 14 - name.count),
                   row: frame.row, column: column + 12 + name.count, style: .dim)
        let asks = switch consent.purpose {
        case .signIn, .signInToLink: "to sign you in"
        case .link: "to link your \(name) account"
        case .reauthenticate: "to confirm it's you"
        }
        var clientId = ""
        if case let .loaded(list) = consent.directory { clientId = " (client id \(list.clientID))" }
        let parameters = consent.provider.customParameters.keys.sorted().map { "\($0)=\(consent.provider.customParameters[$0] ?? "")" }
        // Whole, wrapped: the request is what the presenter explains.
        let header = ["AuthDeck\(clientId) asks \(asks).",
                      "Scopes:     \(consent.provider.scopes.isEmpty ? "(none)" : consent.provider.scopes.joined(separator: " "))",
                      "Parameters: \(parameters.isEmpty ? "(none)" : parameters.joined(separator: " "))"]
            .flatMap { TextWidth.fit($0, width: frame.width - 2) }
        for (index, line) in header.enumerated() {
            canvas.put(line, row: frame.row + 1 + index, column: column, style: .normal)
        }
        let top = frame.row + 2 + header.count

        switch consent.directory {
        case .loading:
            canvas.put("Asking the simulated provider for its accounts…", row: top, column: column, style: .dim)
            return
        case let .unavailable(reason):
            for (index, line) in TextWidth.wrap(reason, width: frame.width - 2).enumerated() {
                canvas.put(line, row: top + index, column: column, style: .error)
            }
            return
        case .loaded:
            break
        }
        let identities = consent.identities
        let reserved = consent.isApple ? 3 : 1
        let listHeight = min(identities.count + 1, max(frame.height - (top - frame.row) - 2 - reserved, 1))
        let box = Box.draw(on: canvas, frame: Rect(row: top, column: frame.column, width: frame.width, height: listHeight + 2),
                           title: "Choose an account (\(identities.count))", style: .accent)
        let emailCells = emailColumn(identities, width: box.width - 2)
        let items = identities.map { ListView.Item(line($0, emailCells: emailCells, width: box.width - 2)) } + [ListView.Item("+ Add a new identity")]
        ListView(items: items, selection: consent.selection).draw(on: canvas, in: box, focused: consent.newIdentity == nil)
        canvas.placeCursor(row: box.row + min(consent.selection, listHeight - 1), column: box.column)
        let row = box.row + box.height + 1
        if consent.isApple {
            let text: String
            if let identity = consent.selectedIdentity, identity.authorized {
                text = "Email: \(identity.emailHidden == true ? "hidden" : "shared") (chosen at the first consent; Apple keeps it). Name: not shared again."
            } else {
                text = "[\(consent.hideEmail ? "x" : " ")] Hide my email (h): Apple gives a private relay address. The name is shared only now."
            }
            for (index, line) in TextWidth.wrap(text, width: frame.width - 2).prefix(2).enumerated() {
                canvas.put(line, row: row + index, column: column, style: .normal)
            }
        }
        if let form = consent.newIdentity {
            drawNewIdentity(form, provider: name, on: canvas)
        }
    }

    static func line(_ identity: SimulatedIdentityProviders.Identity, emailCells: Int, width: Int) -> String {
        let parts = [TextWidth.pad(identity.displayName ?? "—", toCells: 18), TextWidth.pad(identity.email ?? "—", toCells: emailCells), notes(identity)]
        return TextWidth.truncate(parts.joined(separator: " "), toCells: width)
    }

    static func notes(_ identity: SimulatedIdentityProviders.Identity) -> String {
        var notes: [String] = []
        if let type = identity.accountType { notes.append(type) }
        if identity.authorized { notes.append("consented before") }
        return notes.joined(separator: " · ")
    }

    /// The email column: 26 cells, or as wide as the longest email where the row has room beside the
    /// name and the notes, so the email the identity is chosen by stays whole.
    static func emailColumn(_ identities: [SimulatedIdentityProviders.Identity], width: Int) -> Int {
        let longest = identities.map { TextWidth.cells($0.email ?? "—") }.max() ?? 0
        let longestNotes = identities.map { TextWidth.cells(notes($0)) }.max() ?? 0
        return max(26, min(longest, width - 18 - 2 - longestNotes))
    }

    static func drawNewIdentity(_ form: NewIdentityForm, provider: String, on canvas: any Canvas) {
        let frame = Rect.centered(width: 60, height: 6, in: canvas.size)
        let inside = Box.draw(on: canvas, frame: frame, title: "New simulated \(provider) identity", style: .accent)
        form.name.drawRow(on: canvas, row: inside.row + 1, column: inside.column, width: inside.width - 1,
                          label: "Name", labelWidth: 6, focused: !form.focusOnEmail)
        form.email.drawRow(on: canvas, row: inside.row + 2, column: inside.column, width: inside.width - 1,
                           label: "Email", labelWidth: 6, focused: form.focusOnEmail)
        let focused = form.focusOnEmail ? form.email : form.name
        focused.draw(on: canvas, row: inside.row + (form.focusOnEmail ? 2 : 1), column: inside.column + 9, width: inside.width - 10, focused: true)
    }
}
