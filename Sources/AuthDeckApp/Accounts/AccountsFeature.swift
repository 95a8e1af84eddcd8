import AuthAdmin
import Foundation
import TerminalUI

/// The operator's accounts view: every account of the backend in a table paged from the backend
/// (never loaded whole), filtered as the operator types and by chips, sorted, with marks for bulk
/// actions; a panel (detail, menus, the claims editor, the audit log, a confirmation) sits over it.
public struct AccountsFeature: ConsoleFeature {
    /// What the screen's keys mean.
    public enum Action: Equatable, Sendable, ListAction, BackAction {
        case up, down, choose, back, submit, toggle, cancel, confirm
        /// The view's own commands.
        case accounts(AccountsIntent)
    }

    /// Rows asked of the backend at a time; the table shows fewer.
    static let pageSize = 100
    /// Table rows on an 80×24 terminal; page up/down moves by this many.
    static let visibleRows = 14
    /// Bulk actions on more accounts than this ask the operator to type the count.
    static let typedConfirmationThreshold = 20

    public var filter = AccountFilter()
    /// The text of `/`, while it is typed.
    public var filterField = TextField(maxLength: 128)
    public var typingFilter = false
    public var sort = AccountSort()
    /// The rows loaded: a window of the matching accounts.
    public var page: AccountPage?
    /// How many accounts match `filter`, once counted: the rows are shown first, the count follows.
    public var matchCount: Int?
    /// The filter `matchCount` counts or is being counted for; nil when a recount is due.
    public var countedFilter: AccountFilter?
    /// The selected row, counted over every matching account.
    public var selection = 0
    public var marked: Set<String> = []
    /// The page asked for and not answered yet.
    public var pending: AccountsQuery?
    public var hashConfig: PasswordHashParameters?
    public var panel: AccountsPanel?
    /// Why the last page could not be read.
    public var loadError: String?

    public init() {}

    var title: String { "Accounts" }
    var needsUser: Bool { false }
    var screen: Screen { .accounts(self) }
    static func embed(_ action: Action) -> ConsoleAction { .accounts(action) }
    static func extract(_ action: ConsoleAction) -> Action? {
        if case let .accounts(action) = action { action } else { nil }
    }
    static func extract(_ event: ConsoleEvent) -> AccountsEvent? {
        if case let .accounts(event) = event { event } else { nil }
    }
    var editsText: Bool { typingFilter || panel?.editsText == true }

    // MARK: Opening

    /// `A` on the screens that open the view, for consoles that have it.
    static func openBinding<Action>(_ action: Action, in context: ConsoleContext) -> [KeyBinding<KeyIntent<Action>>] {
        context.operatorAccess == nil ? [] : [.char("A", "accounts", action)]
    }

    /// The view, its first page and its refresh timer.
    static func open(in context: ConsoleContext) -> [FlowStep] {
        guard context.operatorAccess != nil else { return [] }
        var feature = AccountsFeature()
        let load = feature.reload()
        return [.banner(nil), .show(.accounts(feature))] + load + [.run(.accounts(.scheduleRefresh), busy: nil)]
    }

    // MARK: The table

    /// How many accounts match, once known.
    var knownCount: Int? { page?.totalCount ?? matchCount }

    /// The rows the selection may reach: every match once counted, the rows read until then.
    var totalCount: Int { knownCount ?? page.map { $0.offset + $0.users.count } ?? 0 }

    var selectedUser: UserRecord? { user(at: selection) }

    func user(at index: Int) -> UserRecord? {
        guard let page, index >= page.offset, index < page.offset + page.users.count else { return nil }
        return page.users[index - page.offset]
    }

    func query(offset: Int) -> AccountsQuery {
        AccountsQuery(filter: filter, sort: sort, offset: offset, limit: Self.pageSize)
    }

    /// Asks for the page at `offset` of the current filter and sort.
    mutating func load(offset: Int) -> [FlowStep] {
        let next = query(offset: offset)
        pending = next
        return [.run(.accounts(.loadPage(next)), busy: nil)]
    }

    /// The page that holds the selection with some rows either side.
    static func pageOffset(for selection: Int) -> Int {
        let start = max(0, selection - pageSize / 2)
        return start - start % 10
    }

    /// Loads the rows around the selection when they are not loaded or asked for yet.
    mutating func followSelection() -> [FlowStep] {
        if user(at: selection) != nil || totalCount == 0 { return [] }
        let offset = Self.pageOffset(for: selection)
        if pending == query(offset: offset) { return [] }
        return load(offset: offset)
    }

