/// A colour role, not a colour: the curses canvas maps roles to colour pairs (or to
/// attributes only when colour is off), so no state is ever shown by colour alone.
public enum Role: Sendable, Hashable, CaseIterable {
    case normal, dim, title, selected, accent, success, warning, error, keyHint, badge
    /// Black on white whatever the terminal's colours, so a QR code scans on dark terminals too.
    case qrCode
}

public struct Style: Sendable, Hashable {
    public var role: Role
    public var bold: Bool
    public var reverse: Bool
    public var underline: Bool

    public init(_ role: Role = .normal, bold: Bool = false, reverse: Bool = false, underline: Bool = false) {
        self.role = role
        self.bold = bold
        self.reverse = reverse
        self.underline = underline
    }

    public static let normal = Style()
    public static let dim = Style(.dim)
    public static let title = Style(.title, bold: true)
    public static let selected = Style(.selected, reverse: true)
    public static let accent = Style(.accent)
    public static let success = Style(.success)
    public static let warning = Style(.warning, bold: true)
    public static let error = Style(.error, bold: true)
    public static let keyHint = Style(.keyHint, bold: true)
    public static let badge = Style(.badge, reverse: true)
}

public struct Size: Sendable, Hashable {
    public var width: Int
    public var height: Int
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }
}

/// What screens draw on. Coordinates are zero-based cells; drawing outside the canvas is
/// clipped, never an error. Text is measured in terminal cells (wide characters count 2).
public protocol Canvas {
    var size: Size { get }
    /// Writes `text` starting at (row, column), clipped at the right edge.
    func put(_ text: String, row: Int, column: Int, style: Style)
    /// Where the terminal cursor rests after the frame (the focused field or row), or nil to hide it.
    func placeCursor(row: Int, column: Int)
    /// The glyphs widgets draw with: Unicode, or ASCII when the locale cannot show Unicode.
    var symbols: Symbols { get }
}

extension Canvas {
    public var symbols: Symbols { .unicode }
}
