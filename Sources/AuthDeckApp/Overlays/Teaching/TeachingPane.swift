import TerminalUI

/// The teaching pane: for one step, the SDK code that does it on each platform (all four
/// stacked, or one at full width) under the platform's header, with this run's values, scrollable.
struct TeachingPane: Sendable, Hashable {
    enum Display: Sendable, Hashable {
        case all
        case one(SDKPlatform)

        var platforms: [SDKPlatform] {
            switch self {
            case .all: SDKPlatform.allCases
            case .one(let platform): [platform]
            }
        }
    }

    struct Line: Sendable, Hashable {
        var text: String
        var style: Style
    }

    var step: TeachingStep
    var display: Display
    /// The first row shown; drawing clamps it to the last full page.
    var scroll: Int
    /// Lines above the code: the call the step made, where it stands among several.
    var notes: [String]

    init(step: TeachingStep, display: Display = .all, scroll: Int = 0, notes: [String] = []) {
        self.step = step
        self.display = display
        self.scroll = scroll
        self.notes = notes
    }

    /// The pane's content at `width` cells: a header per platform, then its code wrapped at token boundaries.
    func lines(width: Int) -> [Line] {
        var lines = notes.flatMap { TextWidth.wrap($0, width: width).map { Line(text: $0, style: .dim) } }
        for platform in display.platforms {
            if !lines.isEmpty { lines.append(Line(text: "", style: .normal)) }
            lines.append(Line(text: TextWidth.truncate(platform.title, toCells: width), style: .title))
            let snippet = step.snippet(on: platform)
            let style: Style = snippet.isAvailable ? .normal : .dim
            for source in snippet.text.split(separator: "\n", omittingEmptySubsequences: false) {
                lines += CodeWrap.wrap(String(source), width: width).map { Line(text: $0, style: style) }
            }
        }
        return lines
    }

    /// The rows of code `frame` shows: inside its border, a cell of margin each side.
    static func visibleRows(in frame: Rect) -> Int {
        max(0, frame.height - 2)
    }

    /// The largest useful `scroll` in `frame`: what key handling clamps to.
    func maxScroll(in frame: Rect) -> Int {
        max(0, lines(width: max(0, frame.width - 4)).count - Self.visibleRows(in: frame))
    }

    func draw(on canvas: any Canvas, in frame: Rect) {
        let inside = Box.draw(on: canvas, frame: frame, title: "SDK: \(step.title)", style: .accent)
        guard inside.width > 2, inside.height > 0 else { return }
        let lines = lines(width: inside.width - 2)
        let first = min(max(0, scroll), max(0, lines.count - inside.height))
        for (offset, line) in lines.dropFirst(first).prefix(inside.height).enumerated() {
            canvas.put(line.text, row: inside.row + offset, column: inside.column + 1, style: line.style)
        }
        // Where the view is, on the bottom border, when there is more than shows.
        if lines.count > inside.height {
            let last = min(first + inside.height, lines.count)
            let position = " lines \(first + 1)–\(last) of \(lines.count) "
            canvas.put(TextWidth.truncate(position, toCells: inside.width - 2), row: frame.row + frame.height - 1,
                       column: inside.column + max(1, inside.width - 1 - TextWidth.cells(position)), style: .accent)
        }
    }
}