    /// The filter or sort changed: back to the first row.
    mutating func reload() -> [FlowStep] {
        selection = 0
        page = nil
        if countedFilter != filter { matchCount = nil }
        return load(offset: 0)
    }

    /// The same rows read again, and the count again after them (accounts come and go).
    mutating func refresh() -> [FlowStep] {
        countedFilter = nil
        return load(offset: page?.offset ?? 0)
    }

    mutating func move(to index: Int) -> [FlowStep] {
        selection = max(0, min(index, totalCount - 1))
        return followSelection()
    }

    /// The accounts an action applies to: the marked ones, else the selected one.
    var targets: [String] {
        if !marked.isEmpty { return marked.sorted() }
        return selectedUser.map { [$0.uid] } ?? []
    }

    // MARK: Keys

    func bindings(in context: ConsoleContext) -> [KeyBinding<KeyIntent<Action>>] {
        if let panel { return panel.bindings(access: context.operatorAccess) }
        if typingFilter {
            return [KeyBinding([.enter], "enter", "done", .submit), KeyBinding([.escape], "esc", "clear the filter", .back),
                    KeyBinding([.up], "↑", "move up", .up, inBar: false), KeyBinding([.down], "↓", "move down", .down, inBar: false),
                    .helpInForm]
        }
        var keys: [KeyBinding<KeyIntent<Action>>] = [
            .moveUp(), .moveDown(),
            KeyBinding([.pageUp], "pgup", "page up", .accounts(.pageUp), inBar: false),
            KeyBinding([.pageDown], "pgdn", "page down", .accounts(.pageDown), inBar: false),
            KeyBinding([.home, .character("g")], "g", "first row", .accounts(.top), inBar: false),
            KeyBinding([.end, .character("G")], "G", "last row", .accounts(.bottom), inBar: false),
            .char("/", "filter", .accounts(.filter)), .char("f", "chips", .accounts(.chips)), .char("s", "sort", .accounts(.sort)),
        ]
        if selectedUser != nil { keys.append(KeyBinding([.enter], "enter", "detail", .choose)) }
        keys += [KeyBinding([.character(" ")], "space", "mark", .accounts(.mark)), .char("a", "mark all matching", .accounts(.markAll), inBar: false)]
        if context.operatorAccess == .full {
            keys += Self.actionBindings + [.char("C", "clean up anonymous", .accounts(.cleanUp), inBar: false)]
        }
        let clears = !filter.isEmpty || !marked.isEmpty
        keys += [.char("L", "audit log", .accounts(.auditLog), inBar: false), .char("H", "hash parameters", .accounts(.hashConfig), inBar: false),
                 .char("r", "refresh", .accounts(.refresh), inBar: false),
                 KeyBinding([.escape], "esc", clears ? (filter.isEmpty ? "clear marks" : "clear filter") : "back", .back),
                 KeyBinding([.character("m")], "m", "messages (outbox)", .console(.messages), inBar: false), .help, .quit]
        return keys
    }

    /// The actions on the marked accounts (or the selected one); the detail panel offers them too.
    static let actionBindings: [KeyBinding<KeyIntent<Action>>] = [
        .char("d", "disable", .accounts(.disable)), .char("D", "delete", .accounts(.delete)),
        .char("e", "enable", .accounts(.enable), inBar: false), .char("o", "sign out everywhere", .accounts(.revoke), inBar: false),
        .char("v", "mark email verified", .accounts(.markVerified), inBar: false),
        .char("p", "send password reset", .accounts(.sendPasswordReset), inBar: false),
        .char("V", "send verification email", .accounts(.sendVerification), inBar: false),
        .char("c", "edit custom claims", .accounts(.editClaims), inBar: false),
    ]

    /// The detail's actions: of disable and enable, the one the account's state allows, in the bar.
    static func detailActionBindings(disabled: Bool) -> [KeyBinding<KeyIntent<Action>>] {
        let toggle: KeyBinding<KeyIntent<Action>> = disabled ? .char("e", "enable", .accounts(.enable)) : .char("d", "disable", .accounts(.disable))
        return [toggle] + actionBindings.filter { $0.intent != .feature(.accounts(.disable)) && $0.intent != .feature(.accounts(.enable)) }
    }

