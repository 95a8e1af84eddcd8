import Foundation
import SnapshotTesting
import Testing
@testable import TerminalUI

@Suite struct QRCodeTests {
    /// What `TotpSecret.generateQrCodeUrl` makes for a typical account: 32-character secret.
    static let typicalURI = "otpauth://totp/AuthDeck:ada@example.com?secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP&issuer=AuthDeck"

    @Test func aTypicalOtpauthURIFitsAn80By24TerminalAtLevelLow() throws {
        // 80×24 leaves 23 rows above the key bar; the QR screen uses them all.
        let available = Size(width: 80, height: 23)
        let code = try #require(QRCode.fitting(Self.typicalURI, in: available))
        #expect(code.errorCorrection == .low)
        #expect(code.version == 5)
        #expect(code.width == 37)
        #expect(code.cells == Size(width: 45, height: 23))
        // Medium would need version 6: 41 + 8 modules, 25 rows.
        let medium = try #require(QRCode(encoding: Self.typicalURI, errorCorrection: .medium))
        #expect(medium.cells.height > 23)
    }

    @Test func shortTextGetsTheHighestLevelThatFits() throws {
        let code = try #require(QRCode.fitting("otpauth://totp/A:b?secret=MZXW6", in: Size(width: 80, height: 23)))
        #expect(code.errorCorrection == .high)
        #expect(QRCode.fitting(Self.typicalURI, in: Size(width: 44, height: 23)) == nil)
    }

    @Test func theQuietZoneIsLightAndTheFinderPatternsAreWhereTheyBelong() throws {
        let code = try #require(QRCode(encoding: Self.typicalURI, errorCorrection: .low))
        let canvas = TextCanvas(size: code.cells)
        code.draw(on: canvas, row: 0, column: 0)
        let lines = canvas.text.components(separatedBy: "\n")
        // The first two rows are quiet zone (4 modules): blank, drawn in the QR role's white.
        #expect(lines[0].isEmpty && lines[1].isEmpty)
        #expect(canvas.style(atRow: 0, column: 0) == Style(.qrCode))
        // Finder pattern top-left, after the 4-module margin: a dark row over a dark-light-dark one.
        #expect(lines[2].hasPrefix("    █▀▀▀▀▀█"))
        for row in 0..<7 {
            #expect(code.isDark(row: row, column: 0))
            #expect(code.isDark(row: 0, column: code.width - 1 - row))
        }
        #expect(!code.isDark(row: 7, column: 7))
        assertSnapshot(of: canvas.text, as: .lines)
    }
}
