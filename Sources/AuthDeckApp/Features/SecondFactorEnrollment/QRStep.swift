import AuthClient
import Foundation
import TerminalUI

/// The QR code step: the code on the left between the title bar and the key bar (a typical account's
/// takes all 22 rows of 80×24, in a quiet zone one module narrower than the standard's), the key and
/// what to do on the right.
enum QRStep {
    /// The cells the text beside the code keeps.
    static let textCells = 34

    /// The code as it fits beside the text (nil when it does not, or the terminal cannot draw it).
    static func code(_ flow: SecondFactorEnrollmentFeature, secret: TotpSecret, on canvas: any Canvas) -> QRCode? {
        guard canvas.symbols != .ascii else { return nil }
        return QRCode.fitting(flow.qrURI(for: secret), in: room(on: canvas))
    }

    /// Under the title bar, above the key bar, beside the text.
    static func room(on canvas: any Canvas) -> Size {
        Size(width: canvas.size.width - textCells, height: canvas.size.height - 2)
    }

    static func draw(_ flow: SecondFactorEnrollmentFeature, secret: TotpSecret, on canvas: any Canvas) {
        let uri = flow.qrURI(for: secret)
        var textColumn = 1
        if canvas.symbols == .ascii {
            canvas.put("The QR code needs a UTF-8 terminal: type the key instead.", row: 2, column: 1, style: .warning)
            textColumn = 1
        } else if let code = code(flow, secret: secret, on: canvas) {
            code.draw(on: canvas, row: 1, column: 0)
            textColumn = code.cells.width + 2
        } else if let reason = QRCode.unavailableReason {
            canvas.put(TextWidth.truncate("No QR code: \(reason). Type the key.", toCells: canvas.size.width - 2), row: 2, column: 1,
                       style: .warning)
        } else {
            let needed = QRCode(encoding: uri, errorCorrection: .low, quietZone: QRCode.narrowestQuietZone)?.cells
            let size = needed.map { "\($0.width + textCells)×\($0.height + 2)" } ?? "a larger terminal"
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
        put("Issuer   \(SecondFactorEnrollmentFeature.issuer)", .dim)
        put("Type     time-based, \(secret.hashingAlgorithm), \(secret.codeLength) digits, \(secret.codeIntervalSeconds) s", .dim)
        row += 1
        put("Then press enter and type the code the app shows.")
    }
}
