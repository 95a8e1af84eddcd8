import AppData
import AuthClient
import Foundation
import TerminalUI

/// The signed-in account: who it is, how it signs in, its token, and its app data.
enum AccountScreen {
    static func draw(_ context: ConsoleContext, focus: AccountFocus, on canvas: any Canvas, in frame: Rect) {
        guard let user = context.user else {
            canvas.put("Not signed in.", row: frame.row, column: frame.column + 1, style: .dim)
            return
        }
        let column = frame.column + 1
        canvas.put("Account", row: frame.row, column: column, style: .title)
        let badge = user.isAnonymous ? " ANONYMOUS " : (user.isDisabled ? " DISABLED " : nil)
        if let badge { canvas.put(badge, row: frame.row, column: column + 9, style: .badge) }

        let token = context.token
        let provider = (token?.signInProvider ?? "—") + (token?.signInSecondFactor.map { " + \($0)" } ?? "")
        let expires = token?.expirationDate.map(ConsoleView.dateText) ?? "—"
        let rows: [(String, String)] = [
            ("uid", user.uid),
            ("email", user.email.map { "\($0) (\(user.emailVerified ? "verified" : "not verified"))" } ?? "—"),
            ("display name", user.displayName ?? "—"),
            ("2-step", secondFactorsText(user)),
            ("created", ConsoleView.dateText(user.metadata.creationDate)),
            ("last sign-in", ConsoleView.dateText(user.metadata.lastSignInDate)),
            ("ID token", token.map { "\($0.shortToken) · via \(provider) · expires \(expires)" } ?? "—"),
        ]
        for (index, row) in rows.enumerated() {
            canvas.put(TextWidth.pad(row.0, toCells: 14), row: frame.row + 1 + index, column: column + 1, style: .dim)
            canvas.put(TextWidth.truncate(row.1, toCells: frame.width - 17), row: frame.row + 1 + index, column: column + 16, style: .normal)
        }

        let listTop = frame.row + rows.count + 2
        let listHeight = max(3, frame.height - rows.count - 2)
        let leftWidth = frame.width / 2
        let providers = Box.draw(on: canvas, frame: Rect(row: listTop, column: frame.column, width: leftWidth, height: listHeight),
                                 title: "Linked providers (\(user.providerData.count))", style: focus.pane == .providers ? .accent : .dim)
        if user.providerData.isEmpty {
            canvas.put("none: anonymous, press l to upgrade", row: providers.row, column: providers.column + 1, style: .dim)
        } else {
            ListView(items: user.providerData.map { ListView.Item(providerLine($0, width: providers.width - 2)) },
                     selection: focus.providerSelection)
                .draw(on: canvas, in: providers, focused: focus.pane == .providers)
        }
        let cartBox = Box.draw(on: canvas, frame: Rect(row: listTop, column: frame.column + leftWidth + 1, width: frame.width - leftWidth - 1, height: listHeight),
                               title: "Cart (app data, \(itemCount(context.cart.reduce(0) { $0 + $1.quantity })))", style: focus.pane == .cart ? .accent : .dim)
        if context.cart.isEmpty {
            canvas.put("empty: press a to add an item", row: cartBox.row, column: cartBox.column + 1, style: .dim)
        } else {
            ListView(items: context.cart.map { ListView.Item("\($0.quantity) \(canvas.symbols.times) \($0.name)") }, selection: focus.cartSelection)
                .draw(on: canvas, in: cartBox, focused: focus.pane == .cart)
        }
        let focusedBox = focus.pane == .providers ? providers : cartBox
        let selected = focus.pane == .providers ? focus.providerSelection : focus.cartSelection
        canvas.placeCursor(row: focusedBox.row + min(selected, max(focusedBox.height - 1, 0)), column: focusedBox.column)
    }

    static func secondFactorsText(_ user: User) -> String {
        guard user.email != nil else { return "—" }
        guard !user.enrolledFactors.isEmpty else {
            // The backend refuses a second factor on an unverified email (UNVERIFIED_EMAIL).
            return user.emailVerified ? "off · f to add a second factor" : "off · verify the email (v) to add one"
        }
        let names = user.enrolledFactors.map { "\($0.factorID == "phone" ? "SMS" : "TOTP") \($0.displayName ?? "")" }
        return "on: " + names.joined(separator: ", ") + " · f to manage"
    }

    static func itemCount(_ count: Int) -> String { count == 1 ? "1 item" : "\(count) items" }

    static func providerLine(_ info: UserInfo, width: Int) -> String {
        let detail = info.email ?? info.phoneNumber ?? info.displayName ?? info.uid
        // 13 cells: the longest provider id, microsoft.com, stays whole.
        return TextWidth.pad(info.providerID, toCells: 13) + " " + detail
    }
}

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
        lines += TextWidth.wrap("request  \(entry.request.isEmpty ? "(empty)" : entry.request)", width: inside.width - 2).map { ($0, .normal) }
        lines += TextWidth.wrap("response \(entry.response)", width: inside.width - 2).map { ($0, entry.isFailure || entry.status >= 400 ? .error : .normal) }
        if let authorization, entry.isFederatedStep {
            lines += FederatedInspector.lines(authorization, additionalUserInfo: additionalUserInfo, width: inside.width - 2)
        }
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