    mutating func perform(_ intent: Action, in context: ConsoleContext) -> [FlowStep] {
        if panel != nil { return performInPanel(intent, access: context.operatorAccess) }
        if typingFilter {
            switch intent {
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
            case .choose, .confirm, .cancel, .toggle, .accounts: break
            }
            return []
        }
        switch intent {
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
        case let .accounts(accountsIntent):
            return perform(accountsIntent, access: context.operatorAccess)
        case .submit, .confirm, .cancel, .toggle:
            return []
        }
    }

    private mutating func perform(_ intent: AccountsIntent, access: OperatorAccess?) -> [FlowStep] {
        switch intent {
        case .nextFactor, .removeSecondFactor: return []
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
            return [.banner(nil), .run(.accounts(.findMatching(filter, purpose: .mark)), busy: "Finding every account that matches…")]
        case .disable, .enable, .delete, .revoke, .markVerified, .sendPasswordReset, .sendVerification:
            guard access == .full, let action = Self.action(for: intent) else { return [] }
            return ask(action, on: targets, describing: marked.isEmpty ? selectedUser.map(Self.name) : nil, returnTo: nil)
        case .editClaims:
            guard access == .full, let user = selectedUser else { return [] }
            panel = .claims(ClaimsEditor(user: user, returnTo: nil))
            return [.banner(nil)]
        case .cleanUp:
            guard access == .full else { return [] }
            panel = .cleanUp(days: TextField(text: "30", maxLength: 5))
            return [.banner(nil)]
        case .auditLog:
            panel = .auditLog(entries: nil, selection: 0)
            return [.banner(nil), .run(.accounts(.loadAuditLog), busy: nil)]
        case .hashConfig:
            panel = .hashConfig
            return [.banner(nil), .run(.accounts(.loadHashConfig), busy: nil)]
        }
    }

