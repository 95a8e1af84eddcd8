import AuthClient
import Foundation
import TerminalUI

/// The enrollment steps: number, texted code, name (SMS); QR code and key, code, name (TOTP).
enum EnrollmentScreen {
    static func draw(_ flow: SecondFactorEnrollmentFeature, outbox: Outbox, on canvas: any Canvas, in frame: Rect) {
        let column = frame.column + 1
        let left = Rect(row: frame.row, column: frame.column, width: min(frame.width, 46), height: frame.height)
        switch flow.step {
        case let .enteringNumber(field):
            canvas.put("Add an SMS second factor: phone number", row: frame.row, column: column, style: .title)
            FieldRow.draw(field, label: "Phone number", on: canvas, frame: frame)
            hint(PhoneNumberText.entryHint, on: canvas, frame: frame)
        case let .enteringSmsCode(phone, verificationID, code):
            canvas.put("Add an SMS second factor: code", row: frame.row, column: column, style: .title)
            FieldRow.draw(code, label: "Code", on: canvas, frame: left, labelWidth: 6)
            hint("The 6-digit code texted to \(phone). r texts a new one.", on: canvas, frame: left)
            PhonePane.draw(outbox.text(for: verificationID), to: phone, on: canvas, frame: frame)
        case let .namingPhone(phone, _, _, name):
            canvas.put("Add an SMS second factor: name", row: frame.row, column: column, style: .title)
            FieldRow.draw(name, label: "Factor name", on: canvas, frame: frame)
            hint("Shown when signing in, to tell your factors apart (\(PhoneNumberText.masked(phone))).", on: canvas, frame: frame)
        case .generatingSecret:
            canvas.put("Add an authenticator app", row: frame.row, column: column, style: .title)
        case let .scanning(secret):
            QRStep.draw(flow, secret: secret, on: canvas)
        case let .enteringTotpCode(secret, code):
            canvas.put("Add an authenticator app: code", row: frame.row, column: column, style: .title)
            FieldRow.draw(code, label: "Code", on: canvas, frame: left, labelWidth: 6)
            hint("The 6-digit code the app shows now for \(SecondFactorEnrollmentFeature.issuer) (\(flow.accountName)). esc shows the QR code again.",
                 on: canvas, frame: left)
            KeyText.draw(secret, on: canvas, row: frame.row + 2, column: frame.column + 48)
        case let .namingApp(_, _, name):
            canvas.put("Add an authenticator app: name", row: frame.row, column: column, style: .title)
            FieldRow.draw(name, label: "Factor name", on: canvas, frame: frame)
            hint("Shown when signing in, to tell your factors apart.", on: canvas, frame: frame)
        }
    }

    static func hint(_ text: String, on canvas: any Canvas, frame: Rect) {
        for (index, line) in TextWidth.wrap(text, width: frame.width - 2).enumerated() {
            canvas.put(line, row: frame.row + 6 + index, column: frame.column + 1, style: .dim)
        }
    }
}

/// The TOTP key as text: Base32 in groups of four, four groups a line, for typing by hand.
enum KeyText {
    static func groups(_ key: String) -> [String] {
        let characters = Array(key)
        let groups = stride(from: 0, to: characters.count, by: 4).map { String(characters[$0..<min($0 + 4, characters.count)]) }
        return stride(from: 0, to: groups.count, by: 4).map { groups[$0..<min($0 + 4, groups.count)].joined(separator: " ") }
    }

    static func draw(_ secret: TotpSecret, on canvas: any Canvas, row: Int, column: Int) {
        canvas.put(TextWidth.truncate("Key, to type instead:", toCells: max(0, canvas.size.width - column - 1)), row: row, column: column, style: .dim)
        for (index, line) in groups(secret.sharedSecretKey).enumerated() {
            canvas.put(line, row: row + 1 + index, column: column + 1, style: Style(.normal, bold: true))
        }
    }
}
