import Foundation
import SnapshotTesting
import Testing
@testable import TerminalUI

@Suite struct QRCodeTests {
    /// What `TotpSecret.generateQrCodeUrl` makes for a typical account: 32-character secret.
    static let typicalURI = "otpauth://totp/AuthDeck:ada@example.com?secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP&issuer=AuthDeck"

    @Test func aTypicalOtpauthURIFitsAn80By24TerminalAtLevelLow() throws {
        // 80×24 leaves 22 rows between the title bar and the key bar: version 5 at level low, in a quiet
        // zone of 3 modules (the standard 4 would need 23 rows).
        let available = Size(width: 80, height: 22)
        let code = try #require(QRCode.fitting(Self.typicalURI, in: available))
        #expect(code.errorCorrection == .low)
        #expect(code.version == 5)
        #expect(code.width == 37)
        #expect(code.quietZone == 3)
        #expect(code.cells == Size(width: 43, height: 22))
        // Medium would need version 6: 41 + 6 modules, 24 rows.
        let medium = try #require(QRCode(encoding: Self.typicalURI, errorCorrection: .medium, quietZone: 3))
        #expect(medium.cells.height > 22)
    }

    @Test func theStandardQuietZoneWhereverItFits() throws {
        let code = try #require(QRCode.fitting(Self.typicalURI, in: Size(width: 80, height: 23)))
        #expect(code.quietZone == QRCode.standardQuietZone)
        #expect(code.cells == Size(width: 45, height: 23))
        // Never narrower than 2 modules: version 5 in them needs 21 rows.
        #expect(QRCode.fitting(Self.typicalURI, in: Size(width: 80, height: 21))?.quietZone == 2)
        #expect(QRCode.fitting(Self.typicalURI, in: Size(width: 80, height: 20)) == nil)
    }

    @Test func shortTextGetsTheHighestLevelThatFits() throws {
        let code = try #require(QRCode.fitting("otpauth://totp/A:b?secret=MZXW6", in: Size(width: 80, height: 23)))
        #expect(code.errorCorrection == .high)
        #expect(code.quietZone == QRCode.standardQuietZone)
        #expect(QRCode.fitting(Self.typicalURI, in: Size(width: 40, height: 23)) == nil)
    }

    @Test func aNarrowQuietZoneIsDrawnLightAroundTheSymbol() throws {
        let code = try #require(QRCode(encoding: Self.typicalURI, errorCorrection: .low, quietZone: 3))
        let canvas = TextCanvas(size: code.cells)
        code.draw(on: canvas, row: 0, column: 0)
        let lines = canvas.text.components(separatedBy: "\n")
        // 3 modules: one light row, then the finder pattern's top in the lower half of the second.
        #expect(lines[0].isEmpty)
        #expect(lines[1].hasPrefix("   ▄▄▄▄▄▄▄"))
        #expect(canvas.style(atRow: 21, column: 42) == Style(.qrCode))
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
