import CCurses

/// Draws on a curses window. Roles become colour pairs when colour is on; bold, reverse,
/// underline and dim are always honoured, so a screen reads the same without colour.
final class CursesCanvas: Canvas {
    let size: Size
    let symbols: Symbols
    private(set) var cursor: (row: Int, column: Int)?
    private let window: UnsafeMutablePointer<WINDOW>
    private let colorEnabled: Bool

    init(window: UnsafeMutablePointer<WINDOW>, size: Size, symbols: Symbols, colorEnabled: Bool) {
        self.window = window
        self.size = size
        self.symbols = symbols
        self.colorEnabled = colorEnabled
    }

    func put(_ text: String, row: Int, column: Int, style: Style) {
        guard row >= 0, row < size.height else { return }
        let (attributes, pair) = Self.attributes(for: style, colorEnabled: colorEnabled)
        if TextWidth.isPrintableASCII(text) {
            // One cell per byte: clip by offsets.
            let start = max(column, 0), end = min(column + text.utf8.count, size.width)
            guard start < end else { return }
            // Most text fits whole: no copy of it.
            if start == column, end == column + text.utf8.count {
                authdeck_put(window, Int32(row), Int32(start), text, attributes, pair)
                return
            }
            let visible = text.utf8.dropFirst(start - column).prefix(end - start)
            authdeck_put(window, Int32(row), Int32(start), String(Substring(visible)), attributes, pair)
            return
        }
        if TextWidth.isSingleCellText(text) {
            // One cell per scalar: clip by scalars.
            let scalars = text.unicodeScalars
            let count = scalars.count
            let start = max(column, 0), end = min(column + count, size.width)
            guard start < end else { return }
            if start == column, end == column + count {
                authdeck_put(window, Int32(row), Int32(start), text, attributes, pair)
                return
            }
            // By indices: a view of sliced scalars is generic code whose types the runtime makes on first use.
            let from = scalars.index(scalars.startIndex, offsetBy: start - column)
            let to = scalars.index(from, offsetBy: end - start)
            authdeck_put(window, Int32(row), Int32(start), String(text[from..<to]), attributes, pair)
            return
        }
        // Clip here, by cells, so curses never wraps a line or splits a wide character.
        var visible = ""
        var start: Int?
        var cursorColumn = column
        for glyph in TextWidth.glyphs(text) {
            defer { cursorColumn += glyph.width }
            guard cursorColumn >= 0 else { continue }
            if start == nil { start = cursorColumn }
            guard cursorColumn + glyph.width <= size.width else {
                if cursorColumn < size.width { visible += " " }
                break
            }
            visible += glyph.text
        }
        guard let start, !visible.isEmpty else { return }
        authdeck_put(window, Int32(row), Int32(start), visible, attributes, pair)
    }

    func placeCursor(row: Int, column: Int) {
        cursor = (row, column)
    }

    /// Colour pair numbers: one per role, in `Role.allCases` order, from 1 (pair 0 is fixed).
    static func pair(for role: Role) -> Int32 {
        Int32(Role.allCases.firstIndex(of: role)!) + 1
    }

    /// Defines a colour pair per role; call once colour has been started.
    static func installColorPairs() {
        let background: Int16 = use_default_colors() == OK ? -1 : Int16(COLOR_BLACK)
        // Bright white where the terminal has 16 colours: a plain "white" is often light grey.
        let white = Int16(authdeck_colors() >= 16 ? 15 : COLOR_WHITE)
        for role in Role.allCases {
            init_pair(Int16(pair(for: role)), foreground(for: role), role == .qrCode ? white : background)
        }
    }

    private static func foreground(for role: Role) -> Int16 {
        switch role {
        case .normal, .dim, .selected: -1
        case .title, .accent, .keyHint: Int16(COLOR_CYAN)
        case .success: Int16(COLOR_GREEN)
        case .warning: Int16(COLOR_YELLOW)
        case .error: Int16(COLOR_RED)
        case .badge: Int16(COLOR_MAGENTA)
        case .qrCode: Int16(COLOR_BLACK)
        }
    }

    private static func attributes(for style: Style, colorEnabled: Bool) -> (attr_t, Int32) {
        var attributes: attr_t = 0
        if style.bold { attributes |= authdeck_a_bold() }
        if style.reverse { attributes |= authdeck_a_reverse() }
        if style.underline { attributes |= authdeck_a_underline() }
        if style.role == .dim { attributes |= authdeck_a_dim() }
        return (attributes, colorEnabled ? pair(for: style.role) : 0)
    }

    /// Whether to use colour: not with `--no-color`, a non-empty `NO_COLOR` (no-color.org)
    /// or `TERM=dumb`.
    /// `environment` looks a variable up (a function, not a dictionary: the first dictionary of
    /// strings made before the first frame cost a scan of every protocol conformance in the binary).
    static func wantsColor(noColorFlag: Bool, environment: (String) -> String?) -> Bool {
        if noColorFlag { return false }
        if let noColor = environment("NO_COLOR"), !noColor.isEmpty { return false }
        return environment("TERM") != "dumb"
    }
}
