/// A scrolling list with one selected row. The selection shows as a marker and reverse
/// video, so it is visible without colour; the terminal cursor rests on it for screen readers.
public struct ListView: Sendable, Hashable {
    public struct Item: Sendable, Hashable {
        public var text: String
        /// Drawn dim: unavailable or secondary, yet still selectable.
        public var isDim: Bool

        public init(_ text: String, isDim: Bool = false) {
            self.text = text
            self.isDim = isDim
        }
    }

    public var items: [Item] {
        didSet { selection = max(0, min(selection, items.count - 1)) }
    }
    public private(set) var selection: Int
    /// The first visible row, kept between frames so the list does not jump while moving.
    public private(set) var offset = 0

    public init(items: [Item], selection: Int = 0) {
        self.items = items
        self.selection = max(0, min(selection, items.count - 1))
    }

    public var selectedItem: Item? {
        items.indices.contains(selection) ? items[selection] : nil
    }

    public mutating func select(_ index: Int, visibleRows: Int) {
        selection = max(0, min(index, items.count - 1))
        offset = Self.offset(keeping: selection, visible: visibleRows, from: offset, count: items.count)
    }

    /// Moves the selection for ↑/↓, j/k, home/end and page up/down; true when handled.
    public mutating func handle(_ key: Key, visibleRows: Int) -> Bool {
        let page = max(1, visibleRows - 1)
        switch key {
        case .up, .character("k"): select(selection - 1, visibleRows: visibleRows)
        case .down, .character("j"): select(selection + 1, visibleRows: visibleRows)
        case .home: select(0, visibleRows: visibleRows)
        case .end: select(items.count - 1, visibleRows: visibleRows)
        case .pageUp: select(selection - page, visibleRows: visibleRows)
        case .pageDown: select(selection + page, visibleRows: visibleRows)
        default: return false
        }
        return true
    }

    /// `marksSelection` false draws no row as selected: for a list that shares one selection with
    /// another, where only the list holding it may show a marker.
    public func draw(on canvas: any Canvas, in frame: Rect, focused: Bool = true, marksSelection: Bool = true) {
        guard frame.width > 2, frame.height > 0 else { return }
        let first = Self.offset(keeping: selection, visible: frame.height, from: offset, count: items.count)
        let symbols = canvas.symbols
        // When the list scrolls, the last column is kept for the ↑/↓ marks.
        let textWidth = items.count > frame.height ? frame.width - 1 : frame.width
        for line in 0..<frame.height {
            let index = first + line
            guard items.indices.contains(index) else { break }
            let item = items[index]
            let row = frame.row + line
            let isSelected = marksSelection && index == selection
            let marker = isSelected ? symbols.selection : " "
            // Only as wide as the text (and a space): a highlight padded to the frame's width
            // costs its spaces on the wire at every move of the selection.
            let label = TextWidth.truncate("\(marker) \(item.text)", toCells: textWidth)
            let text = isSelected && TextWidth.cells(label) < textWidth ? label + " " : label
            let style: Style = isSelected
                ? Style(.selected, bold: focused, reverse: focused)
                : (item.isDim ? .dim : .normal)
            canvas.put(text, row: row, column: frame.column, style: style)
            if isSelected, focused { canvas.placeCursor(row: row, column: frame.column) }
        }
        let lastColumn = frame.column + frame.width - 1
        if first > 0 {
            canvas.put(symbols.moreAbove, row: frame.row, column: lastColumn, style: .dim)
        }
        if first + frame.height < items.count {
            canvas.put(symbols.moreBelow, row: frame.row + frame.height - 1, column: lastColumn, style: .dim)
        }
    }

    /// The smallest change to `offset` that shows `selection` in `visible` rows, without
    /// leaving empty rows at the bottom while there are items above.
    static func offset(keeping selection: Int, visible: Int, from offset: Int, count: Int) -> Int {
        guard visible > 0 else { return 0 }
        var result = min(offset, max(0, count - visible))
        if selection < result { result = selection }
        if selection >= result + visible { result = selection - visible + 1 }
        return max(0, result)
    }
}
