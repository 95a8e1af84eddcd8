import TerminalUI

/// The teaching pane: for one step, the SDK code that does it on each platform (all four
/// stacked, or one at full width) under the platform's header, with this run's values, scrollable;
/// or the transcript, every step of the console's session in one language. Code is wrapped only
/// where its language allows a break (`CodeWrap`); a row still wider than the pane scrolls sideways.
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

    enum Content: Sendable, Hashable {
        case step(TeachingStep)
        /// Every step taken, in order, in one language.
        case transcript([TeachingStep], SDKPlatform)
    }

    struct Line: Sendable, Hashable {
        var text: String
        var style: Style
        /// Code scrolls sideways; notes and headers stay put.
        var isCode = false
    }

    var content: Content
    var display: Display
    /// The first row shown; drawing clamps it to the last full page.
    var scroll: Int
    /// The first cell of each row shown, for rows wider than the pane; drawing clamps it.
    var column: Int
    /// Lines above the code: the call the step made, where it stands among several.
    var notes: [String]

    init(step: TeachingStep, display: Display = .all, scroll: Int = 0, column: Int = 0, notes: [String] = []) {
        self.init(content: .step(step), display: display, scroll: scroll, column: column, notes: notes)
    }

    init(content: Content, display: Display = .all, scroll: Int = 0, column: Int = 0, notes: [String] = []) {
        self.content = content
        self.display = display
        self.scroll = scroll
        self.column = column
        self.notes = notes
    }

    var title: String {
        switch content {
        case .step(let step): "SDK: \(step.title)"
        case .transcript(let steps, let platform): "SDK transcript: \(steps.count) step\(steps.count == 1 ? "" : "s") in \(platform.name)"
        }
    }

    /// The pane's content at `width` cells: a header per platform (per step in the transcript), then its code.
    func lines(width: Int) -> [Line] {
        var lines = notes.flatMap { TextWidth.wrap($0, width: width).map { Line(text: $0, style: .dim) } }
        switch content {
        case .step(let step):
            for platform in display.platforms {
                if !lines.isEmpty { lines.append(Line(text: "", style: .normal)) }
                lines.append(Line(text: TextWidth.truncate(platform.title, toCells: width), style: .title))
                lines += Self.codeLines(step.snippet(on: platform), width: width)
            }
        case .transcript(let steps, let platform):
            for (index, step) in steps.enumerated() {
                if !lines.isEmpty { lines.append(Line(text: "", style: .normal)) }
                lines.append(Line(text: TextWidth.truncate("\(index + 1). \(step.title)", toCells: width), style: .title))
                lines += Self.codeLines(step.snippet(on: platform), width: width)
            }
        }
        return lines
    }

    /// A snippet's rows as the pane draws them at `width`.
    static func codeLines(_ snippet: FilledSnippet, width: Int) -> [Line] {
        let style: Style = snippet.isAvailable ? .normal : .dim
        return snippet.text.split(separator: "\n", omittingEmptySubsequences: false)
            .flatMap { CodeWrap.wrap(String($0), width: width) }
            .map { Line(text: $0, style: style, isCode: true) }
    }

    /// The rows of code `frame` shows: inside its border, a cell of margin each side.
    static func visibleRows(in frame: Rect) -> Int {
        max(0, frame.height - 2)
    }

    static func visibleColumns(in frame: Rect) -> Int {
        max(0, frame.width - 4)
    }

    /// The largest useful `scroll` in `frame`: what key handling clamps to.
    func maxScroll(in frame: Rect) -> Int {
        max(0, lines(width: Self.visibleColumns(in: frame)).count - Self.visibleRows(in: frame))
    }

    /// The largest useful `column` in `frame`: zero unless a row is wider than the pane.
    func maxColumn(in frame: Rect) -> Int {
        let width = Self.visibleColumns(in: frame)
        return max(0, (lines(width: width).filter(\.isCode).map { TextWidth.cells($0.text) }.max() ?? 0) - width)
    }

    func draw(on canvas: any Canvas, in frame: Rect) {
        let inside = Box.draw(on: canvas, frame: frame, title: title, style: .accent)
        guard inside.width > 2, inside.height > 0 else { return }
        let width = inside.width - 2
        let lines = lines(width: width)
        let first = min(max(0, scroll), max(0, lines.count - inside.height))
        let widest = lines.filter(\.isCode).map { TextWidth.cells($0.text) }.max() ?? 0
        let left = min(max(0, column), max(0, widest - width))
        for (offset, line) in lines.dropFirst(first).prefix(inside.height).enumerated() {
            let text = line.isCode ? Self.cells(of: line.text, from: left, count: width) : TextWidth.truncate(line.text, toCells: width)
            canvas.put(text, row: inside.row + offset, column: inside.column + 1, style: line.style)
        }
        // Where the view is, on the bottom border, when there is more than shows.
        var position: [String] = []
        if lines.count > inside.height {
            position.append("lines \(first + 1)–\(min(first + inside.height, lines.count)) of \(lines.count)")
        }
        if widest > width {
            position.append("< > sideways: columns \(left + 1)–\(min(left + width, widest)) of \(widest)")
        }
        if !position.isEmpty {
            let text = " " + position.joined(separator: " · ") + " "
            canvas.put(TextWidth.truncate(text, toCells: inside.width - 2), row: frame.row + frame.height - 1,
                       column: inside.column + max(1, inside.width - 1 - TextWidth.cells(text)), style: .accent)
        }
    }

    /// The cells `from..<from + count` of `text`; a wide glyph cut by either edge is left out.
    static func cells(of text: String, from: Int, count: Int) -> String {
        guard from > 0 || TextWidth.cells(text) > count else { return text }
        var out = ""
        var position = 0
        for glyph in TextWidth.glyphs(text) {
            defer { position += glyph.width }
            guard position >= from else { continue }
            if position + glyph.width > from + count { break }
            out += glyph.text
        }
        return out
    }
}
