import AuthAdmin
import Foundation
import TerminalUI

/// One account in full: every field of the admin API's record (whether a password is set, never
/// its hash), provider links with their raw ids, second factors with masked numbers, custom
/// claims as indented JSON, and the app data (cart) kept for the uid.
enum AccountDetailScreen {
    static func lines(_ detail: AccountDetail) -> [(String, Style)] {
        guard let record = detail.record else { return [("reading…", .dim)] }
        let user = record.user
        func field(_ label: String, _ value: String?) -> (String, Style) {
            (TextWidth.pad(label, toCells: 20) + (value ?? "—"), .normal)
        }
        var lines: [(String, Style)] = [
            field("uid", user.uid),
            field("email", user.email.map { "\($0) (\(user.emailVerified ? "verified" : "unverified"))" }),
            field("phone", user.phoneNumber),
            field("display name", user.displayName),
            field("photo URL", user.photoURL),
            field("status", (user.disabled ? "DISABLED" : "enabled") + (user.isAnonymous ? " · anonymous" : "")),
            field("created", user.metadata.creationTime.map(ConsoleView.dateText)),
            field("last sign-in", user.metadata.lastSignInTime.map(ConsoleView.dateText)),
            field("last refresh", user.metadata.lastRefreshTime.map(ConsoleView.dateText)),
            field("tokens valid since", user.tokensValidAfterTime.map(ConsoleView.dateText)),
            field("password hash", user.hasPassword ? "present (never shown)" : "none"),
            ("Sign-in providers (\(user.providerData.count))", .title),
        ]
        // Right under the status, and only when wrong passwords were counted: most accounts have none.
        if let lockout = lockoutText(record.lockout) {
            lines.insert(field("password lock-out", lockout), at: 6)
        }
        if let project = detail.project { lines.insert(field("project", project), at: 1) }
        for provider in user.providerData {
            let extra = [provider.email, provider.displayName, provider.federatedId.map { "federated \($0)" }].compactMap { $0 }.joined(separator: " · ")
            lines.append(("  \(TextWidth.pad(provider.providerId, toCells: 14)) raw id \(provider.uid ?? "—")\(extra.isEmpty ? "" : " · \(extra)")", .normal))
        }
        lines.append(("Second factors (\(user.multiFactor.count))", .title))
        for (index, factor) in user.multiFactor.enumerated() {
            let marker = index == detail.factorSelection && user.multiFactor.count > 1 ? "> " : "  "
            let what = factor.factorId == .phone ? "SMS  \(factor.maskedPhoneNumber ?? "—")" : "TOTP authenticator app"
            let enrolled = factor.enrollmentTime.map { " · enrolled \(String(ConsoleView.dateText($0).prefix(10)))" } ?? ""
            lines.append(("\(marker)\(factor.displayName ?? "—") · \(what)\(enrolled) · id \(factor.uid)", .normal))
        }
        lines.append(("Custom claims", .title))
        for line in CustomClaims.pretty(user.customClaims).split(separator: "\n", omittingEmptySubsequences: false) {
            lines.append(("  " + line, .normal))
        }
        lines.append(("App data (cart)", .title))
        if record.cart.isEmpty { lines.append(("  empty", .dim)) }
        for item in record.cart { lines.append(("  \(item.quantity) × \(item.name)", .normal)) }
        return lines
    }

    /// `LOCKED until 14:28:05 UTC (5 wrong passwords)` (the key bar offers `u` to clear it); nil with no
    /// wrong password counted.
    static func lockoutText(_ lockout: PasswordLockout?) -> String? {
        guard let lockout else { return nil }
        if let until = lockout.lockedUntil {
            return "LOCKED until \(ConsoleView.timeText(until)) (\(lockout.failures) wrong passwords)"
        }
        return lockout.failures == 0 ? nil : "\(lockout.failures) wrong password\(lockout.failures == 1 ? "" : "s") lately, not locked"
    }

    static func draw(_ detail: AccountDetail, access: OperatorAccess?, on canvas: any Canvas, in frame: Rect) {
        let column = frame.column + 1
        canvas.put(TextWidth.truncate("Account \(detail.uid)", toCells: frame.width - 2), row: frame.row, column: column, style: .title)
        // Wrapped, not cut: a second factor's id or a provider's raw id is what the operator came for.
        let all = lines(detail).flatMap { line in wrapped(line.0, width: frame.width - 2).map { ($0, line.1) } }
        var rows = frame.height - 2
        // The last row says there is more, on a row of its own rather than over a line's end.
        if all.count > rows { rows -= 1 }
        let top = min(detail.scroll, max(all.count - rows, 0))
        for (index, (text, style)) in all.dropFirst(top).prefix(rows).enumerated() {
            canvas.put(TextWidth.truncate(text, toCells: frame.width - 2), row: frame.row + 2 + index, column: column, style: style)
        }
        if all.count > rows + top {
            canvas.put("↓ more", row: frame.row + frame.height - 1, column: frame.column + frame.width - 7, style: .dim)
        }
    }

    /// `text` in rows of `width` cells: the first as it is up to its last space that fits (its column padding
    /// kept), the rest wrapped under it, indented four cells past the line's own indentation.
    static func wrapped(_ text: String, width: Int) -> [String] {
        guard TextWidth.cells(text) > width else { return [text] }
        // A selection marker counts as indentation: the rows of two factors line up whichever is selected.
        let indent = String(repeating: " ", count: text.prefix { $0 == " " || $0 == ">" }.count + 4)
        guard width - indent.count > 8 else { return [text] }
        let head = String(text.prefix(TextWidth.truncate(text, toCells: width, ellipsis: false).count))
        var first = head, rest = String(text.dropFirst(head.count))
        if let space = head.lastIndex(of: " "), head[..<space].count > indent.count {
            first = String(head[..<space])
            rest = String(text[text.index(after: space)...])
        }
        let trimmed = rest.drop { $0 == " " }
        return [first] + TextWidth.wrap(String(trimmed), width: width - indent.count).map { indent + $0 }
    }
}
