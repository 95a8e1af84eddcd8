import Foundation
import RoomChannel
import TerminalUI

/// Where a followed screen goes on the presenter's terminal. Their screen is shown whole, key bar
/// included, with the presenter's bar (whose it is, how to get back) under it when this terminal has
/// a row to spare, else over their title row, which names the screen the bar names too. On a
/// terminal smaller than theirs, a second row says what is not shown and what size shows it all, and
/// the rows dropped are those above their banner and key bar, which stay.
struct FollowedLayout: Equatable {
    /// The presenter's bar.
    var barRow: Int
    /// The row saying what is not shown; nil when nothing is.
    var noteRow: Int?
    /// For each row of this terminal, the row of theirs drawn on it (nil: the bar, the note or nothing).
    var sources: [Int?]
    /// Their rows not shown, counted from 1 as the note says them.
    var hiddenRows: ClosedRange<Int>?
    /// Their columns not shown, counted from 1.
    var hiddenColumns: ClosedRange<Int>?

    /// Their rows kept at the bottom when rows must go: the banner's three and the key bar.
    static let keptAtBottom = 4

    init(frame: Size, terminal: Size) {
        let h = frame.height, height = terminal.height
        let columns: ClosedRange<Int>? = frame.width > terminal.width ? (terminal.width + 1)...frame.width : nil
        hiddenColumns = columns
        let cut = h > height || columns != nil
        let presenterRows = cut ? 2 : 1
        if height >= h + presenterRows {
            // Room under their screen: all of it where it is, the bar (and note) below.
            barRow = h
            noteRow = cut ? h + 1 : nil
            sources = (0..<height).map { $0 < h ? $0 : nil }
            hiddenRows = nil
            return
        }
        barRow = 0
        noteRow = cut ? 1 : nil
        if h <= height {
            sources = (0..<height).map { $0 >= presenterRows && $0 < h ? $0 : nil }
            hiddenRows = nil
            return
        }
        let kept = min(Self.keptAtBottom, height - presenterRows)
        let topEnd = height - kept
        sources = (0..<height).map { row in
            if row < presenterRows { return nil }
            return row < topEnd ? row : h - kept + (row - topEnd)
        }
        hiddenRows = (topEnd + 1)...(h - kept)
    }

    /// What the note says, in 80 columns: what of theirs is not shown, and the size that shows all of it.
    func note(frame: Size) -> String? {
        guard noteRow != nil else { return nil }
        var parts: [String] = []
        if let hiddenRows { parts.append("rows \(hiddenRows.lowerBound)–\(hiddenRows.upperBound)") }
        if let hiddenColumns { parts.append("columns \(hiddenColumns.lowerBound)–\(hiddenColumns.upperBound)") }
        return "Not shown: their \(parts.joined(separator: " and ")) · resize to \(frame.width)×\(frame.height + 1) to see it all"
    }
}

extension RoomFeature {
    /// Whether a session's screen is shown, over the whole terminal.
    var isFollowing: Bool {
        if case .following = panel { true } else { false }
    }
}

extension RoomScreen {
    /// The followed screen (see `FollowedLayout`), the presenter's bar, and the message being typed to them over it.
    static func drawFollowing(_ session: RoomSession, frame: ScreenFrame?, message: TextField?, note: String?, on canvas: any Canvas) {
        let size = canvas.size
        let bar = followingBar(session, note: note, messaging: message != nil)
        guard let frame else {
            canvas.put("Waiting for \(who(session))'s screen…", row: size.height / 2, column: 2, style: .dim)
            drawBar(bar, row: size.height - 1, on: canvas)
            return
        }
        let frameSize = Size(width: frame.columns, height: frame.rows.count)
        let layout = FollowedLayout(frame: frameSize, terminal: size)
        for (row, source) in layout.sources.enumerated() {
            guard let source, frame.rows.indices.contains(source) else { continue }
            canvas.put(TextWidth.truncate(frame.rows[source], toCells: size.width, ellipsis: false), row: row, column: 0, style: .normal)
        }
        drawBar(bar, row: layout.barRow, on: canvas)
        if let noteRow = layout.noteRow, let text = layout.note(frame: frameSize) {
            canvas.put(TextWidth.pad(TextWidth.truncate(text, toCells: size.width), toCells: size.width), row: noteRow, column: 0, style: .accent)
        }
        if let message {
            drawMessage(message, to: session, on: canvas, in: Rect(row: 1, column: 1, width: size.width - 2, height: size.height - 2))
        }
    }

    /// Whose screen it is and the presenter's keys first, so that 80 columns always show the way back.
    static func followingBar(_ session: RoomSession, note: String?, messaging: Bool) -> String {
        let keys = messaging ? "enter: send · esc: cancel" : "esc: back to the room" + (session.isOperator ? "" : " · m: message them")
        return ["Following \(who(session))", keys, note, session.status?.screen ?? "…"].compactMap { $0 }.joined(separator: " · ")
    }

    private static func drawBar(_ text: String, row: Int, on canvas: any Canvas) {
        canvas.put(TextWidth.pad(TextWidth.truncate(text, toCells: canvas.size.width), toCells: canvas.size.width), row: row, column: 0, style: .badge)
    }
}
