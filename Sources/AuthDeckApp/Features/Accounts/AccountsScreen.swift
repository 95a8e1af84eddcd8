import AuthAdmin
import Foundation
import TerminalUI

/// The accounts view: a header (count, filter, sort, marks), the table with flags as letters,
/// a legend, and the panel over it.
enum AccountsScreen {
    /// `consoleTenant`: the tenant of a console given one, whose accounts the view shows until another is chosen.
    static func draw(_ feature: AccountsFeature, access: OperatorAccess?, consoleTenant: String? = nil, on canvas: any Canvas, in frame: Rect) {
        drawTable(feature, access: access, consoleTenant: consoleTenant, on: canvas, in: frame)
        if let panel = feature.panel { drawPanel(panel, of: feature, access: access, on: canvas, in: frame) }
    }

    /// A confirmation draws over the panel it came from (the detail, the claims editor).
    static func drawPanel(_ panel: AccountsPanel, of feature: AccountsFeature, access: OperatorAccess?, on canvas: any Canvas, in frame: Rect) {
        switch panel {
        case .chips, .sort, .cleanUp, .hashConfig:
            drawSmallPanel(panel, of: feature, on: canvas, in: frame)
        case let .confirm(confirmation):
            if let under = confirmation.returnTo { drawPanel(under, of: feature, access: access, on: canvas, in: frame) }
            drawConfirmation(confirmation, on: canvas, in: frame)
        case let .detail(detail):
            blank(frame, on: canvas)
            AccountDetailScreen.draw(detail, access: access, on: canvas, in: frame)
        case let .claims(editor):
            blank(frame, on: canvas)
            drawClaimsEditor(editor, on: canvas, in: frame)
        case let .auditLog(entries, selection):
            blank(frame, on: canvas)
            drawAuditLog(entries, selection: selection, on: canvas, in: frame)
        case let .projects(list):
            blank(frame, on: canvas)
            drawProjects(list, on: canvas, in: frame)
        case let .lockouts(list):
            blank(frame, on: canvas)
            drawLockouts(list, of: feature, on: canvas, in: frame)
        }
    }

    // MARK: The table

    /// The sort gives way where the whole does not fit `width`: a tenant's id is as long as an address.
    static func header(_ feature: AccountsFeature, access: OperatorAccess?, consoleTenant: String? = nil, width: Int = .max) -> String {
        var parts = [feature.knownCount.map { "\(AccountsFeature.count($0))\(feature.filter.isEmpty ? " in all" : $0 == 1 ? " matches" : " match")" }
            ?? "counting…"]
        if feature.page == nil { parts[0] = feature.loadError == nil ? "reading…" : "unreadable" }
        let filter = filterText(feature.filter)
        parts.append(filter.isEmpty ? "no filter" : "filter: \(filter)")
        if feature.allProjects {
            parts.append("all projects")
        } else if let tenant = feature.tenant {
            parts.append("tenant \(tenant.id)")
        } else if let project = feature.project {
            parts.append("project \(project)")
        } else if let consoleTenant {
            parts.append("tenant \(consoleTenant)")
        }
        let sort = "sort: \(feature.sort.field.rawValue) \(feature.sort.descending ? "↓" : "↑")"
        var after: [String] = []
        if !feature.marked.isEmpty { after.append("\(feature.marked.count) marked") }
        if !feature.lockouts.isEmpty { after.append("\(feature.lockouts.count) locked out (K)") }
        if access == .readOnly { after.append("READ-ONLY") }
        let whole = (parts + [sort] + after).joined(separator: " · ")
        return TextWidth.cells(whole) <= width ? whole : (parts + after).joined(separator: " · ")
    }

    static func filterText(_ filter: AccountFilter) -> String {
        var chips: [String] = []
        let text = filter.text.trimmingCharacters(in: .whitespacesAndNewlines)
        if !text.isEmpty { chips.append("\"\(text)\"") }
        if filter.anonymous { chips.append("anonymous") }
        if filter.disabled { chips.append("disabled") }
        if filter.emailUnverified { chips.append("unverified") }
        if filter.hasSecondFactor { chips.append("2-step") }
        if let provider = filter.providerId { chips.append(provider) }
        if let days = filter.anonymousOlderThanDays { chips.append("anonymous > \(days) days") }
        if filter.locked { chips.append("locked") }
        return chips.joined(separator: " + ")
    }

