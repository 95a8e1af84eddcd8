import AuthAdmin
import Foundation
import TerminalUI

/// What sits over the accounts table.
public indirect enum AccountsPanel: Equatable, Sendable {
    /// The filter chips: flags, a provider, anonymous accounts older than N days.
    case chips(ChipMenu)
    case sort(selection: Int)
    case detail(AccountDetail)
    case claims(ClaimsEditor)
    /// How many days old an anonymous account must be to be cleaned up.
    case cleanUp(days: TextField)
    case confirm(AccountsConfirmation)
    /// Newest first; nil while it is read.
    case auditLog(entries: [AuditEntry]?, selection: Int)
    case hashConfig
    /// The backend's projects and the console's project's tenants to choose from.
    case projects(ProjectsList)
    case lockouts(LockoutList)

    var editsText: Bool {
        switch self {
        case .claims, .cleanUp: true
        case let .confirm(confirmation): confirmation.needsTypedCount
        case .chips, .sort, .detail, .auditLog, .hashConfig, .projects, .lockouts: false
        }
    }

    func bindings(access: OperatorAccess?) -> [KeyBinding<KeyIntent<AccountsFeature.Action>>] {
        let close: KeyBinding<KeyIntent<AccountsFeature.Action>> = .back()
        switch self {
        case .chips:
            return [.moveUp(), .moveDown(), KeyBinding([.enter, .character(" ")], "enter", "toggle", .toggle), close, .help]
        case .sort:
            return [.moveUp(), .moveDown(), KeyBinding([.enter], "enter", "sort (again: reverse)", .choose), close, .help]
        case let .detail(detail):
            var keys: [KeyBinding<KeyIntent<AccountsFeature.Action>>] = [.moveUp(), .moveDown()]
            if access == .full {
                keys += AccountsFeature.detailActionBindings(disabled: detail.record?.user.disabled == true)
                let factors = detail.record?.user.multiFactor.count ?? 0
                if factors > 0 { keys.append(.char("x", "remove second factor", .command(.removeSecondFactor))) }
                if factors > 1 { keys.append(KeyBinding([.tab], "tab", "next factor", .command(.nextFactor), inBar: false)) }
                if detail.record?.lockout?.isLocked == true { keys.insert(.char("u", "clear lock-out", .command(.clearLockout)), at: 0) }
            }
            return keys + [close, KeyBinding([.character("m")], "m", "messages (outbox)", .console(.messages), inBar: false), .help]
        case .claims:
            return [KeyBinding([.enter], "enter", "check and save", .submit), KeyBinding([.escape], "esc", "cancel", .back), .helpInForm]
        case .cleanUp:
            return [KeyBinding([.enter], "enter", "count them", .submit), KeyBinding([.escape], "esc", "cancel", .back), .helpInForm]
        case let .confirm(confirmation):
            if confirmation.needsTypedCount {
                return [KeyBinding([.enter], "enter", "confirm", .submit), KeyBinding([.escape], "esc", "cancel", .cancel), .helpInForm]
            }
            return [KeyBinding([.left, .right, .tab], "←/→", "choose", .toggle), KeyBinding([.enter], "enter", "confirm choice", .choose),
                    .char("y", "yes", .confirm), KeyBinding([.escape, .character("n")], "esc/n", "cancel", .cancel)]
        case .auditLog, .hashConfig:
            return [.moveUp(), .moveDown(), close, .help]
        case let .projects(list):
            return list.bindings()
        case let .lockouts(list):
            return list.bindings(access: access)
        }
    }
}

/// The chips menu's selected row; the chips themselves are the table's filter.
public struct ChipMenu: Equatable, Sendable {
    public enum Chip: CaseIterable, Sendable {
        case anonymous, disabled, emailUnverified, hasSecondFactor, provider, anonymousOlderThan, locked
    }
    public var selection = 0
    public init(selection: Int = 0) { self.selection = selection }

    /// The providers the provider chip cycles through.
    static let providers = ["password", "phone", "google.com", "apple.com", "microsoft.com", "facebook.com"]

    static func label(_ chip: Chip, in filter: AccountFilter) -> String {
        func box(_ on: Bool) -> String { on ? "[x]" : "[ ]" }
        return switch chip {
        case .anonymous: "\(box(filter.anonymous)) anonymous"
        case .disabled: "\(box(filter.disabled)) disabled"
        case .emailUnverified: "\(box(filter.emailUnverified)) email unverified"
        case .hasSecondFactor: "\(box(filter.hasSecondFactor)) has 2-step"
        case .provider: "\(box(filter.providerId != nil)) provider: \(filter.providerId ?? "any (enter: next)")"
        case .anonymousOlderThan:
            "\(box(filter.anonymousOlderThanDays != nil)) anonymous and older than \(filter.anonymousOlderThanDays.map(String.init) ?? "N") days (type N)"
        case .locked: "\(box(filter.locked)) locked out by wrong passwords"
        }
    }

