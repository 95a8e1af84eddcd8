import CCurses
import Glibc

/// Measures text in terminal cells, the unit every canvas and widget works in.
/// Widths come from glibc's `wcwidth` in a UTF-8 locale, so CJK and emoji take two cells
/// and combining marks none, matching what ncursesw and the terminal do.
public enum TextWidth {
    /// One drawable unit: a grapheme cluster (or its visible stand-in) and its width, 1 or 2.
    public struct Glyph: Sendable, Hashable {
        public var text: String
        public var width: Int
    }

    /// Shown in place of control characters, which must never reach the terminal raw.
    public static let replacement = "\u{FFFD}"

    /// The glyphs `text` draws as: control characters replaced, zero-width clusters dropped.
    public static func glyphs(_ text: String) -> [Glyph] {
        if isPrintableASCII(text) { return text.utf8.map { Glyph(text: String(UnicodeScalar($0)), width: 1) } }
        if isSingleCellText(text) { return text.unicodeScalars.map { Glyph(text: String($0), width: 1) } }
        return withUTF8CType { text.compactMap(glyph) }
    }

    public static func cells(_ text: String) -> Int {
        if isPrintableASCII(text) { return text.utf8.count }
        if isSingleCellText(text) { return text.unicodeScalars.count }
        return glyphs(text).reduce(0) { $0 + $1.width }
    }

    /// Printable ASCII only: one cell per byte, no lookups. Most of what a screen draws is this.
    public static func isPrintableASCII(_ text: String) -> Bool {
        text.utf8.allSatisfy { (0x20...0x7E).contains($0) }
    }

    /// Text of scalars that each take one cell as a grapheme of their own: printable ASCII and the
    /// box drawing, arrows, punctuation and Latin-1 letters that frames are made of. Every frame
    /// draws these, so they skip the Unicode property lookups (`glyph`) that measure anything else.
    public static func isSingleCellText(_ text: String) -> Bool {
        text.unicodeScalars.allSatisfy(isSingleCell)
    }

