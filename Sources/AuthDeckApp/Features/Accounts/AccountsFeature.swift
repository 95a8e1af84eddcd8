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
        case command(Command)
    }

    /// What the accounts view's keys mean.
    public enum Command: Equatable, Sendable {
        case filter, chips, sort, refresh
        case mark, markAll
        case pageUp, pageDown, top, bottom
        case disable, enable, delete, revoke, markVerified, sendPasswordReset, sendVerification, clearLockout
        case editClaims, removeSecondFactor, nextFactor, cleanUp
        case auditLog, hashConfig, projects
        /// The project's lock-outs, of any address; in them, lifting all of them.
        case lockouts, clearAllLockouts
        /// The presenter's room, on a console under `authdeck ssh`.
        case room
    }

    /// The accounts view's work, performed by the effect runner on the `AccountAdmin` and the cart store.
    public enum Effect: Equatable, Sendable {
        case loadPage(AccountsQuery)
        /// How many accounts match, asked after the first rows are shown: the count may take far longer.
        case countMatches(AccountFilter)
        /// `project`: the account's, when the table shows every project; nil: the chosen project.
        case loadDetail(uid: String, project: String? = nil)
        /// `projects`: each account's project, when the table shows every project; an account not in
        /// it is of the chosen project.
        case perform(AccountAction, uids: [String], projects: [String: String] = [:])
        case findMatching(AccountFilter, purpose: MatchPurpose)
        case loadHashConfig
        case loadAuditLog
        /// The backend's projects (its own and its visitors', on an `authdeck serve`).
        case loadProjects
        /// The tenants of the console's project, each page of them.
        case loadTenants
        /// The view's calls go to this project (or this tenant of it) from now on.
        case selectProject(String, tenant: TenantSummary? = nil)
        /// The next automatic refresh; a new one replaces the one waiting.
        case scheduleRefresh
        /// Lifts these lock-outs, each in its project (nil: the chosen one); `all`: every lock-out of
        /// their projects, those locked since the list was read too.
        case clearLockouts([EmailLockout], all: Bool)
    }

    /// The results of `Effect`s, and the refresh timer's tick.
    public enum Event: FeatureResult {
        case pageLoaded(AccountsQuery, Result<AccountPage, AccountsFailure>)
        case matchesCounted(AccountFilter, Result<Int, AccountsFailure>)
        case detailLoaded(uid: String, Result<AccountDetailRecord, AccountsFailure>)
        case actionFinished(Result<AccountActionOutcome, AccountsFailure>)
        case matchingFound(MatchPurpose, Result<[String], AccountsFailure>)
        case hashConfigLoaded(Result<PasswordHashParameters, AccountsFailure>)
        case auditLogLoaded(Result<[AuditEntry], AccountsFailure>)
        case projectsLoaded(Result<[ProjectSummary], AccountsFailure>)
        /// A refusal to list them is part of the listing: the projects stay listed.
        case tenantsLoaded(TenantListing)
        case projectSelected(String, tenant: TenantSummary? = nil)
        case refreshDue
        /// How many lock-outs were lifted.
        case lockoutsCleared(Result<Int, AccountsFailure>)

        /// The events that end work the console showed as running.
        var endsBusyWork: Bool {
            switch self {
            case .detailLoaded, .actionFinished, .matchingFound, .lockoutsCleared: true
            case .pageLoaded, .matchesCounted, .hashConfigLoaded, .auditLogLoaded, .projectsLoaded, .tenantsLoaded, .projectSelected, .refreshDue: false
            }
        }
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
    /// The project shown, once the operator chose one (`P`); nil: the backend's own.
    public var project: String?
    /// The project's tenant shown, once the operator chose one (`P`); nil: the project's own accounts.
    public var tenant: TenantSummary?
    /// Every project's accounts in one table, chosen with `P`.
    public var allProjects = false
    /// The project of each account read while every project is shown: its detail and actions go there.
    /// Keyed by uid, as the marks are: a uid held by two projects (one file imported into both) is
    /// taken for the one read last.
    public var accountProjects: [String: String] = [:]
    /// The addresses locked out in the project (or projects) shown, as the last page read them.
    public var lockouts: [EmailLockout] = []

    public init() {}

    /// The tenant by the name its people know it by; its id is the header's.
    var title: String { tenant.map { "Accounts of tenant \($0.displayName ?? $0.id)" } ?? "Accounts" }
    var needsUser: Bool { false }
    var screen: Screen { .accounts(self) }
    var editsText: Bool { typingFilter || panel?.editsText == true }

    // MARK: Opening

    /// `A` on the screens that open the view, for consoles that have it.
    static func openBinding<Action>(_ action: Action, in context: ConsoleContext) -> [KeyBinding<KeyIntent<Action>>] {
        context.operatorAccess == nil ? [] : [.char("A", "accounts", action)]
    }

    /// `P` on the screens that open the view at its list of projects and tenants, for consoles that have it.
    static func openProjectsBinding<Action>(_ action: Action, in context: ConsoleContext) -> [KeyBinding<KeyIntent<Action>>] {
        context.operatorAccess == nil ? [] : [.char("P", "projects and tenants", action, inBar: false)]
    }

    /// The view, its first page and its refresh timer.
    static func open(in context: ConsoleContext) -> [FlowStep] {
        guard context.operatorAccess != nil else { return [] }
        var feature = AccountsFeature()
        let load = feature.reload()
        return [.banner(nil), .show(.accounts(feature))] + load + [.run(.accounts(.scheduleRefresh), busy: nil)]
    }

    /// The view with its list of projects and tenants open over the first page: where an operator
    /// picks a tenant before signing in; esc leaves the list for the console's own accounts.
    static func openProjects(in context: ConsoleContext) -> [FlowStep] {
        guard context.operatorAccess != nil else { return [] }
        var feature = AccountsFeature()
        let load = feature.reload()
        let list = feature.openProjectsList(consoleTenant: context.tenant)
        return [.banner(nil), .show(.accounts(feature))] + load + [.run(.accounts(.scheduleRefresh), busy: nil)] + list
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
        AccountsQuery(filter: filter, sort: sort, offset: offset, limit: Self.pageSize, project: project, tenant: tenant?.id,
                      allProjects: allProjects)
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

    /// The project named in the row at `index`, when every project is shown.
    func project(at index: Int) -> String? {
        guard allProjects, let user = user(at: index) else { return nil }
        return accountProjects[user.uid]
    }

    /// Each of `uids`' project when every project is shown, so an action goes to the account's own.
    func projects(of uids: [String]) -> [String: String] {
        guard allProjects else { return [:] }
        return Dictionary(uniqueKeysWithValues: uids.compactMap { uid in accountProjects[uid].map { (uid, $0) } })
    }

    func detailEffect(uid: String) -> Effect {
        .loadDetail(uid: uid, project: allProjects ? accountProjects[uid] : nil)
    }

    func draw(in context: ConsoleContext, on canvas: any Canvas, frame: Rect) {
        AccountsScreen.draw(self, access: context.operatorAccess, consoleTenant: context.tenant, on: canvas, in: frame)
    }
}

extension AccountFilter {
    var trimmedTextIsEmpty: Bool { text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty }
}