    /// Column widths for a table `width` cells wide: mark, uid, the project (when every project is
    /// shown), email or phone, providers, created, last sign-in, flags. At 78 cells (an 80-column
    /// terminal) the dates leave out the year to keep their time, and the project and uid are cut (the
    /// detail names both in full); a wider table shows the year and gives the rest to the email.
    struct Columns: Equatable {
        var mark = 2, uid = 14, project = 0, contact = 22, providers = 8, date = 11, flags = 5

        init(width: Int, projects: Bool = false) {
            if width >= 100 { date = 16 }
            if projects { (uid, project) = width >= 100 ? (14, 20) : (9, 10) }
            let fixed = mark + (uid + 1) + (project > 0 ? project + 1 : 0) + (providers + 1) + 2 * (date + 1) + flags
            // The email's cell and its separator, and the table's last column left blank.
            contact = max(16, min(40, width - fixed - 2))
        }
    }

    static func headings(_ c: Columns) -> String {
        TextWidth.pad("", toCells: c.mark) + TextWidth.pad("uid", toCells: c.uid + 1) + (c.project > 0 ? TextWidth.pad("project", toCells: c.project + 1) : "")
            + TextWidth.pad("email / phone", toCells: c.contact + 1)
            + TextWidth.pad("sign-in", toCells: c.providers + 1) + TextWidth.pad("created", toCells: c.date + 1)
            + TextWidth.pad("last in", toCells: c.date + 1) + "flags"
    }

    /// `>` on the selected row and `*` on marked ones, so neither depends on reverse video.
    static func row(_ user: UserRecord, project: String? = nil, marked: Bool, selected: Bool = false, locked: Bool = false, columns c: Columns) -> String {
        func cell(_ text: String, _ width: Int) -> String { TextWidth.pad(TextWidth.truncate(text, toCells: width), toCells: width + 1) }
        let contact = user.email ?? user.phoneNumber ?? (user.isAnonymous ? "(anonymous)" : "—")
        return (selected ? ">" : " ") + (marked ? "*" : " ") + cell(user.uid, c.uid) + (c.project > 0 ? cell(project ?? "—", c.project) : "") + cell(contact, c.contact) + cell(providers(user), c.providers)
            + cell(date(user.metadata.creationTime, cells: c.date), c.date) + cell(date(user.metadata.lastSignInTime, cells: c.date), c.date) + flags(user, locked: locked)
    }

    /// Short sign-in provider names: `pw` password, `ph` phone, `G` Google, `A` Apple, `M` Microsoft, `F` Facebook.
    static func providers(_ user: UserRecord) -> String {
        user.providerData.map { provider -> String in
            switch provider.providerId {
            case "password": "pw"
            case "phone": "ph"
            case "google.com": "G"
            case "apple.com": "A"
            case "microsoft.com": "M"
            case "facebook.com": "F"
            default: String(provider.providerId.prefix(2))
            }
        }.joined(separator: " ")
    }

    /// One letter per flag, in fixed places, `·` when it does not apply: never colour alone.
    static func flags(_ user: UserRecord, locked: Bool = false) -> String {
        (user.isAnonymous ? "A" : "·") + (user.disabled ? "D" : "·") + (user.email != nil && !user.emailVerified ? "U" : "·")
            + (user.multiFactor.isEmpty ? "·" : "2") + (locked ? "L" : "·")
    }

    /// `2026-09-21 14:13` in 16 cells, `09-21 14:13` in fewer: the time of a sign-in made today matters more than its year.
    static func date(_ date: Date?, cells: Int) -> String {
        guard let date else { return "—" }
        let text = ConsoleView.dateText(date).prefix(16)
        return String(cells >= 16 ? text : text.dropFirst(5))
    }