    static func action(for intent: AccountsIntent) -> AccountAction? {
        switch intent {
        case .disable: .disable
        case .enable: .enable
        case .delete: .delete
        case .revoke: .revokeRefreshTokens
        case .markVerified: .markEmailVerified
        case .sendPasswordReset: .sendPasswordReset
        case .sendVerification: .sendEmailVerification
        case .filter, .chips, .sort, .refresh, .mark, .markAll, .pageUp, .pageDown, .top, .bottom, .editClaims,
             .removeSecondFactor, .nextFactor, .cleanUp, .auditLog, .hashConfig: nil
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
        return Self.run(action, on: uids)
    }

    static func run(_ action: AccountAction, on uids: [String]) -> [FlowStep] {
        [.banner(nil), .run(.accounts(.perform(action, uids: uids)), busy: "\(action.name.prefix(1).uppercased() + action.name.dropFirst()): \(count(uids.count))…")]
    }

    static func count(_ n: Int) -> String { n == 1 ? "1 account" : "\(n.formatted(.number.grouping(.automatic).locale(Locale(identifier: "en_US")))) accounts" }

    mutating func openDetail(uid: String) -> [FlowStep] {
        panel = .detail(AccountDetail(uid: uid))
        return [.banner(nil), .run(.accounts(.loadDetail(uid: uid)), busy: "Reading the account…")]
    }

    mutating func typed(_ key: Key, in context: ConsoleContext) -> [FlowStep] {
        if panel != nil { return typedInPanel(key) }
        guard typingFilter, filterField.handle(key), filterField.text != filter.text else { return [] }
        filter.text = filterField.text
        return reload()
    }

    // MARK: Results

    mutating func handle(_ event: AccountsEvent, in context: ConsoleContext) -> [FlowStep] {
        switch event {
        case let .pageLoaded(answered, result):
            // A page of a filter or sort since left: the newer one is on its way.
            guard answered.filter == filter, answered.sort == sort else { return [] }
            if pending == answered { pending = nil }
            switch result {
            case let .success(newPage):
                let selectedUid = selectedUser?.uid
                page = newPage
                loadError = nil
                if let selectedUid, let index = newPage.users.firstIndex(where: { $0.uid == selectedUid }) {
                    selection = newPage.offset + index
                }
                var count: [FlowStep] = []
                // A backend read whole counts with the page; the others are asked once the rows show.
                if newPage.totalCount == nil, countedFilter != filter {
                    countedFilter = filter
                    count = [.run(.accounts(.countMatches(filter)), busy: nil)]
                }
                selection = max(0, min(selection, totalCount - 1))
                return followSelection() + count
            case let .failure(failure):
                loadError = failure.message
                return [.banner(Banner(.error, "The accounts could not be read.", detail: failure.message))]
            }
        case let .matchesCounted(counted, result):
            // The count of a filter since left: the newer filter's count follows its rows.
            guard counted == filter else { return [] }
            switch result {
            case let .success(total):
                matchCount = total
                selection = max(0, min(selection, total - 1))
                return followSelection()
            case let .failure(failure):
                countedFilter = nil
                return [.banner(Banner(.error, "The matching accounts could not be counted.", detail: failure.message))]
            }
        case .refreshDue:
            let reload = pending == nil ? refresh() : []
            return reload + [.run(.accounts(.scheduleRefresh), busy: nil)]
        case let .detailLoaded(uid, result):
            guard case var .detail(detail) = panel, detail.uid == uid else { return [] }
            switch result {
            case let .success(record):
                detail.record = record
                detail.factorSelection = min(detail.factorSelection, max(record.user.multiFactor.count - 1, 0))
                panel = .detail(detail)
                return []
            case let .failure(failure):
                panel = nil
                return [.banner(Banner(.error, "The account could not be read.", detail: failure.message))]
            }
        case let .actionFinished(result):
            switch result {
            case let .success(outcome):
                marked.subtract(outcome.succeeded)
                var steps: [FlowStep] = [.banner(Self.report(outcome))]
                if case let .detail(detail) = panel {
                    if outcome.action == .delete, outcome.succeeded.contains(detail.uid) {
                        panel = nil
                    } else {
                        steps.append(.run(.accounts(.loadDetail(uid: detail.uid)), busy: nil))
                    }
                }
                return steps + refresh()
            case let .failure(failure):
                return [.banner(Banner(.error, "The action was not done.", detail: failure.message))]
            }
        case let .matchingFound(purpose, result):
            switch (purpose, result) {
            case let (.mark, .success(uids)):
                marked.formUnion(uids)
                return [.banner(Banner(.info, "Marked \(Self.count(uids.count)) that match; \(marked.count) marked in all."))]
            case let (.cleanUp(days), .success(uids)):
                guard !uids.isEmpty else {
                    panel = nil
                    return [.banner(Banner(.info, "No anonymous account is older than \(days) days."))]
                }
                panel = .confirm(AccountsConfirmation(action: .delete, uids: uids,
                                                      what: "\(uids.count) anonymous account\(uids.count == 1 ? "" : "s") created more than \(days) days ago",
                                                      returnTo: nil))
                return []
            case let (_, .failure(failure)):
                if case .cleanUp = panel { panel = nil }
                return [.banner(Banner(.error, "The matching accounts could not be read.", detail: failure.message))]
            }
        case let .hashConfigLoaded(result):
            switch result {
            case let .success(parameters):
                hashConfig = parameters
                return []
            case let .failure(failure):
                return [.banner(Banner(.error, "The password-hash parameters could not be read.", detail: failure.message))]
            }
        case let .auditLogLoaded(result):
            guard case let .auditLog(_, selection) = panel else { return [] }
            switch result {
            case let .success(entries):
                panel = .auditLog(entries: entries, selection: min(selection, max(entries.count - 1, 0)))
                return []
            case let .failure(failure):
                panel = .auditLog(entries: [], selection: 0)
                return [.banner(Banner(.error, "The audit log could not be read.", detail: failure.message))]
            }
        }
    }

    /// The banner after an action: what was done to how many, and what failed.
    static func report(_ outcome: AccountActionOutcome) -> Banner {
        let done = count(outcome.succeeded.count)
        var text: String = switch outcome.action {
        case .disable: "Disabled \(done)."
        case .enable: "Enabled \(done)."
        case .delete: "Deleted \(done)."
        case .revokeRefreshTokens: "Signed out \(done) everywhere."
        case .markEmailVerified: "Marked the email of \(done) verified."
        case .sendPasswordReset: "Sent a password-reset email to \(done); it is in the outbox (m)."
        case .sendEmailVerification: "Sent a verification email to \(done); it is in the outbox (m)."
        case .setCustomClaims: "Set the custom claims of \(done)."
        case .removeSecondFactor: "Removed the second factor of \(done)."
        }
        text += " Written to the audit log."
        guard let (uid, reason) = outcome.failed.sorted(by: { $0.key < $1.key }).first else { return Banner(.success, text) }
        return Banner(.error, "\(text) Failed for \(count(outcome.failed.count)).", detail: "\(uid): \(reason)")
    }

    func draw(in context: ConsoleContext, on canvas: any Canvas, frame: Rect) {
        AccountsScreen.draw(self, access: context.operatorAccess, on: canvas, in: frame)
    }
}

extension AccountFilter {
    var trimmedTextIsEmpty: Bool { text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty }
}
