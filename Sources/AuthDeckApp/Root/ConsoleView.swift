import AppData
import AuthClient
import Foundation
import TerminalUI

/// Draws the model: the title bar, the screen's feature, the banner, an overlay, the key bar.
/// Views read state only: nothing here changes the model or does I/O.
public enum ConsoleView {
    public static func draw(_ model: ConsoleModel, on canvas: any Canvas) {
        if TooSmall.drawIfNeeded(on: canvas) { return }
        if model.overlay == nil, model.screen.feature.drawWhole(on: canvas) { return }
        let title = "AuthDeck · \(model.screen.title)"
        TitleBar.draw(on: canvas, left: title, right: model.statusText(fitting: TitleBar.rightRoom(width: canvas.size.width, left: title)))
        let content = Rect(row: 2, column: 1, width: canvas.size.width - 2, height: canvas.size.height - 6)
        model.screen.feature.draw(in: model.context, on: canvas, frame: content)
        // A TOTP QR code starts on this row: the message waits in help while it shows.
        let message = model.screen.showsQRCode ? nil : model.presenterMessage
        let row = noticeRow(message: message, watched: model.watched, width: canvas.size.width - 2)
        if let shown = row.message {
            canvas.put(shown, row: 1, column: 1, style: .accent)
            if row.cut { canvas.put(Self.moreHint, row: 1, column: 1 + TextWidth.cells(shown), style: .keyHint) }
        }
        if !row.notice.isEmpty {
            canvas.put(row.notice, row: 1, column: max(0, canvas.size.width - TextWidth.cells(row.notice) - 1), style: .badge)
        }
        // The QR code of a TOTP enrollment takes the rows the banner would use on an 80×24 terminal.
        if !(model.screen.showsQRCode && canvas.size.height < 28) { drawBanner(model, on: canvas) }
        switch model.overlay {
        case .help:
            drawHelp(model, on: canvas)
        case let .inspector(selection, scroll):
            drawInspector(model, selection: selection, scroll: scroll, withHelp: false, on: canvas)
        case let .inspectorHelp(selection, scroll):
            drawInspector(model, selection: selection, scroll: scroll, withHelp: true, on: canvas)
        case let .outbox(selection):
            OutboxScreen.draw(model.outbox, selection: selection, remoteTerminal: model.remoteTerminal, on: canvas)
        case let .teaching(scroll):
            drawTeaching(model, scroll: scroll, on: canvas)
        case nil:
            break
        }
        StatusBar.draw(on: canvas, hints: model.barHints)
    }

    /// Where a cut text says the rest is: help, which F1 opens on every screen, has it whole.
    static let moreHint = " F1: all of it"

    /// The row under the title: the presenter's message, and that they watch. Being watched is said
    /// shorter where the message needs the room; a message longer than the row still ends saying where
    /// it is whole (`cut`: `moreHint` follows it).
    static func noticeRow(message: String?, watched: Bool, width: Int) -> (message: String?, notice: String, cut: Bool) {
        let notices = watched ? [" The presenter is watching your screen ", " The presenter is watching ", " Watched "] : [""]
        func room(_ notice: String) -> Int { width - TextWidth.cells(notice) - (notice.isEmpty ? 0 : 1) }
        guard let message else { return (nil, notices[0], false) }
        if let notice = notices.first(where: { TextWidth.cells(message) <= room($0) }) { return (message, notice, false) }
        let notice = notices[notices.count - 1]
        let cells = max(0, room(notice) - TextWidth.cells(moreHint))
        return (TextWidth.truncate(message, toCells: cells), notice, true)
    }

