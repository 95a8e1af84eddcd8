import Foundation
import RoomChannel
import TerminalUI

/// The room: a header (count, filter, order, page), the table a page at a time, the selected
/// session whole under it, and the panel over it; a followed screen over the whole terminal.
enum RoomScreen {
    static func draw(_ feature: RoomFeature, on canvas: any Canvas, in frame: Rect) {
        if feature.showingLog {
            drawLog(feature, on: canvas, in: frame)
        } else {
            drawTable(feature, on: canvas, in: frame)
        }
        switch feature.panel {
        case let .message(field, to): drawMessage(field, to: to, on: canvas, in: frame)
        case let .confirmEnd(session, confirmSelected):
            Dialog(title: "End this session?", message: "\(who(session)) (\(session.status?.screen ?? "starting")) is told the presenter ended it, "
                + "and their console closes. " + afterEnd(session), buttons: ["Cancel (esc)", "End it (y)"], selection: confirmSelected ? 1 : 0).draw(on: canvas)
        case let .confirmReset(counts, confirmSelected):
            Dialog(title: "Reset the demo?", message: resetQuestion(counts), buttons: ["Cancel (esc)", "Reset (y)"],
                   selection: confirmSelected ? 1 : 0).draw(on: canvas)
        case .following, nil:
            break
        }
    }

    /// What becomes of their work: only a key brings a visitor back to their project.
    static func afterEnd(_ session: RoomSession) -> String {
        if session.isOperator { return "Their accounts stay in the server's own project." }
        return session.key == nil
            ? "They came without a key, so they cannot come back to their project: its accounts are lost to them."
            : "Their project is kept: connecting with the same key brings them back to it."
    }

    static func resetQuestion(_ counts: ResetCounts) -> String {
        let projects = counts.projects == 1 ? "1 visitor project" : "\(counts.projects) visitor projects"
        let accounts = counts.accounts == 1 ? "1 account" : "\(counts.accounts) accounts"
        let sessions = counts.sessions == 1 ? "the 1 visitor" : "the \(counts.sessions) visitors"
        return "This empties \(projects) (\(accounts), with their identities, outbox and sessions) and sends \(sessions) connected now back to signing in. "
            + "Your own project and its accounts are untouched."
    }

    static func header(_ feature: RoomFeature, pageRows: Int) -> String {
        guard let snapshot = feature.snapshot else { return "Waiting for the room…" }
        let visitors = snapshot.sessions.filter { !$0.isOperator }.count
        let stuck = snapshot.sessions.filter { RoomFeature.stuck($0) != nil }.count
        var parts = ["\(count(snapshot.sessions.count, "session")) (\(count(visitors, "visitor"))\(stuck > 0 ? ", \(stuck) stuck !" : ""))"]
        if !feature.filter.isEmpty { parts.append("filter: \"\(feature.filter)\" (\(feature.rows.count) shown)") }
        parts.append("order: \(feature.order.rawValue) \(feature.descending ? "↑" : "↓")")
        let pages = max(1, (feature.rows.count + pageRows - 1) / pageRows)
        if pages > 1 { parts.append("page \(feature.selection / pageRows + 1)/\(pages)") }
        return parts.joined(separator: " · ")
    }

    /// Widths for 78 cells: marker, name, screen, sign-in methods, sandbox (a project or a tenant), idle. The address and
    /// key are in the detail line: names are unique in the room.
    static let columns = (mark: 3, who: 12, screen: 25, methods: 16, project: 14, idle: 4)

    /// A wider terminal gives half its extra width to the screen column, the rest to the methods.
    static func screenWidth(_ width: Int) -> Int { columns.screen + max(0, width - 78) / 2 }
    static func methodsWidth(_ width: Int) -> Int { columns.methods + max(0, width - 78) - max(0, width - 78) / 2 }

    static func headings(width: Int = 78) -> String {
        let c = columns
        return String(repeating: " ", count: c.mark) + cell("name", c.who) + cell("screen", screenWidth(width)) + cell("sign-in methods", methodsWidth(width))
            + cell("sandbox", c.project) + "idle"
    }