    static func drawTable(_ feature: AccountsFeature, access: OperatorAccess?, consoleTenant: String? = nil, on canvas: any Canvas, in frame: Rect) {
        let column = frame.column
        let width = frame.width
        canvas.put(TextWidth.truncate(header(feature, access: access, consoleTenant: consoleTenant, width: width), toCells: width), row: frame.row, column: column, style: .title)
        let filterRow = frame.row + 1
        if feature.typingFilter {
            canvas.put("/", row: filterRow, column: column, style: .keyHint)
            feature.filterField.draw(on: canvas, row: filterRow, column: column + 2, width: min(width - 2, 40), focused: true)
            canvas.put("email, phone or uid prefix", row: filterRow, column: column + 44, style: .dim)
        }
        let columns = Columns(width: width, projects: feature.allProjects)
        canvas.put(TextWidth.truncate(headings(columns), toCells: width), row: frame.row + 2, column: column, style: .dim)
        let rows = max(1, frame.height - 4)
        let top = (feature.selection / rows) * rows
        if feature.totalCount == 0, feature.page != nil {
            canvas.put(feature.filter.isEmpty ? "No accounts yet." : "No account matches the filter (esc clears it).",
                       row: frame.row + 3, column: column + 2, style: .dim)
        }
        for line in 0..<rows {
            let index = top + line
            guard index < feature.totalCount else { break }
            let rowNumber = frame.row + 3 + line
            guard let user = feature.user(at: index) else {
                canvas.put("  …", row: rowNumber, column: column, style: .dim)
                continue
            }
            let text = TextWidth.pad(TextWidth.truncate(row(user, project: feature.project(at: index), marked: feature.marked.contains(user.uid), selected: index == feature.selection,
                                                            locked: feature.isLocked(user, at: index), columns: columns), toCells: width), toCells: width)
            canvas.put(text, row: rowNumber, column: column, style: index == feature.selection ? .selected : .normal)
        }
        canvas.put(TextWidth.truncate("A anonymous · D disabled · U unverified · 2 two-step · L locked · * marked", toCells: width),
                   row: frame.row + frame.height - 1, column: column, style: .dim)
        if feature.typingFilter {
            feature.filterField.draw(on: canvas, row: filterRow, column: column + 2, width: min(width - 2, 40), focused: true)
        } else if feature.selection >= top, feature.selection < top + rows, feature.totalCount > 0 {
            canvas.placeCursor(row: frame.row + 3 + feature.selection - top, column: column)
        }
    }

    // MARK: Panels

    static func drawSmallPanel(_ panel: AccountsPanel, of feature: AccountsFeature, on canvas: any Canvas, in frame: Rect) {
        switch panel {
        case let .chips(menu):
            let items = ChipMenu.Chip.allCases.map { ListView.Item(ChipMenu.label($0, in: feature.filter)) }
            let box = Rect(row: frame.row + 2, column: frame.column + 2, width: min(frame.width - 4, 69), height: items.count + 2)
            blank(box, on: canvas)
            let inside = Box.draw(on: canvas, frame: box, title: "Filter chips (every checked one must hold)", style: .accent)
            ListView(items: items, selection: menu.selection).draw(on: canvas, in: inside, focused: true)
            canvas.placeCursor(row: inside.row + menu.selection, column: inside.column)
        case let .sort(selection):
            let items = AccountSort.Field.allCases.map { field in
                ListView.Item(field == feature.sort.field ? "\(field.rawValue) \(feature.sort.descending ? "↓" : "↑")" : field.rawValue)
            }
            let box = Rect(row: frame.row + 2, column: frame.column + 2, width: 36, height: items.count + 2)
            blank(box, on: canvas)
            let inside = Box.draw(on: canvas, frame: box, title: "Sort by", style: .accent)
            ListView(items: items, selection: selection).draw(on: canvas, in: inside, focused: true)
            canvas.placeCursor(row: inside.row + selection, column: inside.column)
        case let .cleanUp(days):
            let box = Rect(row: frame.row + 3, column: frame.column + 4, width: min(frame.width - 8, 66), height: 6)
            blank(box, on: canvas)
            let inside = Box.draw(on: canvas, frame: box, title: "Clean up anonymous accounts", style: .accent)
            canvas.put("Delete anonymous accounts created more than", row: inside.row, column: inside.column + 1, style: .normal)
            canvas.put("this many days ago:", row: inside.row + 1, column: inside.column + 1, style: .normal)
            canvas.put("The count is shown before anything is deleted.", row: inside.row + 3, column: inside.column + 1, style: .dim)
            days.draw(on: canvas, row: inside.row + 1, column: inside.column + 21, width: 8, focused: true)
        case .hashConfig:
            let title = "Password-hash parameters (for auth:import elsewhere)"
            guard let hash = feature.hashConfig else {
                let box = Rect(row: frame.row + 2, column: frame.column, width: frame.width, height: 9)
                blank(box, on: canvas)
                let inside = Box.draw(on: canvas, frame: box, title: title, style: .accent)
                canvas.put("reading…", row: inside.row, column: inside.column + 1, style: .dim)
                return
            }
            // Each value whole, on as many rows as it takes: the signer key is copied from here.
            let valueWidth = max(1, frame.width - 21)
            let rows = [("algorithm", hash.algorithm), ("signer key", hash.signerKey), ("salt separator", hash.saltSeparator),
                        ("rounds", String(hash.rounds)), ("memory cost", String(hash.memoryCost))]
                .flatMap { label, value in hashRows(value, width: valueWidth).enumerated().map { ($0.offset == 0 ? label : "", $0.element) } }
            let box = Rect(row: frame.row + 2, column: frame.column, width: frame.width, height: rows.count + 4)
            blank(box, on: canvas)
            let inside = Box.draw(on: canvas, frame: box, title: title, style: .accent)
            for (index, (label, value)) in rows.enumerated() {
                canvas.put(TextWidth.pad(label, toCells: 16), row: inside.row + index, column: inside.column + 1, style: .dim)
                canvas.put(value, row: inside.row + index, column: inside.column + 18, style: .normal)
            }
            canvas.put("base64; the same as `authdeck accounts hash-config`", row: inside.row + rows.count + 1, column: inside.column + 1, style: .dim)
        case .confirm, .detail, .claims, .auditLog, .projects, .lockouts:
            break
        }
    }

