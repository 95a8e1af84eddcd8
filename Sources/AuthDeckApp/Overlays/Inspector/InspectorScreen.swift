import AuthClient
import Foundation
import TerminalUI

/// Every backend call: method, path, status, latency; the selected one's bodies (secrets
/// shortened, JSON pretty-printed) and the claims of any ID token it returned, in a pane that scrolls.
enum InspectorScreen {
    struct Layout {
        var inside: Rect
        var listRows: Int
        /// The detail's rows, under the list and its separating row.
        var detailRows: Int
    }

    static func layout(entries: Int, size: Size) -> Layout {
        let frame = Rect(row: 1, column: 0, width: size.width, height: size.height - 2)
        let inside = Rect(row: frame.row + 1, column: frame.column + 1, width: frame.width - 2, height: frame.height - 2)
        let listRows = min(entries, max(3, inside.height / 3))
        return Layout(inside: inside, listRows: listRows, detailRows: max(0, inside.height - listRows - 1))
    }

    static func draw(_ entries: [BackendExchange], selection: Int, scroll: Int = 0, authorization: ProviderAuthorization? = nil,
                     additionalUserInfo: AdditionalUserInfo? = nil, on canvas: any Canvas) {
        let frame = Rect(row: 1, column: 0, width: canvas.size.width, height: canvas.size.height - 2)
        let inside = Box.draw(on: canvas, frame: frame, title: "Inspector: \(entries.reduce(0) { $0 + $1.repeats }) backend calls (secrets shortened)", style: .accent)
        guard !entries.isEmpty else {
            canvas.put("No backend calls yet.", row: inside.row, column: inside.column + 1, style: .dim)
            return
        }
        let layout = layout(entries: entries.count, size: canvas.size)
        let items = entries.map { entry in
            ListView.Item(rowText(entry), isDim: entry.isFailure || entry.status >= 400 || entry.isBackground)
        }
        ListView(items: items, selection: selection).draw(on: canvas, in: Rect(row: inside.row, column: inside.column, width: inside.width, height: layout.listRows))
        guard entries.indices.contains(selection) else { return }
        let lines = detailLines(entries[selection], authorization: authorization, additionalUserInfo: additionalUserInfo, width: inside.width - 2)
        let first = min(scroll, max(0, lines.count - layout.detailRows))
        let top = inside.row + layout.listRows + 1
        for (index, line) in lines.dropFirst(first).prefix(layout.detailRows).enumerated() {
            canvas.put(line.0, row: top + index, column: inside.column + 1, style: line.1)
        }
        // Where the pane is, on the box's bottom border, when there is more than shows.
        if lines.count > layout.detailRows, layout.detailRows > 0 {
            let last = min(first + layout.detailRows, lines.count)
            let position = " lines \(first + 1)–\(last) of \(lines.count) · space/b scroll "
            canvas.put(TextWidth.truncate(position, toCells: inside.width - 2), row: frame.row + frame.height - 1,
                       column: inside.column + max(1, inside.width - 1 - TextWidth.cells(position)), style: .accent)
        }
    }

    /// `10:54:02 POST accounts:lookup 200 ×12 (background) 3ms`: a folded run shows its count, the last call's time and latency.
    static func rowText(_ entry: BackendExchange) -> String {
        let status = entry.isFailure ? "unreachable" : String(entry.status)
        let count = entry.repeats > 1 ? " ×\(entry.repeats)" : ""
        let background = entry.isBackground ? " (background)" : ""
        return "\(timeText(entry.date)) \(entry.method) \(shortPath(entry.path)) \(status)\(count)\(background) \(entry.latencyMilliseconds)ms"
    }

    /// The selected call's detail, one entry per row at `width` cells.
    static func detailLines(_ entry: BackendExchange, authorization: ProviderAuthorization?, additionalUserInfo: AdditionalUserInfo?,
                            width: Int) -> [(String, Style)] {
        var lines: [(String, Style)] = TextWidth.fit("path   \(entry.path)", width: width).map { ($0, .normal) }
        if let authorization = entry.authorization { lines.append((TextWidth.truncate("auth   \(authorization)", toCells: width), .normal)) }
        // The consent's nonce story before the bodies: a long answer must not push it out of sight.
        if let authorization, entry.isFederatedStep {
            lines += FederatedInspector.lines(authorization, additionalUserInfo: additionalUserInfo, width: width)
        }
        let failed = entry.isFailure || entry.status >= 400
        lines.append(("request", .title))
        lines += body(entry.request.isEmpty ? "(empty)" : entry.request, width: width).map { ($0, .normal) }
        lines.append(("response", .title))
        lines += body(entry.response, width: width).map { ($0, failed ? .error : .normal) }
        if let claims = entry.idTokenClaims {
            lines.append(("ID token claims:", .title))
            for key in claims.keys.sorted() {
                let value = claims[key]?.compactText ?? ""
                lines += TextWidth.wrap("  \(key): \(value)", width: width).map { ($0, .accent) }
            }
        }
        return lines
    }

    /// A JSON body pretty-printed, with `rawUserInfo` (JSON inside a string) decoded in place; other text as it is.
    static func body(_ text: String, width: Int) -> [String] {
        guard let data = text.data(using: .utf8), let object = try? JSONSerialization.jsonObject(with: data),
              object is [String: Any] || object is [Any],
              let pretty = try? JSONSerialization.data(withJSONObject: decodingRawUserInfo(object),
                                                       options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]) else {
            return TextWidth.wrap(text, width: width)
        }
        // Each line keeps its indentation, and so do the rows a long one wraps onto.
        return String(decoding: pretty, as: UTF8.self).split(separator: "\n").flatMap { line -> [String] in
            let indent = String(line.prefix { $0 == " " }.prefix(max(0, width / 2)))
            return TextWidth.wrap(String(line.dropFirst(indent.count)), width: width - indent.count).map { indent + $0 }
        }
    }

    private static func decodingRawUserInfo(_ value: Any) -> Any {
        switch value {
        case let object as [String: Any]:
            var decoded: [String: Any] = [:]
            for (key, item) in object {
                if key == "rawUserInfo", let raw = item as? String, let data = raw.data(using: .utf8),
                   let inner = try? JSONSerialization.jsonObject(with: data), inner is [String: Any] {
                    decoded[key] = inner
                } else {
                    decoded[key] = decodingRawUserInfo(item)
                }
            }
            return decoded
        case let array as [Any]:
            return array.map(decodingRawUserInfo)
        // Strings, numbers, booleans, null: nothing to decode.
        default:
            return value
        }
    }

    static func shortPath(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }

    static func timeText(_ date: Date) -> String {
        String(ConsoleView.dateText(date).dropFirst(11).prefix(8))
    }
}
