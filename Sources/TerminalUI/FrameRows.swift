/// A frame as drawn, row by row: what `Terminal` compares with the frame before, so that it
/// hands curses only the rows that changed (a ↓ in a menu changes two or three of 24).
final class FrameRows: Canvas {
    struct Put: Equatable {
        var text: String
        var column: Int
        var style: Style
    }

    let size: Size
    let symbols: Symbols
    private(set) var cursor: (row: Int, column: Int)?
    private(set) var rows: [[Put]]

    init(size: Size, symbols: Symbols) {
        self.size = size
        self.symbols = symbols
        rows = Array(repeating: [], count: max(0, size.height))
    }

    /// Empties the frame to draw the next one on it, keeping the rows' storage.
    func clear() {
        cursor = nil
        for row in rows.indices { rows[row].removeAll(keepingCapacity: true) }
    }

    func put(_ text: String, row: Int, column: Int, style: Style) {
        guard row >= 0, row < size.height, !text.isEmpty else { return }
        rows[row].append(Put(text: text, column: column, style: style))
    }

    func placeCursor(row: Int, column: Int) {
        cursor = (row, column)
    }

    /// Draws `row` as recorded on `canvas`, over a row already blank.
    func replay(row: Int, on canvas: any Canvas) {
        for put in rows[row] {
            canvas.put(put.text, row: row, column: put.column, style: put.style)
        }
    }
}