    /// A hash parameter cut into rows of `width` characters (base64 and numbers: a character a cell).
    static func hashRows(_ value: String, width: Int) -> [String] {
        let characters = Array(value)
        guard !characters.isEmpty else { return [""] }
        return stride(from: 0, to: characters.count, by: width).map { String(characters[$0..<min($0 + width, characters.count)]) }
    }

    static func confirmationMessage(_ confirmation: AccountsConfirmation) -> String {
        let verb: String = switch confirmation.action {
        case .delete: "Delete \(confirmation.what) and their app data? This cannot be undone."
        case .disable: "Disable \(confirmation.what)? Their sign-ins and token refreshes are refused until enabled again."
        case .enable: "Enable \(confirmation.what)?"
        case .revokeRefreshTokens: "Sign out \(confirmation.what) everywhere? Every refresh token and earlier ID token stops working."
        case .markEmailVerified: "Mark the email of \(confirmation.what) verified?"
        case .sendPasswordReset: "Send a password-reset email to \(confirmation.what)?"
        case .sendEmailVerification: "Send a verification email to \(confirmation.what)?"
        case let .setCustomClaims(claims): "Set the custom claims of \(confirmation.what) to \(claims)? They appear in its next ID token."
        case .removeSecondFactor: "Remove this second factor of \(confirmation.what)? It will no longer be asked for at sign-in."
        case .clearLockout: "Clear the password lock-out of \(confirmation.what)? Its password sign-in works again at once."
        }
        return verb
    }

    static func drawConfirmation(_ confirmation: AccountsConfirmation, on canvas: any Canvas, in frame: Rect) {
        let title = "\(confirmation.action.name.prefix(1).uppercased() + confirmation.action.name.dropFirst()): \(AccountsFeature.count(confirmation.uids.count))"
        guard confirmation.needsTypedCount else {
            Dialog(title: title, message: confirmationMessage(confirmation), buttons: ["Cancel", "Yes"],
                   selection: confirmation.confirmSelected ? 1 : 0).draw(on: canvas)
            return
        }
        let width = min(frame.width - 4, 64)
        let lines = TextWidth.wrap(confirmationMessage(confirmation), width: width - 4)
        let box = Rect(row: frame.row + 3, column: frame.column + (frame.width - width) / 2, width: width, height: lines.count + 5)
        blank(box, on: canvas)
        let inside = Box.draw(on: canvas, frame: box, title: title, style: .accent)
        for (index, line) in lines.enumerated() { canvas.put(line, row: inside.row + index, column: inside.column + 1, style: .normal) }
        let prompt = "Type \(confirmation.uids.count) to confirm:"
        canvas.put(prompt, row: inside.row + lines.count + 1, column: inside.column + 1, style: .warning)
        confirmation.typedCount.draw(on: canvas, row: inside.row + lines.count + 1, column: inside.column + 2 + TextWidth.cells(prompt),
                                     width: 14, focused: true)
    }