    /// The banner (or what is running) sits just above the key bar: text, then its detail dimmed.
    static func drawBanner(_ model: ConsoleModel, on canvas: any Canvas) {
        let width = canvas.size.width - 2
        let top = canvas.size.height - 4
        if let busy = model.busy {
            canvas.put("\(canvas.symbols.ellipsis) \(busy)", row: top, column: 1, style: .accent)
            return
        }
        guard let banner = model.banner else { return }
        let (marker, style): (String, Style) = switch banner.kind {
        case .info: ("i", .accent)
        case .success: ("ok", .success)
        case .error: ("error", .error)
        }
        let lines = TextWidth.wrap("\(marker): \(banner.text)", width: width).map { ($0, style) }
            + (banner.detail.map { TextWidth.wrap($0, width: width) } ?? []).map { ($0, Style.dim) }
        let rows = bannerRows
        for (index, (line, lineStyle)) in lines.prefix(rows).enumerated() {
            guard index == rows - 1, lines.count > rows else {
                canvas.put(line, row: top + index, column: 1, style: lineStyle)
                continue
            }
            // Longer than its rows: the last one says where the rest is.
            let more = moreHint
            canvas.put(TextWidth.truncate(line + " " + canvas.symbols.ellipsis, toCells: width - more.count), row: top + index, column: 1, style: lineStyle)
            canvas.put(more, row: top + index, column: 1 + width - more.count, style: .keyHint)
        }
    }

    /// Between the title bar and the key bar, as the inspector.
    static func teachingFrame(_ size: Size) -> Rect {
        Rect(row: 1, column: 0, width: size.width, height: size.height - 2)
    }

    static func drawTeaching(_ model: ConsoleModel, scroll: Int, on canvas: any Canvas) {
        let frame = teachingFrame(canvas.size)
        if let pane = model.teachingPane(scroll: scroll) {
            pane.draw(on: canvas, in: frame)
            return
        }
        let inside = Box.draw(on: canvas, frame: frame, title: "SDK", style: .accent)
        let text = "Nothing done yet in this console. Take a step (sign in as a guest, say) and the pane shows its code "
            + "in Swift, Kotlin, JavaScript and C++, with your values."
        for (index, line) in TextWidth.wrap(text, width: max(1, inside.width - 2)).prefix(inside.height).enumerated() {
            canvas.put(line, row: inside.row + index, column: inside.column + 1, style: .dim)
        }
    }

    /// The rows above the key bar the banner has.
    static let bannerRows = 3

    /// The banner whole, as the help overlay shows it.
    static func bannerText(_ banner: Banner?) -> String? {
        banner.map { banner in [banner.text, banner.detail].compactMap { $0 }.joined(separator: "\n") }
    }

    static func dateText(_ date: Date?) -> String {
        utcText(date, withDay: true)
    }

    /// The time of day alone, for what lasts an hour (an ID token).
    static func timeText(_ date: Date?) -> String {
        utcText(date, withDay: false)
    }

    private static func utcText(_ date: Date?, withDay: Bool) -> String {
        guard let date else { return "—" }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? .current
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        let time = String(format: "%02d:%02d:%02d UTC", c.hour ?? 0, c.minute ?? 0, c.second ?? 0)
        return withDay ? String(format: "%04d-%02d-%02d ", c.year ?? 0, c.month ?? 0, c.day ?? 0) + time : time
    }
}

extension ConsoleModel {
    /// The right side of the title bar: the backend, its tenant, and who is signed in. The tenant and who
    /// is signed in stay whole when `cells` is short; the backend's name gives way first.
    func statusText(fitting cells: Int) -> String {
        let who = whoText
        let whole = "\(backendName) · \(who)"
        guard TextWidth.cells(whole) > cells else { return whole }
        let backendRoom = cells - TextWidth.cells(who) - 3
        // Too little left for a recognisable backend name: who alone.
        guard backendRoom >= 8 else { return TextWidth.truncate(who, toCells: cells) }
        return TextWidth.truncate(backendName, toCells: backendRoom) + " · " + who
    }

    /// Who is signed in, as the title bar names them: in a tenant, the tenant first, which never gives way.
    var whoText: String {
        let who = user.map { $0.isAnonymous ? "anonymous" : ($0.email ?? $0.phoneNumber ?? $0.uid) } ?? "signed out"
        return tenant.map { "tenant \($0) · \(who)" } ?? who
    }

    /// The bar's hints; where `q` types a letter, ctrl-c is the way out and says so.
    var barHints: [(key: String, label: String)] { builtKeys.barHints ?? barHints(of: bindings) }

    func barHints(of bindings: [KeyBinding<ConsoleAction>]) -> [(key: String, label: String)] {
        let shown = bindings.filter(\.inBar)
        let hints = shown.map { (key: $0.label, label: $0.help) }
        return shown.contains { $0.intent == .console(.quit) } || screen == .launching ? hints : hints + [(key: "ctrl-c", label: "quit")]
    }
}