    static func row(_ session: RoomSession, selected: Bool, viewer: Int?, width: Int = 78) -> String {
        let c = columns
        let project = session.isOperator ? (session.id == viewer ? "you (operator)" : "operator") : session.project ?? "—"
        // "!" marks a visitor who looks stuck, beside the selection's ">".
        return (selected ? ">" : " ") + (RoomFeature.stuck(session) == nil ? "  " : "! ") + cell(session.user, c.who) + cell(session.status?.screen ?? "starting…", screenWidth(width))
            + cell(methods(session.status), methodsWidth(width)) + cell(project, c.project) + duration(session.idleSeconds)
    }

    static func drawTable(_ feature: RoomFeature, on canvas: any Canvas, in frame: Rect) {
        let pageRows = max(1, frame.height - 4)
        if feature.typingFilter {
            // The field replaces the header while it is typed: drawn over it, the header's tail showed through.
            let fieldWidth = min(40, frame.width - 2)
            canvas.put("/", row: frame.row, column: frame.column, style: .keyHint)
            feature.filterField.draw(on: canvas, row: frame.row, column: frame.column + 2, width: fieldWidth, focused: true)
            canvas.put(TextWidth.truncate(" \(feature.rows.count) shown", toCells: max(0, frame.width - fieldWidth - 2)),
                       row: frame.row, column: frame.column + 2 + fieldWidth, style: .dim)
        } else {
            canvas.put(TextWidth.truncate(header(feature, pageRows: pageRows), toCells: frame.width), row: frame.row, column: frame.column, style: .dim)
        }
        canvas.put(TextWidth.truncate(headings(width: frame.width), toCells: frame.width), row: frame.row + 1, column: frame.column, style: .title)
        guard feature.snapshot != nil else { return }
        if feature.rows.isEmpty {
            canvas.put(feature.filter.isEmpty ? "Nobody is connected." : "No session matches the filter.", row: frame.row + 2, column: frame.column, style: .dim)
            return
        }
        // A page at a time: a frame costs the rows it shows, however many sessions there are.
        let first = feature.selection / pageRows * pageRows
        for (offset, session) in feature.rows[first..<min(first + pageRows, feature.rows.count)].enumerated() {
            let index = first + offset
            let selected = index == feature.selection
            canvas.put(TextWidth.pad(TextWidth.truncate(row(session, selected: selected, viewer: feature.snapshot?.viewer, width: frame.width), toCells: frame.width), toCells: frame.width),
                       row: frame.row + 2 + offset, column: frame.column, style: selected ? .selected : .normal)
        }
        if let session = feature.selected {
            let lines = detailLines(session, width: frame.width)
            for (offset, line) in lines.enumerated() {
                canvas.put(line, row: frame.row + frame.height - lines.count + offset, column: frame.column, style: .accent)
            }
        }
    }

    /// The selected session whole: what the columns cut, the key last since it is the longest. The project's
    /// id goes unlabelled (the column above names it) so that a keyed visitor's fits 80 columns on two rows.
    static func detailParts(_ session: RoomSession) -> [String] {
        var parts = [who(session), session.project ?? (session.isOperator ? "the server's own project" : "no project")]
        if let stuck = RoomFeature.stuck(session) { parts.insert("stuck: \(stuck)", at: 1) }
        if let uid = session.status?.uid { parts.append("uid \(uid)") }
        parts.append(session.key ?? "no key")
        return parts
    }

    /// The detail under the table on the two rows below it, broken between its parts; what a third
    /// row would hold ends the second, cut (at 80 columns, the tail of a key's fingerprint).
    static func detailLines(_ session: RoomSession, width: Int) -> [String] {
        var lines: [String] = []
        for part in detailParts(session) {
            if let last = lines.last, lines.count == 2 || TextWidth.cells(last + " · " + part) <= width {
                lines[lines.count - 1] = last + " · " + part
            } else {
                lines.append(part)
            }
        }
        return lines.map { TextWidth.truncate($0, toCells: width) }
    }

