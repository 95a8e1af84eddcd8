/// A rectangle of cells on a canvas, zero-based.
public struct Rect: Sendable, Hashable {
    public var row: Int
    public var column: Int
    public var width: Int
    public var height: Int

    public init(row: Int, column: Int, width: Int, height: Int) {
        self.row = row
        self.column = column
        self.width = width
        self.height = height
    }

    /// A rectangle of `width`×`height` centred in `size`, shrunk to fit.
    public static func centered(width: Int, height: Int, in size: Size) -> Rect {
        let w = max(0, min(width, size.width))
        let h = max(0, min(height, size.height))
        return Rect(row: (size.height - h) / 2, column: (size.width - w) / 2, width: w, height: h)
    }

    /// This rectangle less `amount` cells on every side.
    public func inset(by amount: Int) -> Rect {
        Rect(row: row + amount, column: column + amount,
             width: max(0, width - 2 * amount), height: max(0, height - 2 * amount))
    }
}
