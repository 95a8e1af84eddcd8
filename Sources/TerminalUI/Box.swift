/// A bordered rectangle with an optional title in its top edge.
public enum Box {
    /// Draws the border, blanks the inside (a box may sit over other content) and returns
    /// the inside.
    @discardableResult
    public static func draw(on canvas: any Canvas, frame: Rect, title: String? = nil, style: Style = .normal) -> Rect {
        guard frame.width >= 2, frame.height >= 2 else { return Rect(row: frame.row, column: frame.column, width: 0, height: 0) }
        let symbols = canvas.symbols
        let inner = frame.width - 2
        canvas.put(TextWidth.row(symbols.horizontal, count: inner, between: symbols.topLeft, and: symbols.topRight), row: frame.row, column: frame.column, style: style)
        let blank = TextWidth.row(" ", count: inner)
        for row in frame.row + 1..<frame.row + frame.height - 1 {
            canvas.put(symbols.vertical, row: row, column: frame.column, style: style)
            canvas.put(blank, row: row, column: frame.column + 1, style: .normal)
            canvas.put(symbols.vertical, row: row, column: frame.column + frame.width - 1, style: style)
        }
        canvas.put(TextWidth.row(symbols.horizontal, count: inner, between: symbols.bottomLeft, and: symbols.bottomRight),
                   row: frame.row + frame.height - 1, column: frame.column, style: style)
        if let title, inner >= 5 {
            let text = TextWidth.truncate(title, toCells: inner - 4)
            canvas.put(" \(text) ", row: frame.row, column: frame.column + 2, style: Style(style.role, bold: true))
        }
        return frame.inset(by: 1)
    }
}