    static func drawMessage(_ field: TextField, to: RoomSession?, on canvas: any Canvas, in frame: Rect) {
        let width = min(frame.width, 70)
        let box = Rect(row: frame.row + 3, column: frame.column + (frame.width - width) / 2, width: width, height: 6)
        for row in box.row..<box.row + box.height { canvas.put(String(repeating: " ", count: box.width), row: row, column: box.column, style: .normal) }
        let inner = Box.draw(on: canvas, frame: box, title: to.map { "Message \(who($0))" } ?? "Message every visitor")
        let whose = to == nil ? "each visitor's console" : "their console alone"
        canvas.put(TextWidth.truncate("A line on \(whose), at most \(RoomText.messageLimit) characters;", toCells: inner.width),
                   row: inner.row, column: inner.column, style: .dim)
        canvas.put(TextWidth.truncate("control characters become spaces. \(field.text.count)/\(RoomText.messageLimit)", toCells: inner.width),
                   row: inner.row + 1, column: inner.column, style: .dim)
        field.draw(on: canvas, row: inner.row + 3, column: inner.column, width: inner.width, focused: true)
    }

    /// The room's events, newest at the bottom, each wrapped under its time so none is cut.
    static func drawLog(_ feature: RoomFeature, on canvas: any Canvas, in frame: Rect) {
        let events = feature.snapshot?.log ?? []
        let lines = logLines(events, width: frame.width)
        let rows = max(1, frame.height - 2)
        let scroll = min(feature.logScroll, max(lines.count - rows, 0))
        let shown = lines.dropLast(scroll).suffix(rows)
        var title = "Room log · \(count(events.count, "event")), newest last"
        if scroll > 0 { title += " · \(scroll) line\(scroll == 1 ? "" : "s") back (G: newest)" }
        canvas.put(TextWidth.truncate(title, toCells: frame.width), row: frame.row, column: frame.column, style: .title)
        if events.isEmpty {
            canvas.put(feature.snapshot == nil ? "Waiting for the room…" : "Nothing has happened yet.", row: frame.row + 2, column: frame.column, style: .dim)
        }
        for (offset, line) in shown.enumerated() {
            canvas.put(line.time, row: frame.row + 2 + offset, column: frame.column, style: .dim)
            canvas.put(line.text, row: frame.row + 2 + offset, column: frame.column + logIndent, style: .normal)
        }
    }

    /// Cells before an event's text: its time of day.
    static let logIndent = 10

    /// Each event's lines at `width`: its time on the first, the text wrapped at words under it.
    static func logLines(_ events: [RoomEvent], width: Int) -> [(time: String, text: String)] {
        events.flatMap { event in
            TextWidth.wrap(event.text, width: max(width - logIndent, 10)).enumerated().map { index, line in
                (index == 0 ? String(ConsoleView.timeText(event.date).prefix(8)) : "", line)
            }
        }
    }

    static func who(_ session: RoomSession) -> String { "\(session.user)@\(session.address)" }

    /// The account's linked sign-in methods, `.com` left off so that three fit in the column.
    static func methods(_ status: ConsoleStatus?) -> String {
        guard let status, status.uid != nil else { return "signed out" }
        if status.anonymous && status.methods.isEmpty { return "anonymous" }
        return status.methods.map { $0.hasSuffix(".com") ? String($0.dropLast(4)) : $0 }.joined(separator: ", ")
    }

    static func duration(_ seconds: Int) -> String {
        if seconds < 60 { return "\(seconds)s" }
        if seconds < 3600 { return "\(seconds / 60)m" }
        return "\(seconds / 3600)h\(seconds % 3600 / 60)"
    }

    static func count(_ n: Int, _ noun: String) -> String { n == 1 ? "1 \(noun)" : "\(n) \(noun)s" }

    private static func cell(_ text: String, _ width: Int) -> String { TextWidth.pad(TextWidth.truncate(text, toCells: width), toCells: width + 1) }
}
