/// An editable single-line field: the state of a form input and how it draws.
/// The cursor counts characters (grapheme clusters), never bytes or cells.
public struct TextField: Sendable, Hashable {
    public var text: String {
        didSet {
            if text.count > maxLength { text = String(text.prefix(maxLength)) }
            cursor = min(cursor, text.count)
        }
    }
    public private(set) var cursor: Int
    public var maxLength: Int
    /// A secret: drawn as one bullet per character, never as text.
    public var isSecure: Bool
    /// How many characters the last edit could not take at `maxLength` (a paste longer than the room
    /// left); 0 after any edit that lost nothing.
    public private(set) var lastCut = 0

    public init(text: String = "", maxLength: Int = 256, isSecure: Bool = false) {
        self.maxLength = maxLength
        self.isSecure = isSecure
        self.text = String(text.prefix(maxLength))
        cursor = self.text.count
    }

    /// Edits for `key`; true when the key belongs to the field (printable keys always do,
    /// even when the field is full), false for keys the screen should handle (enter, tab…).
    public mutating func handle(_ key: Key) -> Bool {
        lastCut = 0
        switch key {
        case .character(let character):
            if !Self.isControl(character) { insert(String(character)) }
        case .paste(let pasted):
            insert(Self.sanitizePaste(pasted))
        case .backspace:
            if cursor > 0 { remove(cursor - 1..<cursor) }
        case .delete, .control("d"):
            if cursor < text.count { remove(cursor..<cursor + 1) }
        case .left, .control("b"):
            cursor = max(0, cursor - 1)
        case .right, .control("f"):
            cursor = min(text.count, cursor + 1)
        case .home, .control("a"):
            cursor = 0
        case .end, .control("e"):
            cursor = text.count
        case .control("u"):
            remove(0..<cursor)
        case .control("k"):
            remove(cursor..<text.count)
        case .control("w"):
            remove(startOfWordBeforeCursor()..<cursor)
        default:
            return false
        }
        return true
    }

    /// What a paste may add: the text before the first newline, without escape sequences
    /// (a terminal's or an attacker's), control characters or invisible bidi overrides.
    public static func sanitizePaste(_ pasted: String) -> String {
        var result = String.UnicodeScalarView()
        var scalars = pasted.unicodeScalars.makeIterator()
        while let scalar = scalars.next() {
            switch scalar.value {
            case 0x0A, 0x0D:
                return String(result)
            case 0x1B:
                skipEscapeSequence(&scalars)
            case 0x9B:
                skipControlSequence(&scalars)
            case 0x202A...0x202E, 0x2066...0x2069:
                continue
            default:
                if scalar.properties.generalCategory != .control { result.append(scalar) }
            }
        }
        return String(result)
    }

    // MARK: Drawing

    /// Draws the field in `width` cells at (row, column), scrolled so the cursor shows,
    /// underlined so its extent is visible without colour; places the cursor when focused.
    public func draw(on canvas: any Canvas, row: Int, column: Int, width: Int, focused: Bool) {
        guard width > 0 else { return }
        var fieldWidth = width
        // The limit shows once the text nears it, and a cut says so, beside the field (never over the text).
        if focused, let note, width - TextWidth.cells(note) - 1 >= Self.narrowestField {
            fieldWidth = width - TextWidth.cells(note) - 1
            canvas.put(" " + note, row: row, column: column + fieldWidth, style: lastCut > 0 ? .warning : .dim)
        }
        let shown: [(text: String, width: Int)] = text.map { character in
            if isSecure { return (canvas.symbols.bullet, 1) }
            let glyphs = TextWidth.glyphs(String(character))
            return (glyphs.map(\.text).joined(), glyphs.reduce(0) { $0 + $1.width })
        }
        // Scroll as little as possible: the cursor's cell must be one of the `fieldWidth` cells.
        var start = 0
        var beforeCursor = shown[..<cursor].reduce(0) { $0 + $1.width }
        while beforeCursor > fieldWidth - 1, start < cursor {
            beforeCursor -= shown[start].width
            start += 1
        }
        var visible = ""
        var used = 0
        for glyph in shown[start...] {
            if used + glyph.width > fieldWidth { break }
            visible += glyph.text
            used += glyph.width
        }
        visible += String(repeating: " ", count: fieldWidth - used)
        canvas.put(visible, row: row, column: column, style: Style(focused ? .accent : .normal, underline: true))
        if focused { canvas.placeCursor(row: row, column: column + beforeCursor) }
    }

