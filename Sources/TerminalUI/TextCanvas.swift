/// An in-memory grid of cells: the canvas snapshot tests draw on. Follows the same cell rules
/// as the terminal (via `TextWidth`), so a snapshot shows what a user would see.
public final class TextCanvas: Canvas {
    private struct Cell: Equatable {
        /// The grapheme drawn here; "" for the right half of a wide character.
        var text = " "
        var style = Style.normal
    }

    public let size: Size
    public let symbols: Symbols
    public private(set) var cursor: (row: Int, column: Int)?
    private var cells: [[Cell]]

    public init(size: Size, symbols: Symbols = .unicode) {
        self.size = size
        self.symbols = symbols
        cells = Array(repeating: Array(repeating: Cell(), count: max(0, size.width)), count: max(0, size.height))
    }

    public func put(_ text: String, row: Int, column: Int, style: Style) {
        guard row >= 0, row < size.height else { return }
        var column = column
        for glyph in TextWidth.glyphs(text) {
            defer { column += glyph.width }
            guard column >= 0 else { continue }
            guard column + glyph.width <= size.width else {
                // A wide character that would straddle the right edge is clipped whole.
                if column < size.width { write(Cell(text: " ", style: style), row: row, column: column) }
                break
            }
            write(Cell(text: glyph.text, style: style), row: row, column: column)
            if glyph.width == 2 { write(Cell(text: "", style: style), row: row, column: column + 1) }
        }
    }

    public func placeCursor(row: Int, column: Int) {
        cursor = (row, column)
    }

    /// Each row as text, trailing spaces trimmed.
    public var lines: [String] {
        cells.map { row in
            var line = row.map(\.text).joined()
            while line.last == " " { line.removeLast() }
            return line
        }
    }

    public var text: String { lines.joined(separator: "\n") }

    public func style(atRow row: Int, column: Int) -> Style {
        guard row >= 0, row < size.height, column >= 0, column < size.width else { return .normal }
        return cells[row][column].style
    }

    /// Writes one cell, blanking the other half of any wide character it overwrites.
    private func write(_ cell: Cell, row: Int, column: Int) {
        let old = cells[row][column]
        if old.text.isEmpty, column > 0 {
            cells[row][column - 1].text = " "
        } else if column + 1 < size.width, cells[row][column + 1].text.isEmpty {
            cells[row][column + 1].text = " "
        }
        cells[row][column] = cell
    }
}
