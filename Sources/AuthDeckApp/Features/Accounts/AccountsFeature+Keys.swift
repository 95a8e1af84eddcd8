import AuthAdmin
import Foundation
import TerminalUI

/// The accounts view's keys and what they do.
extension AccountsFeature {
    func bindings(in context: ConsoleContext) -> [KeyBinding<KeyIntent<Action>>] {
        if let panel { return panel.bindings(access: context.operatorAccess) }
        if typingFilter {
            return [KeyBinding([.enter], "enter", "done", .submit), KeyBinding([.escape], "esc", "clear the filter", .back),
                    KeyBinding([.up], "↑", "move up", .up, inBar: false), KeyBinding([.down], "↓", "move down", .down, inBar: false),
                    .helpInForm]
        }
        var keys: [KeyBinding<KeyIntent<Action>>] = [
            .moveUp(), .moveDown(),
            KeyBinding([.pageUp], "pgup", "page up", .command(.pageUp), inBar: false),
            KeyBinding([.pageDown], "pgdn", "page down", .command(.pageDown), inBar: false),
            KeyBinding([.home, .character("g")], "g", "first row", .command(.top), inBar: false),
            KeyBinding([.end, .character("G")], "G", "last row", .command(.bottom), inBar: false),
            .char("/", "filter", .command(.filter)), .char("f", "chips", .command(.chips)), .char("s", "sort", .command(.sort)),
        ]
        if selectedUser != nil { keys.append(KeyBinding([.enter], "enter", "detail", .choose)) }
        keys += [KeyBinding([.character(" ")], "space", "mark", .command(.mark)), .char("a", "mark all matching", .command(.markAll), inBar: false)]
        if context.operatorAccess == .full {
            keys += Self.actionBindings + [.char("C", "clean up anonymous", .command(.cleanUp), inBar: false)]
        }
        let clears = !filter.isEmpty || !marked.isEmpty
        keys += [.char("L", "audit log", .command(.auditLog), inBar: false), .char("H", "hash parameters", .command(.hashConfig), inBar: false),
                 .char("P", "projects and tenants", .command(.projects), inBar: false),
                 .char("K", "lock-outs (any address)", .command(.lockouts), inBar: false)]
        keys += RoomFeature.openBinding(.command(.room), in: context)
        keys += [.char("r", "refresh", .command(.refresh), inBar: false),
                 KeyBinding([.escape], "esc", clears ? (filter.isEmpty ? "clear marks" : "clear filter") : "back", .back),
                 KeyBinding([.character("m")], "m", "messages (outbox)", .console(.messages), inBar: false), .help, .quit]
        return keys
    }

    /// The actions on the marked accounts (or the selected one); the detail panel offers them too.
    static let actionBindings: [KeyBinding<KeyIntent<Action>>] = [
        .char("d", "disable", .command(.disable)), .char("D", "delete", .command(.delete)),
        .char("e", "enable", .command(.enable), inBar: false), .char("o", "sign out everywhere", .command(.revoke), inBar: false),
        .char("v", "mark email verified", .command(.markVerified), inBar: false),
        .char("p", "send password reset", .command(.sendPasswordReset), inBar: false),
        .char("V", "send verification email", .command(.sendVerification), inBar: false),
        .char("c", "edit custom claims", .command(.editClaims), inBar: false),
    ]

    /// The detail's actions: of disable and enable, the one the account's state allows, in the bar.
    static func detailActionBindings(disabled: Bool) -> [KeyBinding<KeyIntent<Action>>] {
        let toggle: KeyBinding<KeyIntent<Action>> = disabled ? .char("e", "enable", .command(.enable)) : .char("d", "disable", .command(.disable))
        return [toggle] + actionBindings.filter { $0.intent != .feature(.command(.disable)) && $0.intent != .feature(.command(.enable)) }
    }

    mutating func perform(_ action: Action, in context: ConsoleContext) -> [FlowStep] {
        if panel != nil { return performInPanel(action, access: context.operatorAccess) }
        if typingFilter {
            switch action {
            case .submit:
                typingFilter = false
            case .back:
                typingFilter = false
                filterField = TextField(maxLength: 128)
                guard !filter.trimmedTextIsEmpty else { return [] }
                filter.text = ""
                return reload()
            case .up: return move(to: selection - 1)
            case .down: return move(to: selection + 1)
            case .choose, .confirm, .cancel, .toggle, .command: break
            }
            return []
        }
        switch action {
        case .up: return move(to: selection - 1)
        case .down: return move(to: selection + 1)
        case .choose:
            guard let user = selectedUser else { return [] }
            return openDetail(uid: user.uid)
        case .back:
            if !filter.isEmpty {
                filter = AccountFilter()
                filterField = TextField(maxLength: 128)
                return [.banner(nil)] + reload()
            }
            if !marked.isEmpty {
                marked = []
                return [.banner(nil)]
            }
            return [.banner(nil), .exit(.cancelled)]
        case .command(.room):
            return RoomFeature.open(in: context)
        case let .command(command):
            return perform(command, access: context.operatorAccess, consoleTenant: context.tenant)
        case .submit, .confirm, .cancel, .toggle:
            return []
        }
    }

