/// A centred box listing the keys of the current screen.
public enum HelpOverlay {
    public static func draw(
        on canvas: any Canvas, title: String = "Help", entries: [(key: String, description: String)]
    ) {
        let keyWidth = entries.map { TextWidth.cells($0.key) }.max() ?? 0
        let descriptionWidth = entries.map { TextWidth.cells($0.description) }.max() ?? 0
        let footer = "esc or ? to close"
        let width = min(canvas.size.width - 2,
                        max(keyWidth + 2 + descriptionWidth, TextWidth.cells(footer), TextWidth.cells(title) + 4) + 4)
        // Border, blank, entries, blank, footer, border.
        let height = min(canvas.size.height - 2, entries.count + 5)
        let frame = Rect.centered(width: width, height: height, in: canvas.size)
        let inside = Box.draw(on: canvas, frame: frame, title: title, style: .accent)
        let textWidth = inside.width - 2
        let rows = max(0, inside.height - 3)
        for (index, entry) in entries.prefix(rows).enumerated() {
            let row = inside.row + 1 + index
            if index == rows - 1, entries.count > rows {
                canvas.put(canvas.symbols.ellipsis, row: row, column: inside.column + 1, style: .dim)
                break
            }
            canvas.put(TextWidth.truncate(entry.key, toCells: textWidth), row: row, column: inside.column + 1,
                       style: .keyHint)
            let descriptionColumn = keyWidth + 2
            canvas.put(TextWidth.truncate(entry.description, toCells: max(0, textWidth - descriptionColumn)),
                       row: row, column: inside.column + 1 + descriptionColumn, style: .normal)
        }
        canvas.put(TextWidth.truncate(footer, toCells: textWidth), row: inside.row + inside.height - 1,
                   column: inside.column + 1, style: .dim)
    }
}
