/// A centred confirmation: a wrapped message and a row of buttons, one selected.
/// The selected button is bracketed `[>OK<]` and reversed, so it shows without colour.
public struct Dialog: Sendable, Hashable {
    public var title: String
    public var message: String
    public var buttons: [String]
    public private(set) var selection: Int

    /// `selection` defaults to the first button: put the safe choice first.
    public init(title: String, message: String, buttons: [String] = ["Cancel", "OK"], selection: Int = 0) {
        self.title = title
        self.message = message
        self.buttons = buttons
        self.selection = max(0, min(selection, buttons.count - 1))
    }

    public var selectedButton: String? {
        buttons.indices.contains(selection) ? buttons[selection] : nil
    }

    /// Moves between buttons with ←/→, h/l, tab and back-tab; true when handled.
    public mutating func handle(_ key: Key) -> Bool {
        guard !buttons.isEmpty else { return false }
        switch key {
        case .left, .character("h"), .backTab: selection = (selection + buttons.count - 1) % buttons.count
        case .right, .character("l"), .tab: selection = (selection + 1) % buttons.count
        default: return false
        }
        return true
    }

    public func draw(on canvas: any Canvas) {
        let labels = buttons.enumerated().map { index, label in
            index == selection ? "[>\(label)<]" : "[ \(label) ]"
        }
        let buttonsCells = labels.reduce(0) { $0 + TextWidth.cells($1) } + max(0, labels.count - 1) * 2
        let width = min(canvas.size.width - 2, max(40, buttonsCells + 4, TextWidth.cells(title) + 6), 64)
        let textWidth = width - 4  // border and one space of padding each side
        var lines = TextWidth.wrap(message, width: textWidth)
        // Border, blank, message, blank, buttons, border.
        let maxLines = max(1, canvas.size.height - 2 - 5)
        if lines.count > maxLines {
            lines = Array(lines.prefix(maxLines))
            lines[maxLines - 1] = TextWidth.truncate(lines[maxLines - 1] + " " + canvas.symbols.ellipsis,
                                                     toCells: textWidth)
        }
        let frame = Rect.centered(width: width, height: lines.count + 5, in: canvas.size)
        let inside = Box.draw(on: canvas, frame: frame, title: title, style: .accent)
        for (index, line) in lines.enumerated() {
            canvas.put(line, row: inside.row + 1 + index, column: inside.column + 1, style: .normal)
        }
        let buttonRow = inside.row + inside.height - 1
        var column = inside.column + max(0, (inside.width - buttonsCells) / 2)
        for (index, label) in labels.enumerated() {
            if index == selection {
                canvas.put(label, row: buttonRow, column: column, style: Style(.selected, bold: true, reverse: true))
                canvas.placeCursor(row: buttonRow, column: column + 2)
            } else {
                canvas.put(label, row: buttonRow, column: column, style: .normal)
            }
            column += TextWidth.cells(label) + 2
        }
    }
}
