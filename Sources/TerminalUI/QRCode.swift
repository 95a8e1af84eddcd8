import CQREncode

/// A QR code symbol (from libqrencode) and its drawing in half-block characters: each terminal cell
/// shows two modules, one above the other, so modules come out about square. Drawn with explicit
/// black on white (the `.qrCode` role) with its own light margin (quiet zone), so it scans on light
/// and dark terminals alike.
public struct QRCode: Sendable, Hashable {
    public enum ErrorCorrection: Sendable, Hashable, CaseIterable {
        case low, medium, quartile, high

        var level: QRecLevel {
            switch self {
            case .low: QR_ECLEVEL_L
            case .medium: QR_ECLEVEL_M
            case .quartile: QR_ECLEVEL_Q
            case .high: QR_ECLEVEL_H
            }
        }
    }

    /// The light margin around the symbol, in modules, that ISO/IEC 18004 asks for.
    public static let standardQuietZone = 4
    /// The narrowest margin drawn where the standard one does not fit (a typical otpauth URI between
    /// the title and key bars of 80×24 needs 3): phone scanners read codes with 2.
    public static let narrowestQuietZone = 2

    /// Modules per side, without the quiet zone.
    public let width: Int
    public let version: Int
    public let errorCorrection: ErrorCorrection
    /// The light margin drawn around the symbol, in modules.
    public let quietZone: Int
    /// Row-major, true for a dark module.
    private let modules: [Bool]

    /// Why no QR code can be drawn on this host (libqrencode is loaded at the first code, not at
    /// start), or nil when codes can be drawn.
    public static var unavailableReason: String? {
        authdeck_qrencode_unavailable().map { String(cString: $0) }
    }

    /// The smallest symbol that holds `text` at `errorCorrection`, or nil when none does or
    /// `unavailableReason` says why there is none.
    public init?(encoding text: String, errorCorrection: ErrorCorrection, quietZone: Int = standardQuietZone) {
        guard let symbol = authdeck_qrencode_encode_string(text, errorCorrection.level) else { return nil }
        defer { authdeck_qrencode_free(symbol) }
        let width = Int(symbol.pointee.width)
        self.width = width
        self.version = Int(symbol.pointee.version)
        self.errorCorrection = errorCorrection
        self.quietZone = quietZone
        // libqrencode sets bit 0 of each byte for a dark module.
        modules = (0..<width * width).map { symbol.pointee.data[$0] & 1 == 1 }
    }

    /// The most robust encoding whose drawing fits in `size` cells, or nil when even the lowest
    /// error correction in the narrowest quiet zone does not fit. The standard quiet zone comes first;
    /// within it, more error correction only helps at the same module size (fonts that leave hairlines
    /// between rows), so the highest level that fits wins.
    public static func fitting(_ text: String, in size: Size) -> QRCode? {
        for quietZone in stride(from: standardQuietZone, through: narrowestQuietZone, by: -1) {
            for level in ErrorCorrection.allCases.reversed() {
                if let code = QRCode(encoding: text, errorCorrection: level, quietZone: quietZone),
                   code.cells.width <= size.width, code.cells.height <= size.height {
                    return code
                }
            }
        }
        return nil
    }

    public func isDark(row: Int, column: Int) -> Bool {
        guard row >= 0, row < width, column >= 0, column < width else { return false }
        return modules[row * width + column]
    }

    /// The cells the drawing takes: one column per module and one row per two modules, quiet zone
    /// included (an odd total gets one more light row at the bottom).
    public var cells: Size {
        let side = width + 2 * quietZone
        return Size(width: side, height: (side + 1) / 2)
    }

    public func draw(on canvas: any Canvas, row: Int, column: Int) {
        let style = Style(.qrCode)
        for (line, text) in lines().enumerated() {
            canvas.put(text, row: row + line, column: column, style: style)
        }
    }

    /// The drawing as text, a line each, for a terminal outside curses (`authdeck ssh --qr`).
    public func text() -> String {
        lines().map { $0 + "\n" }.joined()
    }

    private func lines() -> [String] {
        let side = width + 2 * quietZone
        return (0..<cells.height).map { line in
            var text = ""
            let top = line * 2 - quietZone
            for x in 0..<side {
                let module = x - quietZone
                let upper = isDark(row: top, column: module)
                let lower = isDark(row: top + 1, column: module)
                let glyph = switch (upper, lower) {
                case (true, true): "█"
                case (true, false): "▀"
                case (false, true): "▄"
                case (false, false): " "
                }
                text += glyph
            }
            return text
        }
    }
}
