import AuthClient
import Foundation
import TerminalUI

/// The account's second factors: type, name, number (masked) and enrollment date.
enum SecondFactorsScreen {
    static func draw(_ context: ConsoleContext, selection: Int, on canvas: any Canvas, in frame: Rect) {
        guard let user = context.user else { return }
        let column = frame.column + 1
        canvas.put("2-step verification: second factors", row: frame.row, column: column, style: .title)
        let factors = user.enrolledFactors
        let inside = Box.draw(on: canvas, frame: Rect(row: frame.row + 2, column: frame.column, width: frame.width, height: 7),
                              title: "Enrolled (\(factors.count) of 5)", style: .accent)
        if factors.isEmpty {
            canvas.put("none yet: s adds an SMS factor, t an authenticator app", row: inside.row, column: inside.column + 1, style: .dim)
        } else {
            ListView(items: factors.map { ListView.Item(line($0, width: inside.width - 2)) }, selection: selection)
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

    static func line(_ factor: MultiFactorInfo, width: Int) -> String {
        let kind = factor.factorID == PhoneMultiFactorGenerator.factorID ? "SMS " : "TOTP"
        let name = TextWidth.pad(TextWidth.truncate(factor.displayName ?? "—", toCells: 22), toCells: 22)
        let detail: String = switch factor {
        case let .phone(info): PhoneNumberText.masked(info.phoneNumber)
        case .totp: "authenticator app"
        }
        let date = factor.enrollmentDate.map { "enrolled " + String(ConsoleView.dateText($0).prefix(10)) } ?? ""
        return TextWidth.truncate("\(kind)  \(name) \(TextWidth.pad(detail, toCells: 18)) \(date)", toCells: width)
    }
}

/// The enrollment steps: number, texted code, name (SMS); QR code and key, code, name (TOTP).
enum EnrollmentScreen {
    static func draw(_ flow: SecondFactorEnrollmentFlow, outbox: Outbox, on canvas: any Canvas, in frame: Rect) {
        let column = frame.column + 1
        let left = Rect(row: frame.row, column: frame.column, width: min(frame.width, 46), height: frame.height)
        switch flow.step {
        case let .enteringNumber(field):
            canvas.put("Add an SMS second factor: phone number", row: frame.row, column: column, style: .title)
            FieldRow.draw(field, label: "Phone number", on: canvas, frame: frame)
            hint("International (E.164) format: +, country code, number, e.g. +1 555 555 0100. A code is texted to it.", on: canvas, frame: frame)
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
            hint("The 6-digit code the app shows now for \(SecondFactorEnrollmentFlow.issuer) (\(flow.accountName)). esc shows the QR code again.",
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

/// A one-field form row in a box, with the cursor on the field.
enum FieldRow {
    static func draw(_ field: TextField, label: String, on canvas: any Canvas, frame: Rect, labelWidth: Int = 14) {
        let inside = Box.draw(on: canvas, frame: Rect(row: frame.row + 2, column: frame.column, width: min(frame.width, 60), height: 3))
        field.drawRow(on: canvas, row: inside.row, column: inside.column, width: inside.width - 1, label: label,
                      labelWidth: labelWidth, focused: true)
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
        canvas.put("Key (type it if you cannot scan):", row: row, column: column, style: .dim)
        for (index, line) in groups(secret.sharedSecretKey).enumerated() {
            canvas.put(line, row: row + 1 + index, column: column + 1, style: Style(.normal, bold: true))
        }
    }
}

/// The QR code step: the code on the left at full height (it needs 23 rows for a typical
/// account), the key and what to do on the right.
enum QRStep {
    static func draw(_ flow: SecondFactorEnrollmentFlow, secret: TotpSecret, on canvas: any Canvas) {
        let uri = flow.qrURI(for: secret)
        let available = Size(width: canvas.size.width - 34, height: canvas.size.height - 1)
        var textColumn = 1
        if canvas.symbols == .ascii {
            canvas.put("The QR code needs a UTF-8 terminal: type the key instead.", row: 2, column: 1, style: .warning)
            textColumn = 1
        } else if let code = QRCode.fitting(uri, in: available) {
            code.draw(on: canvas, row: 0, column: 0)
            textColumn = code.cells.width + 2
        } else {
            let needed = QRCode(encoding: uri, errorCorrection: .low)?.cells
            let size = needed.map { "\($0.width + 34)×\($0.height + 1)" } ?? "a larger terminal"
            canvas.put(TextWidth.truncate("The QR code needs \(size): enlarge the terminal, or type the key.", toCells: canvas.size.width - 2),
                       row: 2, column: 1, style: .warning)
        }
        let width = canvas.size.width - textColumn - 1
        var row = 1
        func put(_ text: String, _ style: Style = .normal) {
            for line in TextWidth.wrap(text, width: width) {
                canvas.put(line, row: row, column: textColumn, style: style)
                row += 1
            }
        }
        put("Add an authenticator app", .title)
        row += 1
        put("Scan the QR code with Google Authenticator, 1Password, Authy or any TOTP app, or type this key:")
        row += 1
        for line in KeyText.groups(secret.sharedSecretKey) { put(" " + line, Style(.normal, bold: true)) }
        row += 1
        put("Account  \(flow.accountName)", .dim)
        put("Issuer   \(SecondFactorEnrollmentFlow.issuer)", .dim)
        put("Type     time-based, \(secret.hashingAlgorithm), \(secret.codeLength) digits, \(secret.codeIntervalSeconds) s", .dim)
        row += 1
        put("Then press enter and type the code the app shows.")
    }
}

/// Where texted codes arrive: the emulator's SMS outbox, drawn as a phone notification.
enum PhonePane {
    static func draw(_ message: Outbox.TextMessage?, to phone: String, on canvas: any Canvas, frame: Rect) {
        let width = 30
        let box = Rect(row: frame.row + 2, column: frame.column + frame.width - width, width: width, height: 5)
        guard box.column > frame.column + 46 else { return }
        let inside = Box.draw(on: canvas, frame: box, title: "Phone \(phone)", style: .accent)
        if let message {
            canvas.put("AuthDeck: your code is", row: inside.row, column: inside.column + 1, style: .normal)
            canvas.put(message.code, row: inside.row + 1, column: inside.column + 1, style: Style(.success, bold: true))
            canvas.put("(simulated SMS)", row: inside.row + 2, column: inside.column + 1, style: .dim)
        } else {
            canvas.put("no text yet (m: messages)", row: inside.row, column: inside.column + 1, style: .dim)
        }
    }
}

/// Factor selection and code entry after the first factor.
enum SecondFactorChallengeScreen {
    static func draw(_ flow: SecondFactorSignInFlow, outbox: Outbox, on canvas: any Canvas, in frame: Rect) {
        let column = frame.column + 1
        switch flow.step {
        case let .choosingFactor(selection):
            let (title, note) = switch flow.purpose {
            case .signIn:
                ("Second factor: choose how to confirm it's you",
                 "The password was right; this account also has 2-step verification. SMS texts a code to the phone; an authenticator app shows one.")
            case .reauthenticate:
                ("Confirm it's you: second factor",
                 "The password was right; this account also has 2-step verification. SMS texts a code to the phone; an authenticator app shows one.")
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
                EnrollmentScreen.hint("The 6-digit code texted to \(info.phoneNumber). r texts a new one; esc picks another factor.",
                                      on: canvas, frame: left)
                if let verificationID { PhonePane.draw(outbox.text(for: verificationID), to: info.phoneNumber, on: canvas, frame: frame) }
            case .totp:
                EnrollmentScreen.hint("The 6-digit code your authenticator app shows now for AuthDeck. esc picks another factor.",
                                      on: canvas, frame: left)
            }
        }
    }

    static func line(_ hint: MultiFactorInfo) -> String {
        switch hint {
        case let .phone(info): "SMS   \(TextWidth.pad(info.displayName ?? "Phone", toCells: 24)) \(info.phoneNumber)"
        case let .totp(info): "TOTP  \(TextWidth.pad(info.displayName ?? "Authenticator", toCells: 24)) authenticator app"
        }
    }
}