    private mutating func perform(_ command: Command, access: OperatorAccess?, consoleTenant: String?) -> [FlowStep] {
        switch command {
        case .nextFactor, .removeSecondFactor, .room, .clearAllLockouts: return []
        case .lockouts: return openLockouts()
        case .pageUp: return move(to: selection - Self.visibleRows)
        case .pageDown: return move(to: selection + Self.visibleRows)
        case .top: return move(to: 0)
        case .bottom: return move(to: totalCount - 1)
        case .filter:
            typingFilter = true
            filterField = TextField(text: filter.text, maxLength: 128)
            return [.banner(nil)]
        case .chips:
            panel = .chips(ChipMenu())
            return [.banner(nil)]
        case .sort:
            panel = .sort(selection: AccountSort.Field.allCases.firstIndex(of: sort.field) ?? 0)
            return [.banner(nil)]
        case .refresh:
            return refresh()
        case .mark:
            guard let uid = selectedUser?.uid else { return [] }
            if marked.remove(uid) == nil { marked.insert(uid) }
            return move(to: selection + 1)
        case .markAll:
            guard !allProjects else { return [.banner(Banner(.info, "Mark all works in one project: choose it with P."))] }
            return [.banner(nil), .run(.accounts(.findMatching(filter, purpose: .mark)), busy: "Finding every account that matches…")]
        case .disable, .enable, .delete, .revoke, .markVerified, .sendPasswordReset, .sendVerification, .clearLockout:
            guard access == .full, let accountAction = Self.action(for: command) else { return [] }
            return ask(accountAction, on: targets, describing: marked.isEmpty ? selectedUser.map(Self.name) : nil, returnTo: nil)
        case .editClaims:
            guard access == .full, let user = selectedUser else { return [] }
            panel = .claims(ClaimsEditor(user: user, returnTo: nil))
            return [.banner(nil)]
        case .cleanUp:
            guard access == .full else { return [] }
            guard !allProjects else { return [.banner(Banner(.info, "The clean-up works in one project: choose it with P."))] }
            panel = .cleanUp(days: TextField(text: "30", maxLength: 5))
            return [.banner(nil)]
        case .auditLog:
            panel = .auditLog(entries: nil, selection: 0)
            return [.banner(nil), .run(.accounts(.loadAuditLog), busy: nil)]
        case .hashConfig:
            panel = .hashConfig
            return [.banner(nil), .run(.accounts(.loadHashConfig), busy: nil)]
        case .projects:
            return openProjectsList(consoleTenant: consoleTenant)
        }
    }

    static func action(for command: Command) -> AccountAction? {
        switch command {
        case .disable: .disable
        case .enable: .enable
        case .delete: .delete
        case .revoke: .revokeRefreshTokens
        case .markVerified: .markEmailVerified
        case .sendPasswordReset: .sendPasswordReset
        case .sendVerification: .sendEmailVerification
        case .clearLockout: .clearLockout
        case .filter, .chips, .sort, .refresh, .mark, .markAll, .pageUp, .pageDown, .top, .bottom, .editClaims,
             .removeSecondFactor, .nextFactor, .cleanUp, .auditLog, .hashConfig, .projects, .room, .lockouts, .clearAllLockouts: nil
        }
    }

    /// How a single account is named in confirmations.
    static func name(_ user: UserRecord) -> String {
        "the account \(user.email ?? user.phoneNumber ?? user.uid)"
    }

    /// A destructive action, or one on several accounts, asks first; the others run at once.
    mutating func ask(_ action: AccountAction, on uids: [String], describing name: String?, returnTo: AccountsPanel?) -> [FlowStep] {
        guard !uids.isEmpty else { return [] }
        if uids.count > 1 || action.isDestructive {
            let what = name ?? (uids.count == 1 ? "1 marked account" : "\(uids.count) marked accounts")
            panel = .confirm(AccountsConfirmation(action: action, uids: uids, what: what, returnTo: returnTo))
            return [.banner(nil)]
        }
        panel = returnTo
        return run(action, on: uids)
    }

    func run(_ action: AccountAction, on uids: [String]) -> [FlowStep] {
        [.banner(nil), .run(.accounts(.perform(action, uids: uids, projects: projects(of: uids))), busy: "\(action.name.prefix(1).uppercased() + action.name.dropFirst()): \(Self.count(uids.count))…")]
    }

    static func count(_ n: Int) -> String { n == 1 ? "1 account" : "\(n.formatted(.number.grouping(.automatic).locale(Locale(identifier: "en_US")))) accounts" }

    mutating func openDetail(uid: String) -> [FlowStep] {
        panel = .detail(AccountDetail(uid: uid, project: allProjects ? accountProjects[uid] : nil))
        return [.banner(nil), .run(.accounts(detailEffect(uid: uid)), busy: "Reading the account…")]
    }

    mutating func typed(_ key: Key, in context: ConsoleContext) -> [FlowStep] {
        if panel != nil { return typedInPanel(key) }
        guard typingFilter, filterField.handle(key), filterField.text != filter.text else { return [] }
        filter.text = filterField.text
        return reload()
    }
}