    /// Each range: no controls, combining or zero-width marks, no wide or emoji-presentation
    /// characters (U+25FD and U+25FE are, so the shapes stop at U+25FC); the tests compare every
    /// one of them with `glyph`.
    static func isSingleCell(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x20...0x7E, 0xA1...0xAC, 0xAE...0xFF, 0x2010...0x2027, 0x2190...0x21FF, 0x2500...0x25FC, 0x2713: true
        default: false
        }
    }

    /// `text` cut to at most `toCells` cells; with `ellipsis`, a cut is marked with `…`.
    public static func truncate(_ text: String, toCells limit: Int, ellipsis: Bool = true) -> String {
        guard limit > 0 else { return "" }
        if text.utf8.count <= limit, isPrintableASCII(text) { return text }
        if isSingleCellText(text) {
            // A scalar per cell and per grapheme: counted and cut by scalars, without grapheme breaking.
            let scalars = text.unicodeScalars
            if scalars.count <= limit { return text }
            let kept = String(String.UnicodeScalarView(scalars.prefix(ellipsis ? limit - 1 : limit)))
            return ellipsis ? kept + "…" : kept
        }
        let all = glyphs(text)
        if all.reduce(0, { $0 + $1.width }) <= limit { return all.map(\.text).joined() }
        let budget = ellipsis ? limit - 1 : limit
        var result = ""
        var used = 0
        for glyph in all {
            if used + glyph.width > budget { break }
            result += glyph.text
            used += glyph.width
        }
        return ellipsis ? result + "…" : result
    }

    /// `fill` `count` times between `start` and `end`, written in one go: blank rows and box edges, which
    /// every frame draws (`String(repeating:count:)` appends its text once per repetition).
    public static func row(_ fill: String, count: Int, between start: String = "", and end: String = "") -> String {
        var start = start, fill = fill, end = end
        let count = max(0, count)
        let capacity = start.utf8.count + fill.utf8.count * count + end.utf8.count
        return String(unsafeUninitializedCapacity: capacity) { buffer in
            var written = 0
            func append(_ text: inout String) {
                text.withUTF8 { bytes in
                    guard !bytes.isEmpty else { return }
                    _ = UnsafeMutableBufferPointer(rebasing: buffer[written...]).initialize(from: bytes)
                    written += bytes.count
                }
            }
            append(&start)
            for _ in 0..<count { append(&fill) }
            append(&end)
            return written
        }
    }

    /// `text` padded with spaces (or truncated) to exactly `width` cells.
    public static func pad(_ text: String, toCells width: Int) -> String {
        let fitted = truncate(text, toCells: width)
        return fitted + String(repeating: " ", count: max(0, width - cells(fitted)))
    }

    /// `text` as it is when it fits (its spacing kept: aligned columns), else word-wrapped.
    public static func fit(_ text: String, width: Int) -> [String] {
        cells(text) <= width ? [text] : wrap(text, width: width)
    }

    /// Word-wraps `text` to lines of at most `width` cells. Newlines start new lines; a word
    /// longer than a line is broken wherever it must be.
    public static func wrap(_ text: String, width: Int) -> [String] {
        guard width > 0 else { return [] }
        return wrapped.lines(text, width: width, wrap: wrapAnew)
    }

    /// What screens wrap, frame after frame: a few dozen texts of a few lines, none of them long.
    static let wrapped = WrapCache(capacity: 64, longest: 1024)

    /// `wrap` without the cache.
    static func wrapAnew(_ text: String, width: Int) -> [String] {
        guard width > 0 else { return [] }
        var lines: [String] = []
        // Walking the text by Character (grapheme breaking) costs more than the wrapping: only when there is a CR.
        let normalized = text.utf8.contains(13) ? String(text.map { $0 == "\r\n" ? "\n" : $0 }) : text
        for paragraph in normalized.split(separator: "\n", omittingEmptySubsequences: false) {
            var line = ""
            var lineCells = 0
            for word in paragraph.split(separator: " ") {
                let word = String(word)
                let wordCells = cells(word)
                if lineCells > 0, lineCells + 1 + wordCells <= width {
                    line += " " + word
                    lineCells += 1 + wordCells
                    continue
                }
                if lineCells > 0 { lines.append(line) }
                line = ""
                lineCells = 0
                for glyph in glyphs(word) {
                    if lineCells + glyph.width > width, lineCells > 0 {
                        lines.append(line)
                        line = ""
                        lineCells = 0
                    }
                    line += glyph.text
                    lineCells += glyph.width
                }
            }
            lines.append(line)
        }
        return lines
    }

    private static func glyph(_ character: Character) -> Glyph? {
        guard let first = character.unicodeScalars.first else { return nil }
        if first.properties.generalCategory == .control {
            return Glyph(text: replacement, width: 1)
        }
        let measured = Int(authdeck_wcwidth(first.value))
        let isEmoji = character.unicodeScalars.contains("\u{FE0F}") || first.properties.isEmojiPresentation
            || (0x1F1E6...0x1F1FF).contains(first.value)  // regional indicators: flags
        switch measured {
        case 0 where character.unicodeScalars.count == 1 || first.properties.generalCategory == .nonspacingMark:
            return nil  // a lone combining mark or zero-width space: nothing to draw
        case ..<1:
            // Unknown to this glibc (a newer emoji, say): guess rather than drop it.
            return Glyph(text: String(character), width: isEmoji ? 2 : 1)
        default:
            return Glyph(text: String(character), width: isEmoji ? 2 : min(measured, 2))
        }
    }

    /// Runs `body` with a UTF-8 LC_CTYPE on this thread only, whatever the process locale is
    /// (tests never call setlocale; `wcwidth` in the "C" locale knows only ASCII).
    private static func withUTF8CType<T>(_ body: () -> T) -> T {
        let previous = uselocale(utf8CType)
        defer { uselocale(previous) }
        return body()
    }
}

/// Created once and never changed; glibc locale objects may be used from any thread.
/// nil (no C.UTF-8 on this system) makes `uselocale` a no-op, so the process locale applies.
nonisolated(unsafe) private let utf8CType: locale_t? = newlocale(LC_CTYPE_MASK, "C.UTF-8", nil)
