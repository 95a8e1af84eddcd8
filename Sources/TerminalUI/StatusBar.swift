/// The bottom line: the keys valid right now, as `enter choose · esc back · ? help`.
public enum StatusBar {
    /// Draws `hints` on `row` (default: the last row). Hints that do not fit are dropped
    /// from the end, whole, and replaced by an ellipsis.
    public static func draw(on canvas: any Canvas, hints: [(key: String, label: String)], row: Int? = nil) {
        let row = row ?? canvas.size.height - 1
        let width = canvas.size.width
        let symbols = canvas.symbols
        canvas.put(TextWidth.row(" ", count: width), row: row, column: 0, style: .normal)
        let available = width - 1  // one space of margin on the left
        let separator = " \(symbols.separator) "
        let separatorCells = TextWidth.cells(separator)
        let ellipsisCells = TextWidth.cells(symbols.ellipsis)
        // The most hints that fit, with the ellipsis that says some were dropped.
        var shown = 0
        var used = 0
        for (index, hint) in hints.enumerated() {
            used += (index > 0 ? separatorCells : 0) + TextWidth.cells(hint.key) + 1 + TextWidth.cells(hint.label)
            let dropped = index + 1 < hints.count ? 1 + ellipsisCells : 0
            if used + dropped <= available { shown = index + 1 }
        }
        if shown == 0, let first = hints.first {
            // Not even one hint fits: show what we can of the first.
            canvas.put(TextWidth.truncate("\(first.key) \(first.label)", toCells: available), row: row, column: 1,
                       style: .keyHint)
            return
        }
        var column = 1
        for (index, hint) in hints.prefix(shown).enumerated() {
            if index > 0 {
                canvas.put(separator, row: row, column: column, style: .dim)
                column += separatorCells
            }
            canvas.put(hint.key, row: row, column: column, style: .keyHint)
            column += TextWidth.cells(hint.key) + 1
            canvas.put(hint.label, row: row, column: column, style: .normal)
            column += TextWidth.cells(hint.label)
        }
        if shown < hints.count {
            canvas.put(" " + symbols.ellipsis, row: row, column: column, style: .dim)
        }
    }
}

/// The top line: what this screen is on the left, context (the backend, say) on the right,
/// as a reverse-video bar.
public enum TitleBar {
    /// From `column` to the right edge (something else may take the row's left part).
    public static func draw(on canvas: any Canvas, left: String, right: String = "", row: Int = 0, column: Int = 0) {
        let width = canvas.size.width - column
        guard width > 0 else { return }
        let style = Style(.title, bold: true, reverse: true)
        canvas.put(TextWidth.row(" ", count: width), row: row, column: column, style: style)
        // The right text keeps half the bar, and more when the left needs less; the left gets the rest.
        let rightText = TextWidth.truncate(right, toCells: rightRoom(width: width, left: left))
        let rightCells = TextWidth.cells(rightText)
        let leftText = TextWidth.truncate(left, toCells: max(0, width - 2 - rightCells - (rightCells > 0 ? 2 : 0)))
        canvas.put(leftText, row: row, column: column + 1, style: style)
        if rightCells > 0 {
            canvas.put(rightText, row: row, column: column + width - 1 - rightCells, style: style)
        }
    }

    /// The cells the right text has in a bar `width` wide beside `left`, for a caller that fits it first.
    public static func rightRoom(width: Int, left: String) -> Int {
        max(0, width / 2 - 1, width - 4 - TextWidth.cells(left))
    }
}
