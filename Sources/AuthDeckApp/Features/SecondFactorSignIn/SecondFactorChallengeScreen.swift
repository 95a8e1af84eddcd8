import AuthClient
import Foundation
import TerminalUI

/// Factor selection and code entry after the first factor.
enum SecondFactorChallengeScreen {
    static func draw(_ flow: SecondFactorSignInFeature, outbox: Outbox, on canvas: any Canvas, in frame: Rect) {
        let column = frame.column + 1
        switch flow.step {
        case let .choosingFactor(selection):
            let (title, note) = switch flow.purpose {
            case .signIn:
                ("Second factor: choose how to confirm it's you",
                 "\(flow.firstFactorText); this account also has 2-step verification. SMS texts a code to the phone; an authenticator app shows one.")
            case .reauthenticate:
                ("Confirm it's you: second factor",
                 "\(flow.firstFactorText); this account also has 2-step verification. SMS texts a code to the phone; an authenticator app shows one.")
            case let .mergeAfterConflict(conflict):
                ("Switch: the other account's second factor",
                 "\(FederatedProvider.displayName(conflict.providerID)) signs in to the other account, which also has 2-step verification. Once its second factor passes, this account's cart is merged into it.")
            }
            canvas.put(title, row: frame.row, column: column, style: .title)
            let inside = Box.draw(on: canvas, frame: Rect(row: frame.row + 2, column: frame.column, width: min(frame.width, 70),
                                                          height: min(flow.hints.count, 5) + 2))
            ListView(items: flow.hints.map { ListView.Item(line($0)) }, selection: selection).draw(on: canvas, in: inside, focused: true)
            for (index, text) in TextWidth.wrap(note, width: frame.width - 2).enumerated() {
                canvas.put(text, row: inside.row + inside.height + 2 + index, column: column, style: .dim)
            }
        case let .enteringCode(hint, verificationID, code):
            let left = Rect(row: frame.row, column: frame.column, width: min(frame.width, 46), height: frame.height)
            canvas.put("Second factor: \(hint.displayName ?? hint.factorID)", row: frame.row, column: column, style: .title)
            FieldRow.draw(code, label: "Code", on: canvas, frame: left, labelWidth: 6)
            switch hint {
            case let .phone(info):
                EnrollmentScreen.hint("The 6-digit code texted to \(PhoneNumberText.masked(info.phoneNumber)). r texts a new one; esc picks another factor.",
                                      on: canvas, frame: left)
                if let verificationID { PhonePane.draw(outbox.text(for: verificationID), to: PhoneNumberText.masked(info.phoneNumber), on: canvas, frame: frame) }
            case .totp:
                EnrollmentScreen.hint("The 6-digit code your authenticator app shows now for AuthDeck. esc picks another factor.",
                                      on: canvas, frame: left)
            }
        }
    }

    static func line(_ hint: MultiFactorInfo) -> String {
        switch hint {
        case let .phone(info): "SMS   \(TextWidth.pad(info.displayName ?? "Phone", toCells: 24)) \(PhoneNumberText.masked(info.phoneNumber))"
        case let .totp(info): "TOTP  \(TextWidth.pad(info.displayName ?? "Authenticator", toCells: 24)) authenticator app"
        }
    }
}
