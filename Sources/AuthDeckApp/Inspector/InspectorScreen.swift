import AuthClient
import Foundation
import TerminalUI

/// Every backend call: method, path, status, latency; the selected one's bodies (secrets
/// shortened) and the claims of any ID token it returned.
enum InspectorScreen {
    static func draw(_ entries: [BackendExchange], selection: Int, authorization: ProviderAuthorization? = nil,
                     additionalUserInfo: AdditionalUserInfo? = nil, on canvas: any Canvas) {
        let frame = Rect(row: 1, column: 0, width: canvas.size.width, height: canvas.size.height - 2)
        let inside = Box.draw(on: canvas, frame: frame, title: "Inspector: \(entries.count) backend calls (secrets shortened)", style: .accent)
        guard !entries.isEmpty else {
            canvas.put("No backend calls yet.", row: inside.row, column: inside.column + 1, style: .dim)
            return
        }
        let listHeight = min(entries.count, max(3, inside.height / 3))
        let items = entries.map { entry in
            ListView.Item("\(timeText(entry.date)) \(entry.method) \(shortPath(entry.path)) \(entry.isFailure ? "unreachable" : String(entry.status)) \(entry.latencyMilliseconds)ms",
                          isDim: entry.isFailure || entry.status >= 400)
        }
        ListView(items: items, selection: selection).draw(on: canvas, in: Rect(row: inside.row, column: inside.column, width: inside.width, height: listHeight))
        guard entries.indices.contains(selection) else { return }
        let entry = entries[selection]
        var lines: [(String, Style)] = [("path   \(entry.path)", .normal)]
        if let authorization = entry.authorization { lines.append(("auth   \(authorization)", .normal)) }
        // The consent's nonce story before the bodies: a long answer must not push it off the screen.
        if let authorization, entry.isFederatedStep {
            lines += FederatedInspector.lines(authorization, additionalUserInfo: additionalUserInfo, width: inside.width - 2)
        }
        lines += TextWidth.wrap("request  \(entry.request.isEmpty ? "(empty)" : entry.request)", width: inside.width - 2).map { ($0, .normal) }
        lines += TextWidth.wrap("response \(entry.response)", width: inside.width - 2).map { ($0, entry.isFailure || entry.status >= 400 ? .error : .normal) }
        if let claims = entry.idTokenClaims {
            lines.append(("ID token claims:", .title))
            for key in claims.keys.sorted() {
                let value = claims[key]?.compactText ?? ""
                lines += TextWidth.wrap("  \(key): \(value)", width: inside.width - 2).map { ($0, .accent) }
            }
        }
        let top = inside.row + listHeight + 1
        for (index, line) in lines.prefix(max(0, inside.height - listHeight - 1)).enumerated() {
            canvas.put(line.0, row: top + index, column: inside.column + 1, style: line.1)
        }
    }

    static func shortPath(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }

    static func timeText(_ date: Date) -> String {
        String(ConsoleView.dateText(date).dropFirst(11).prefix(8))
    }
}
