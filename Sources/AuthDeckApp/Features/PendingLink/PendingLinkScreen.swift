import AuthClient
import Foundation
import TerminalUI

/// accountExistsWithDifferentCredential / emailAlreadyInUse: sign in to that account, then link.
enum PendingLinkScreen {
    static func draw(_ state: PendingLinkFeature, on canvas: any Canvas, in frame: Rect) {
        let column = frame.column + 1
        let name = FederatedProvider.displayName(state.pending.providerID)
        let email = state.pending.email ?? "this email"
        let (title, text) = switch state.pending.reason {
        case .accountExists:
            ("An account already uses \(email)",
             "\(name) does not vouch for \(email), so Firebase will not join it to that account by itself (accountExistsWithDifferentCredential). Sign in to that account the way it knows; \(name) is then linked to it without asking \(name) again.")
        case .emailInUse:
            ("\(name)'s email belongs to another account",
             "The email \(email) of this \(name) identity belongs to another account (emailAlreadyInUse). Sign in to that account; \(name) is then linked to it."
                + (state.pending.previousAnonymousUid == nil ? "" : " This anonymous account's cart comes along."))
        }
        // Wrapped, not cut: a long email address makes the title a second row.
        let heading = TextWidth.wrap(title, width: frame.width - 2).prefix(2)
        for (index, line) in heading.enumerated() {
            canvas.put(line, row: frame.row + index, column: column, style: .title)
        }
        let lines = TextWidth.wrap(text + knownMethodsSentence(state, email: email), width: frame.width - 2)
        for (index, line) in lines.enumerated() {
            canvas.put(line, row: frame.row + heading.count + index, column: column, style: .normal)
        }
        let methods = state.methods
        let box = Box.draw(on: canvas, frame: Rect(row: frame.row + heading.count + 1 + lines.count, column: frame.column, width: min(frame.width, 60), height: methods.count + 2),
                           title: "Sign in to that account with", style: .accent)
        ListView(items: methods.map { ListView.Item(FederatedProvider.displayName($0)) }, selection: state.selection).draw(on: canvas, in: box)
        canvas.placeCursor(row: box.row + state.selection, column: box.column)
    }

    /// What `fetchSignInMethodsForEmail` told, or that the backend does not tell.
    static func knownMethodsSentence(_ state: PendingLinkFeature, email: String) -> String {
        guard let known = state.knownMethods else { return "" }
        guard !known.isEmpty else {
            return " Email-enumeration protection is on, so the backend does not say how \(email) signs in: choose the way you know."
        }
        return " The backend says \(email) signs in with: \(known.map(FederatedProvider.displayName).joined(separator: ", "))."
    }
}