    static func toggle(_ chip: Chip, in filter: inout AccountFilter) {
        switch chip {
        case .anonymous: filter.anonymous.toggle()
        case .disabled: filter.disabled.toggle()
        case .emailUnverified: filter.emailUnverified.toggle()
        case .hasSecondFactor: filter.hasSecondFactor.toggle()
        case .provider:
            let next = filter.providerId.flatMap(providers.firstIndex(of:)).map { $0 + 1 } ?? 0
            filter.providerId = next < providers.count ? providers[next] : nil
        case .anonymousOlderThan: filter.anonymousOlderThanDays = filter.anonymousOlderThanDays == nil ? 30 : nil
        case .locked: filter.locked.toggle()
        }
    }
}

/// One account in full, as the admin API returns it, and its app data.
public struct AccountDetail: Equatable, Sendable {
    public var uid: String
    /// The account's project, named when the table shows every project.
    public var project: String?
    /// Nil while it is read.
    public var record: AccountDetailRecord?
    /// The second factor `x` removes.
    public var factorSelection = 0
    /// The first line shown, when the detail is longer than the screen.
    public var scroll = 0

    public init(uid: String, record: AccountDetailRecord? = nil, project: String? = nil) {
        self.uid = uid
        self.record = record
        self.project = project
    }
}

/// Custom claims being edited: JSON checked (object, reserved names, 1000 bytes) before anything is sent.
public struct ClaimsEditor: Equatable, Sendable {
    public var uid: String
    public var accountName: String
    public var field: TextField
    /// Why the last attempt was refused.
    public var refusal: String?
    /// Where esc and the save lead back to.
    public var returnTo: AccountsPanel?

    public init(user: UserRecord, returnTo: AccountsPanel?) {
        uid = user.uid
        accountName = user.email ?? user.phoneNumber ?? user.uid
        field = TextField(text: user.customClaims ?? "{}", maxLength: 4000)
        self.returnTo = returnTo
    }
}

/// An action waiting for the operator's yes; the count is typed for more than 20 accounts.
public struct AccountsConfirmation: Equatable, Sendable {
    public var action: AccountAction
    public var uids: [String]
    /// What the accounts are, in words: "the account ada@example.com", "3 marked accounts".
    public var what: String
    public var typedCount = TextField(maxLength: 12)
    public var confirmSelected = false
    public var returnTo: AccountsPanel?

    public init(action: AccountAction, uids: [String], what: String, returnTo: AccountsPanel?) {
        self.action = action
        self.uids = uids
        self.what = what
        self.returnTo = returnTo
    }

    var needsTypedCount: Bool { uids.count > AccountsFeature.typedConfirmationThreshold }
}

extension AccountsFeature {
    mutating func performInPanel(_ action: AccountsFeature.Action, access: OperatorAccess?) -> [FlowStep] {
        guard let current = panel else { return [] }
        switch current {
        case var .chips(menu):
            let chips = ChipMenu.Chip.allCases
            switch action {
            case .up: menu.selection = max(menu.selection - 1, 0)
            case .down: menu.selection = min(menu.selection + 1, chips.count - 1)
            case .toggle:
                ChipMenu.toggle(chips[menu.selection], in: &filter)
                panel = .chips(menu)
                return reload()
            case .back:
                panel = nil
                return []
            case .choose, .submit, .confirm, .cancel, .command: return []
            }
            panel = .chips(menu)
            return []
        case let .sort(selection):
            let fields = AccountSort.Field.allCases
            switch action {
            case .up: panel = .sort(selection: max(selection - 1, 0))
            case .down: panel = .sort(selection: min(selection + 1, fields.count - 1))
            case .choose:
                let field = fields[selection]
                // Dates newest first; text in alphabetical order; the same field again reverses.
                sort = field == sort.field ? AccountSort(field: field, descending: !sort.descending)
                    : AccountSort(field: field, descending: field == .createdAt || field == .lastSignIn)
                panel = nil
                return reload()
            case .back: panel = nil
            case .submit, .confirm, .cancel, .toggle, .command: break
            }
            return []
        case var .detail(detail):
            return performInDetail(action, detail: &detail, access: access)
        case var .claims(editor):
            switch action {
            case .back:
                panel = editor.returnTo
                return [.banner(nil)]
            case .submit:
                do {
                    let claims = try CustomClaims.validated(editor.field.text)
                    return ask(.setCustomClaims(claims), on: [editor.uid], describing: "the account \(editor.accountName)", returnTo: editor.returnTo)
                } catch {
                    editor.refusal = String(describing: error)
                    panel = .claims(editor)
                    return [.banner(Banner(.error, "\(String(describing: error)). Nothing was sent."))]
                }
            case .up, .down, .choose, .confirm, .cancel, .toggle, .command: return []
            }
        case let .cleanUp(days):
            switch action {
            case .back:
                panel = nil
                return [.banner(nil)]
            case .submit:
                guard let count = Int(days.text), count >= 1 else {
                    return [.banner(Banner(.error, "Type a number of days, 1 or more."))]
                }
                return [.banner(nil), .run(.accounts(.findMatching(AccountFilter(anonymousOlderThanDays: count), purpose: .cleanUp(days: count))),
                                           busy: "Counting anonymous accounts older than \(count) days…")]
            case .up, .down, .choose, .confirm, .cancel, .toggle, .command: return []
            }
        case var .confirm(confirmation):
            switch action {
            case .toggle:
                confirmation.confirmSelected.toggle()
                panel = .confirm(confirmation)
                return []
            case .cancel:
                panel = confirmation.returnTo
                return [.banner(Banner(.info, "Nothing was done."))]
            case .choose where !confirmation.confirmSelected:
                panel = confirmation.returnTo
                return [.banner(Banner(.info, "Nothing was done."))]
            case .submit where confirmation.needsTypedCount:
                guard confirmation.typedCount.text == String(confirmation.uids.count) else {
                    return [.banner(Banner(.error, "Type \(confirmation.uids.count) to confirm, or esc to cancel."))]
                }
                panel = confirmation.returnTo
                return run(confirmation.action, on: confirmation.uids)
            case .choose, .confirm:
                guard !confirmation.needsTypedCount else { return [] }
                panel = confirmation.returnTo
                return run(confirmation.action, on: confirmation.uids)
            case .up, .down, .back, .submit, .command: return []
            }
        case let .auditLog(entries, selection):
            switch action {
            case .up: panel = .auditLog(entries: entries, selection: max(selection - 1, 0))
            case .down: panel = .auditLog(entries: entries, selection: min(selection + 1, max((entries?.count ?? 0) - 1, 0)))
            case .back: panel = nil
            case .choose, .submit, .confirm, .cancel, .toggle, .command: break
            }
            return []
        case .hashConfig:
            if action == .back { panel = nil }
            return []
        case let .projects(list):
            return performInProjects(action, list: list)
        case let .lockouts(list):
            return performInLockouts(action, list: list, access: access)
        }
    }

