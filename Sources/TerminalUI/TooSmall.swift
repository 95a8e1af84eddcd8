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
        let message = "Terminal too small: need \(minimum.width)\(times)\(minimum.height), "
            + "have \(size.width)\(times)\(size.height)\nEnlarge the window, or press ctrl-c to quit."
        let lines = Array(TextWidth.wrap(message, width: size.width).prefix(size.height))
        let top = max(0, (size.height - lines.count) / 2)
        for (index, line) in lines.enumerated() {
            let column = max(0, (size.width - TextWidth.cells(line)) / 2)
            canvas.put(line, row: top + index, column: column, style: index == 0 ? .warning : .normal)
        }
        return true
    }
}
