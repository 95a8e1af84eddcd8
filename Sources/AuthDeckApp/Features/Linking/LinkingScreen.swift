import AuthClient
import Foundation
import TerminalUI

/// The sign-in methods of the account: linked, and not linked yet.
enum LinkingScreen {
    static func draw(_ context: ConsoleContext, state: LinkingFeature, on canvas: any Canvas, in frame: Rect) {
        guard let user = context.user else { return }
        let column = frame.column + 1
        canvas.put("Sign-in methods of this account", row: frame.row, column: column, style: .title)
        // Wrapped, not cut: beside a uid the sentence ran past 80 columns.
        let about = TextWidth.wrap("uid \(user.uid): link more ways to sign in to it; unlink any but the last.", width: frame.width - 2).prefix(2)
        for (index, line) in about.enumerated() {
            canvas.put(line, row: frame.row + 1 + index, column: column, style: .dim)
        }
        let linked = LinkingFeature.linked(user)
        let notLinked = LinkingFeature.notLinked(user)
        let width = min(frame.width, 70)
        let linkedBox = Box.draw(on: canvas, frame: Rect(row: frame.row + 2 + about.count, column: frame.column, width: width, height: max(linked.count, 1) + 2),
                                 title: "Linked (\(linked.count))", style: state.selection < linked.count ? .accent : .dim)
        if linked.isEmpty {
            canvas.put("none: this account is anonymous", row: linkedBox.row, column: linkedBox.column + 1, style: .dim)
        } else {
            let items = user.providerData.map { ListView.Item(AccountScreen.providerLine($0, width: linkedBox.width - 2)) }
            // One selection spans both lists: only the list that holds it marks a row.
            ListView(items: items, selection: state.selection)
                .draw(on: canvas, in: linkedBox, focused: state.selection < linked.count, marksSelection: state.selection < linked.count)
        }
        let top = linkedBox.row + linkedBox.height + 1
        let notLinkedBox = Box.draw(on: canvas, frame: Rect(row: top, column: frame.column, width: width, height: max(notLinked.count, 1) + 2),
                                    title: "Not linked yet (\(notLinked.count))", style: state.selection >= linked.count ? .accent : .dim)
        if notLinked.isEmpty {
            canvas.put("every method is linked", row: notLinkedBox.row, column: notLinkedBox.column + 1, style: .dim)
        } else {
            let items = notLinked.map { ListView.Item(TextWidth.pad(FederatedProvider.displayName($0), toCells: 20) + " " + Self.hint($0)) }
            ListView(items: items, selection: state.selection - linked.count)
                .draw(on: canvas, in: notLinkedBox, focused: state.selection >= linked.count, marksSelection: state.selection >= linked.count)
        }
        let hint = user.isAnonymous
            ? "Linking any of them upgrades this anonymous account: the uid and the cart stay."
            : "A method that belongs to another account opens the link-conflict screen."
        // Wrapped, not cut: at 80 columns the anonymous account's sentence is one line too long.
        for (index, line) in TextWidth.wrap(hint, width: frame.width - 2).enumerated() {
            canvas.put(line, row: notLinkedBox.row + notLinkedBox.height + 1 + index, column: column, style: .dim)
        }
        let selectedRow = state.selection < linked.count ? linkedBox.row + state.selection : notLinkedBox.row + state.selection - linked.count
        canvas.placeCursor(row: selectedRow, column: state.selection < linked.count ? linkedBox.column : notLinkedBox.column)
    }

    static func hint(_ method: String) -> String {
        switch method {
        case EmailAuthProvider.id: "an email and a password"
        case EmailLinkAuthSignInMethod.id: "an email, no password"
        case FederatedProvider.apple.id: "simulated, nonce"
        case FederatedProvider.microsoft.id: "simulated, tenant"
        case FederatedProvider.google.id: "simulated"
        case FederatedProvider.facebook.id: "simulated, access token"
        // A provider without a note shows its name alone.
        default: ""
        }
    }
}