    private mutating func performInDetail(_ action: AccountsFeature.Action, detail: inout AccountDetail, access: OperatorAccess?) -> [FlowStep] {
        let factors = detail.record?.user.multiFactor ?? []
        switch action {
        case .up: detail.scroll = max(detail.scroll - 1, 0)
        case .down: detail.scroll += 1
        case .back:
            panel = nil
            return [.banner(nil)]
        case .command(.nextFactor):
            detail.factorSelection = factors.isEmpty ? 0 : (detail.factorSelection + 1) % factors.count
        case .command(.removeSecondFactor):
            guard access == .full, factors.indices.contains(detail.factorSelection) else { return [] }
            let factor = factors[detail.factorSelection]
            return ask(.removeSecondFactor(factor.uid), on: [detail.uid],
                       describing: "the account \(detail.record.map { $0.user.email ?? $0.user.uid } ?? detail.uid) (\(factor.displayName ?? factor.factorId.rawValue))",
                       returnTo: .detail(detail))
        case .command(.editClaims):
            guard access == .full, let user = detail.record?.user else { return [] }
            panel = .claims(ClaimsEditor(user: user, returnTo: .detail(detail)))
            return [.banner(nil)]
        case let .command(command):
            guard access == .full, let accountAction = Self.action(for: command) else { return [] }
            return ask(accountAction, on: [detail.uid], describing: detail.record.map { Self.name($0.user) } ?? "the account \(detail.uid)",
                       returnTo: .detail(detail))
        case .choose, .submit, .confirm, .cancel, .toggle:
            return []
        }
        panel = .detail(detail)
        return []
    }

    mutating func typedInPanel(_ key: Key) -> [FlowStep] {
        switch panel {
        case var .claims(editor):
            let before = editor.field.text
            _ = editor.field.handle(key)
            // The refusal was of the text as it was: an edit takes it away (the view checks the new text as typed).
            if editor.field.text != before { editor.refusal = nil }
            panel = .claims(editor)
        case var .cleanUp(days):
            if case let .character(c) = key, !c.isNumber { return [] }
            _ = days.handle(key)
            panel = .cleanUp(days: days)
        case var .confirm(confirmation) where confirmation.needsTypedCount:
            _ = confirmation.typedCount.handle(key)
            panel = .confirm(confirmation)
        case let .chips(menu) where ChipMenu.Chip.allCases[menu.selection] == .anonymousOlderThan:
            // The chip's N: digits typed on its row.
            var digits = filter.anonymousOlderThanDays.map(String.init) ?? ""
            switch key {
            case let .character(c) where c.isASCII && c.isNumber && digits.count < 5: digits.append(c)
            case .backspace: digits = String(digits.dropLast())
            default: return []
            }
            filter.anonymousOlderThanDays = Int(digits)
            return reload()
        case .chips, .sort, .detail, .confirm, .auditLog, .hashConfig, .projects, .lockouts, nil:
            break
        }
        return []
    }
}
