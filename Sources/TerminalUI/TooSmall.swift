/// What to show instead of a screen when the terminal is smaller than the screen needs.
public enum TooSmall {
    /// AuthDeck's screens are laid out for at least this.
    public static let appMinimum = Size(width: 80, height: 24)

    /// When `canvas` is smaller than `minimum`, draws a centred explanation and returns true
    /// (draw nothing else); otherwise draws nothing and returns false.
    public static func drawIfNeeded(on canvas: any Canvas, minimum: Size = appMinimum) -> Bool {
        let size = canvas.size
        guard size.width < minimum.width || size.height < minimum.height else { return false }
        let times = canvas.symbols.times
        // Phrases wrap whole: "have" on one line and its size on the next read as nonsense.
        let phrases = ["Terminal too small:", "need \(minimum.width)\(times)\(minimum.height),", "have \(size.width)\(times)\(size.height)."]
        var lines: [String] = []
        for phrase in phrases {
            if let last = lines.last, TextWidth.cells(last) + 1 + TextWidth.cells(phrase) <= size.width {
                lines[lines.count - 1] = last + " " + phrase
            } else {
                lines += TextWidth.wrap(phrase, width: size.width)
            }
        }
        lines += TextWidth.wrap("Enlarge the window, or press ctrl-c to quit.", width: size.width)
        lines = Array(lines.prefix(size.height))
        let top = max(0, (size.height - lines.count) / 2)
        for (index, line) in lines.enumerated() {
            let column = max(0, (size.width - TextWidth.cells(line)) / 2)
            canvas.put(line, row: top + index, column: column, style: index == 0 ? .warning : .normal)
        }
        return true
    }
}
