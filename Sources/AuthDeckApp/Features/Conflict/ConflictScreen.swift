import AuthClient
import Foundation
import TerminalUI

/// The link conflict: both accounts side by side, and the choice.
enum ConflictScreen {
    static func draw(_ conflict: ConflictFeature, on canvas: any Canvas, in frame: Rect) {
        let column = frame.column + 1
        let name = FederatedProvider.displayName(conflict.providerID)
        canvas.put(TextWidth.truncate("This \(name) identity already belongs to another account", toCells: frame.width - 2),
                   row: frame.row, column: column, style: .title)
        let note = TextWidth.wrap("credentialAlreadyInUse (17025): the backend sent an updated credential; no second trip to \(name).",
                                  width: frame.width - 2)
        for (index, line) in note.enumerated() {
            canvas.put(line, row: frame.row + 1 + index, column: column, style: .dim)
        }
        let top = frame.row + 2 + note.count
        let half = (frame.width - 1) / 2
        let explanation = TextWidth.wrap(explanation(conflict.choiceOption, conflict: conflict), width: frame.width - 2)
        let height = max(6, frame.height - (top - frame.row) - 2 - explanation.count)
        let left = Box.draw(on: canvas, frame: Rect(row: top, column: frame.column, width: half, height: height),
                            title: "This account", style: .dim)
        drawAccount(conflict.previous, on: canvas, in: left)
        let right = Box.draw(on: canvas, frame: Rect(row: top, column: frame.column + half + 1, width: frame.width - half - 1, height: height),
                             title: "The account that has \(name)", style: .accent)
        switch conflict.other {
        case .loading:
            canvas.put("Looking it up…", row: right.row, column: right.column + 1, style: .dim)
        case let .loaded(snapshot):
            drawAccount(snapshot, on: canvas, in: right)
        case let .needsSecondFactor(hints):
            var lines: [(String, Style)] = [("It has 2-step verification:", .normal)]
            lines += hints.map { hint in
                switch hint {
                case let .phone(info): ("  SMS  \(PhoneNumberText.masked(info.phoneNumber)) \(info.displayName ?? "")", .normal)
                case let .totp(info): ("  TOTP \(info.displayName ?? "authenticator app")", .normal)
                }
            }
            lines += TextWidth.wrap("Its uid, email and cart show once its second factor passes; switching asks for it.",
                                    width: right.width - 2).map { ($0, .dim) }
            for (index, line) in lines.prefix(right.height).enumerated() {
                canvas.put(TextWidth.truncate(line.0, toCells: right.width - 2), row: right.row + index, column: right.column + 1, style: line.1)
            }
        case let .failed(error):
            for (index, line) in TextWidth.wrap("Could not sign in to it: \(error.description)", width: right.width - 2).prefix(right.height).enumerated() {
                canvas.put(line, row: right.row + index, column: right.column + 1, style: .error)
            }
        }
        let options = conflict.options
        var buttonColumn = column
        let buttonRow = top + height + 1
        for (index, option) in options.enumerated() {
            let text = label(option, previousIsAnonymous: conflict.previous.isAnonymous)
            let button = index == conflict.choice ? "[>\(text)<]" : "[ \(text) ]"
            canvas.put(button, row: buttonRow, column: buttonColumn, style: index == conflict.choice ? Style(.selected, bold: true, reverse: true) : .normal)
            if index == conflict.choice { canvas.placeCursor(row: buttonRow, column: buttonColumn + 2) }
            buttonColumn += TextWidth.cells(button) + 1
        }
        for (index, line) in explanation.enumerated() {
            canvas.put(line, row: buttonRow + 1 + index, column: column, style: .dim)
        }
    }

    static func label(_ option: ConflictFeature.Option, previousIsAnonymous: Bool) -> String {
        switch option {
        case .cancel: "Cancel"
        case .mergeAndKeep: "Switch + merge cart"
        case .mergeAndDelete: previousIsAnonymous ? "Switch + merge cart" : "Switch + merge + delete this"
        }
    }

    static func explanation(_ option: ConflictFeature.Option, conflict: ConflictFeature) -> String {
        let needsSecondFactor = if case .needsSecondFactor = conflict.other { true } else { false }
        return switch option {
        case .cancel: "Stay on this account; it keeps its cart, the other keeps the provider."
        case .mergeAndKeep where needsSecondFactor: "Its second factor first, then this cart moves there; this one stays."
        case .mergeAndKeep: "Sign in to the other account, add this cart to it; this account stays as it is."
        case .mergeAndDelete where needsSecondFactor: "Its second factor first, then this cart moves there; this one is deleted."
        case .mergeAndDelete where conflict.previous.isAnonymous:
            "Sign in to the other account, add this cart to it, then delete this anonymous account."
        case .mergeAndDelete: "Sign in to the other account, add this cart to it, then delete this account."
        }
    }

    static func items(_ count: Int) -> String { count == 1 ? "1 item" : "\(count) items" }

    static func drawAccount(_ account: AccountSnapshot, on canvas: any Canvas, in box: Rect) {
        let width = box.width - 2
        var lines: [(String, Style)] = [
            ("uid \(account.uid)", .normal),
            (account.isAnonymous ? "ANONYMOUS" : (account.email ?? "no email"), account.isAnonymous ? .badge : .normal),
            ("providers: \(account.providerIDs.isEmpty ? "none" : account.providerIDs.joined(separator: ", "))", .normal),
            ("cart: \(Self.items(account.cart.reduce(0) { $0 + $1.quantity }))", .dim),
        ]
        lines += account.cart.map { ("  \($0.quantity) × \($0.name)", .normal) }
        // Wrapped, not cut: three providers are wider than half of 80 columns. The cart's last items
        // give way first, and its count says how many there are.
        let wrapped = lines.flatMap { line in
            let indent = String(line.0.prefix { $0 == " " })
            return TextWidth.wrap(String(line.0.dropFirst(indent.count)), width: width - indent.count).map { (indent + $0, line.1) }
        }
        for (index, line) in wrapped.prefix(box.height).enumerated() {
            canvas.put(line.0, row: box.row + index, column: box.column + 1, style: line.1)
        }
    }
}
