/// The non-text glyphs widgets draw. Unicode by default; ASCII when the terminal's
/// locale is not UTF-8 (curses would otherwise show mojibake).
public struct Symbols: Sendable, Hashable {
    public var horizontal: String
    public var vertical: String
    public var topLeft: String
    public var topRight: String
    public var bottomLeft: String
    public var bottomRight: String
    /// Marks the selected row of a list.
    public var selection: String
    /// Stands for one character of a secret.
    public var bullet: String
    /// Separates key hints in the status bar.
    public var separator: String
    public var ellipsis: String
    public var times: String
    /// Mark a list that has more rows above or below the visible ones.
    public var moreAbove: String
    public var moreBelow: String

    public static let unicode = Symbols(
        horizontal: "─", vertical: "│", topLeft: "┌", topRight: "┐", bottomLeft: "└", bottomRight: "┘",
        selection: "▸", bullet: "•", separator: "·", ellipsis: "…", times: "×",
        moreAbove: "↑", moreBelow: "↓")

    public static let ascii = Symbols(
        horizontal: "-", vertical: "|", topLeft: "+", topRight: "+", bottomLeft: "+", bottomRight: "+",
        selection: ">", bullet: "*", separator: "|", ellipsis: "~", times: "x",
        moreAbove: "^", moreBelow: "v")
}