    /// The fewest cells the text keeps when a note takes the rest of the row.
    static let narrowestField = 12

    /// `Cut to 100 characters` after an edit lost text; `84/100` in the last fifth of a field of 20 or more.
    public var note: String? {
        if lastCut > 0 { return "Cut to \(maxLength) characters" }
        guard maxLength >= 20, text.count * 5 >= maxLength * 4 else { return nil }
        return "\(text.count)/\(maxLength)"
    }

    /// A labelled form row: `> Label    field___`. The `>` marks focus without colour.
    public func drawRow(
        on canvas: any Canvas, row: Int, column: Int, width: Int,
        label: String, labelWidth: Int, focused: Bool
    ) {
        canvas.put(focused ? ">" : " ", row: row, column: column, style: focused ? .keyHint : .normal)
        canvas.put(TextWidth.pad(label, toCells: labelWidth), row: row, column: column + 2,
                   style: focused ? Style(.normal, bold: true) : .normal)
        let fieldColumn = column + 2 + labelWidth + 1
        draw(on: canvas, row: row, column: fieldColumn, width: width - (fieldColumn - column), focused: focused)
    }

    // MARK: Editing

    private mutating func insert(_ addition: String) {
        let characters = Array(text)
        let room = max(0, maxLength - characters.count)
        guard !addition.isEmpty else { return }
        lastCut = max(0, addition.count - room)
        guard room > 0 else { return }
        let before = String(characters[..<cursor]) + String(addition.prefix(room))
        text = before + String(characters[cursor...])
        // Counted after joining: a combining mark merges into the character before it.
        cursor = min(before.count, text.count)
    }

    private mutating func remove(_ range: Range<Int>) {
        guard !range.isEmpty else { return }
        var characters = Array(text)
        characters.removeSubrange(range)
        cursor = range.lowerBound
        text = String(characters)
    }

    /// Where ctrl-w deletes back to: over spaces, then over the word before them.
    private func startOfWordBeforeCursor() -> Int {
        let characters = Array(text)
        var index = cursor
        while index > 0, characters[index - 1].isWhitespace { index -= 1 }
        while index > 0, !characters[index - 1].isWhitespace { index -= 1 }
        return index
    }

    private static func isControl(_ character: Character) -> Bool {
        character.unicodeScalars.contains { $0.properties.generalCategory == .control }
    }

    /// After ESC: CSI runs to a final byte; OSC, DCS, SOS, PM and APC run to BEL or ESC \;
    /// anything else is a two-character escape.
    private static func skipEscapeSequence(_ scalars: inout String.UnicodeScalarView.Iterator) {
        guard let introducer = scalars.next() else { return }
        switch introducer {
        case "[":
            skipControlSequence(&scalars)
        case "]", "P", "X", "^", "_":
            var previous: Unicode.Scalar?
            while let scalar = scalars.next() {
                if scalar == "\u{07}" || scalar == "\u{9C}" || (previous == "\u{1B}" && scalar == "\\") { return }
                previous = scalar
            }
        default:
            return
        }
    }

    private static func skipControlSequence(_ scalars: inout String.UnicodeScalarView.Iterator) {
        while let scalar = scalars.next() {
            if (0x40...0x7E).contains(scalar.value) { return }
        }
    }
}