    static func drawClaimsEditor(_ editor: ClaimsEditor, on canvas: any Canvas, in frame: Rect) {
        let column = frame.column + 1
        canvas.put(TextWidth.truncate("Custom claims of \(editor.accountName)", toCells: frame.width - 2), row: frame.row, column: column, style: .title)
        canvas.put("A JSON object, at most \(CustomClaims.maximumBytes) bytes; {} clears them. Reserved names", row: frame.row + 1, column: column, style: .dim)
        canvas.put("(sub, aud, iss, exp, firebase, …) are refused. Checked before it is sent.", row: frame.row + 2, column: column, style: .dim)
        canvas.put("JSON:", row: frame.row + 4, column: column, style: .normal)
        var row = frame.row + 8
        switch Result(catching: { try CustomClaims.validated(editor.field.text) }) {
        case let .success(valid):
            canvas.put("As it will be stored:", row: row - 1, column: column, style: .dim)
            for line in CustomClaims.pretty(valid).split(separator: "\n", omittingEmptySubsequences: false).prefix(frame.height - 9) {
                canvas.put(TextWidth.truncate(String(line), toCells: frame.width - 2), row: row, column: column + 2, style: .normal)
                row += 1
            }
        case let .failure(problem):
            // The last enter's refusal in red (its text says "refused"); while typing, what is wrong so far, dimmed.
            let text: String = if let refusal = editor.refusal {
                refusal
            } else if case let AuthAdminError.invalidClaims(reason) = problem {
                "not valid yet: \(reason)"
            } else {
                "not valid yet: \(problem)"
            }
            // Two rows, the one below free until the text is valid: the reason says where the JSON is wrong.
            let lines = TextWidth.wrap(text, width: frame.width - 2)
            for (index, line) in lines.prefix(2).enumerated() {
                let shown = index == 1 && lines.count > 2 ? TextWidth.truncate(line + "…", toCells: frame.width - 2) : line
                canvas.put(shown, row: frame.row + 6 + index, column: column, style: editor.refusal == nil ? .dim : .error)
            }
        }
        editor.field.draw(on: canvas, row: frame.row + 4, column: column + 6, width: frame.width - 8, focused: true)
    }

    static func drawAuditLog(_ entries: [AuditEntry]?, selection: Int, on canvas: any Canvas, in frame: Rect) {
        let column = frame.column + 1
        canvas.put("Audit log: every operator action, newest first", row: frame.row, column: column, style: .title)
        guard let entries else {
            canvas.put("reading…", row: frame.row + 2, column: column, style: .dim)
            return
        }
        if entries.isEmpty { canvas.put("No action yet.", row: frame.row + 2, column: column, style: .dim) }
        let rows = frame.height - 6
        let top = (selection / max(rows, 1)) * max(rows, 1)
        let items = entries.dropFirst(top).prefix(rows).map { entry in
            let failed = entry.failed > 0 ? ", \(entry.failed) failed" : ""
            let what = entry.emails.map { $0.count == 1 ? "1 address" : "\($0.count) addresses" } ?? AccountsFeature.count(entry.uids.count)
            // What was done first, who did it last: an operator's name and key fingerprint would push the action off 80 columns.
            let who = entry.operator.components(separatedBy: " (SHA256:").first ?? entry.operator
            return ListView.Item(TextWidth.truncate("\(String(ConsoleView.dateText(entry.date).prefix(16)))  \(entry.action)  \(what)\(failed)  "
                                                    + "\(entry.tenant.map { "in tenant \($0)  " } ?? entry.project.map { "in \($0)  " } ?? "")by \(who)", toCells: frame.width - 2))
        }
        ListView(items: Array(items), selection: selection - top).draw(on: canvas, in: Rect(row: frame.row + 2, column: column, width: frame.width - 2, height: rows), focused: true)
        if entries.indices.contains(selection) {
            let entry = entries[selection]
            let names = "by \(entry.operator) · " + (entry.tenant.map { "tenant \($0) · " } ?? "") + (entry.emails.map { "addresses: " + $0.joined(separator: " ") } ?? "uids: " + entry.uids.joined(separator: " "))
            for (index, line) in TextWidth.wrap(names, width: frame.width - 2).prefix(3).enumerated() {
                canvas.put(line, row: frame.row + frame.height - 3 + index, column: column, style: .dim)
            }
        }
    }
}

extension AccountsScreen {
    /// Spaces over `rect`, so a panel hides what is drawn under it.
    static func blank(_ rect: Rect, on canvas: any Canvas) {
        let spaces = String(repeating: " ", count: max(rect.width, 0))
        for row in rect.row..<(rect.row + rect.height) { canvas.put(spaces, row: row, column: rect.column, style: .normal) }
    }
}
