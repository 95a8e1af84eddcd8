import AuthClient
import Foundation
import TerminalUI

/// The account's second factors: type, name, number (masked) and enrollment date.
enum SecondFactorsScreen {
    /// `emptyHint`: what the list says while it is empty.
    static func draw(_ context: ConsoleContext, selection: Int, emptyHint: String, on canvas: any Canvas, in frame: Rect) {
        guard let user = context.user else { return }
        let column = frame.column + 1
        canvas.put("2-step verification: second factors", row: frame.row, column: column, style: .title)
        let factors = user.enrolledFactors
        let inside = Box.draw(on: canvas, frame: Rect(row: frame.row + 2, column: frame.column, width: frame.width, height: 7),
                              title: "Enrolled (\(factors.count) of 5)", style: .accent)
        if factors.isEmpty {
            canvas.put(emptyHint, row: inside.row, column: inside.column + 1, style: .dim)
        } else {
            // The name column is as wide as the longest name where the row has room: names tell factors apart.
            let longest = factors.map { TextWidth.cells($0.displayName ?? "—") }.max() ?? 0
            let nameCells = max(22, min(longest, inside.width - 2 - 45))
            ListView(items: factors.map { ListView.Item(line($0, nameCells: nameCells, width: inside.width - 2)) }, selection: selection)
                .draw(on: canvas, in: inside, focused: true)
        }
        var notes: [(String, Style)] = []
        if !user.emailVerified {
            notes.append(("The email is not verified yet: enrolling needs it (v on the account screen, then open the email with m).", .warning))
        }
        notes.append(("With a factor enrolled, signing in with the password then asks for one of them. Removing one is a sensitive change: a stale sign-in is confirmed first.", .dim))
        var row = frame.row + 10
        for (text, style) in notes {
            for line in TextWidth.wrap(text, width: frame.width - 2) {
                canvas.put(line, row: row, column: column, style: style)
                row += 1
            }
        }
    }

    static func line(_ factor: MultiFactorInfo, nameCells: Int, width: Int) -> String {
        let kind = factor.factorID == PhoneMultiFactorGenerator.factorID ? "SMS " : "TOTP"
        let name = TextWidth.pad(TextWidth.truncate(factor.displayName ?? "—", toCells: nameCells), toCells: nameCells)
        let detail: String = switch factor {
        case let .phone(info): PhoneNumberText.masked(info.phoneNumber)
        case .totp: "authenticator app"
        }
        let date = factor.enrollmentDate.map { "enrolled " + String(ConsoleView.dateText($0).prefix(10)) } ?? ""
        return TextWidth.truncate("\(kind)  \(name) \(TextWidth.pad(detail, toCells: 18)) \(date)", toCells: width)
    }
}
