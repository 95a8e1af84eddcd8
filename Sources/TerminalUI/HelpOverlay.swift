/// A centred box listing the keys of the current screen, under the last message whole (a banner
/// has only a few rows). Keys that do not fit one column go into two.
public enum HelpOverlay {
    public static func draw(
        on canvas: any Canvas, title: String = "Help", entries: [(key: String, description: String)], message: String? = nil
    ) {
        let keyWidth = entries.map { TextWidth.cells($0.key) }.max() ?? 0
        let descriptionWidth = entries.map { TextWidth.cells($0.description) }.max() ?? 0
        let footer = "esc or ? to close"
        let entryWidth = keyWidth + 2 + descriptionWidth
        let natural = max(entryWidth, TextWidth.cells(footer), TextWidth.cells(title) + 4) + 4
        let oneColumnWidth = min(canvas.size.width - 2, message == nil ? natural : max(natural, 64))
        let messageLines = message.map { TextWidth.wrap($0, width: oneColumnWidth - 4) + [""] } ?? []
        // Border, blank, message, entries, blank, footer, border.
        let fitsTwo = 2 * entryWidth + 7 <= canvas.size.width - 2
        let columns = fitsTwo && messageLines.count + entries.count + 5 > canvas.size.height - 2 ? 2 : 1
        let width = columns == 1 ? oneColumnWidth : min(canvas.size.width - 2, max(oneColumnWidth, 2 * entryWidth + 7))
        let entryRows = (entries.count + columns - 1) / columns
        let height = min(canvas.size.height - 2, messageLines.count + entryRows + 5)
        let frame = Rect.centered(width: width, height: height, in: canvas.size)
        clearNarrowMargins(beside: frame, on: canvas)
        let inside = Box.draw(on: canvas, frame: frame, title: title, style: .accent)
        let textWidth = inside.width - 2
        let available = max(0, inside.height - 3)
        for (index, line) in messageLines.prefix(available).enumerated() {
            canvas.put(TextWidth.truncate(line, toCells: textWidth), row: inside.row + 1 + index, column: inside.column + 1, style: .normal)
        }
        let top = inside.row + 1 + min(messageLines.count, available)
        let rows = max(0, available - min(messageLines.count, available))
        let columnWidth = columns == 1 ? textWidth : (textWidth - 1) / 2
        for (index, entry) in entries.enumerated() {
            let (column, row) = (index / max(entryRows, 1), index % max(entryRows, 1))
            guard row < rows else { continue }
            let left = inside.column + 1 + column * (columnWidth + 1)
            if row == rows - 1, entryRows > rows, column == columns - 1 {
                canvas.put(canvas.symbols.ellipsis, row: top + row, column: left, style: .dim)
                continue
            }
            canvas.put(TextWidth.truncate(entry.key, toCells: columnWidth), row: top + row, column: left, style: .keyHint)
            let descriptionColumn = keyWidth + 2
            canvas.put(TextWidth.truncate(entry.description, toCells: max(0, columnWidth - descriptionColumn)),
                       row: top + row, column: left + descriptionColumn, style: .normal)
        }
        canvas.put(TextWidth.truncate(footer, toCells: textWidth), row: inside.row + inside.height - 1,
                   column: inside.column + 1, style: .dim)
    }

    /// A box nearly as wide as the screen would leave a letter or two of the screen beneath beside it, which
    /// reads as junk: margins that narrow are cleared on the box's rows.
    private static func clearNarrowMargins(beside frame: Rect, on canvas: any Canvas) {
        let right = canvas.size.width - frame.column - frame.width
        guard frame.column + right <= 4 else { return }
        for row in frame.row..<frame.row + frame.height {
            if frame.column > 0 { canvas.put(String(repeating: " ", count: frame.column), row: row, column: 0, style: .normal) }
            if right > 0 { canvas.put(String(repeating: " ", count: right), row: row, column: frame.column + frame.width, style: .normal) }
        }
    }
}
