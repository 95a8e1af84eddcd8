import AppData
import AuthClient
import Foundation
import TerminalUI

/// The signed-in account: who it is, how it signs in, its token, and its app data.
enum AccountScreen {
    static func draw(_ context: ConsoleContext, focus: AccountFeature, on canvas: any Canvas, in frame: Rect) {
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
        // An ID token lives an hour: the time of day says when. The expiry and the provider come first, the
        // token (already shortened) last; where they do not fit, "expires" becomes "until", then the token
        // gives way (the inspector, i, shows it with its claims).
        let expires = ConsoleView.timeText(token?.expirationDate)
        let rows: [(String, String)] = [
            ("uid", user.uid),
            ("email", user.email.map { "\($0) (\(user.emailVerified ? "verified" : "not verified"))" } ?? "—"),
            ("display name", user.displayName ?? "—"),
            ("2-step", secondFactorsText(user, width: frame.width - 17)),
            ("created", ConsoleView.dateText(user.metadata.creationDate)),
            ("last sign-in", ConsoleView.dateText(user.metadata.lastSignInDate)),
            ("ID token", token.map { tokenText(expires: expires, provider: provider, shortToken: $0.shortToken, width: frame.width - 17) } ?? "—"),
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

    /// Where two factors' names leave no room for "f to manage", the names stay whole (f is in the key bar).
    static func secondFactorsText(_ user: User, width: Int) -> String {
        guard user.email != nil else { return "—" }
        guard !user.enrolledFactors.isEmpty else {
            // The backend refuses a second factor on an unverified email (UNVERIFIED_EMAIL).
            return user.emailVerified ? "off · f to add a second factor" : "off · verify the email (v) to add one"
        }
        let names = user.enrolledFactors.map { "\($0.factorID == PhoneMultiFactorGenerator.factorID ? "SMS" : "TOTP") \($0.displayName ?? "")" }
        let factors = "on: " + names.joined(separator: ", ")
        return TextWidth.cells(factors + " · f to manage") <= width ? factors + " · f to manage" : factors
    }

    static func tokenText(expires: String, provider: String, shortToken: String, width: Int) -> String {
        let candidates = ["expires \(expires) · via \(provider) · \(shortToken)", "until \(expires) · via \(provider) · \(shortToken)",
                          "expires \(expires) · via \(provider)"]
        return candidates.first { TextWidth.cells($0) <= width } ?? candidates[2]
    }

    static func itemCount(_ count: Int) -> String { count == 1 ? "1 item" : "\(count) items" }

    static func providerLine(_ info: UserInfo, width: Int) -> String {
        let detail = info.email ?? info.phoneNumber ?? info.displayName ?? info.uid
        // 13 cells: the longest provider id, microsoft.com, stays whole.
        return TextWidth.pad(info.providerID, toCells: 13) + " " + detail
    }
}
