import AppData
import AuthAdmin
import Foundation

/// What an operator may do in the accounts view; a console without it (a visitor, a project with
/// no service account) never offers the view.
public enum OperatorAccess: Equatable, Sendable {
    /// `--read-only`: everything is shown, no action is offered.
    case readOnly
    case full
}

/// The operator's way to the backend's admin API: the `AccountAdmin` (made on first use, so a
/// backend's capabilities are asked only when the view opens), the audit log, and who is acting.
public actor AccountsConnection {
    public nonisolated let operatorName: String
    public nonisolated let audit: AuditLog?
    public nonisolated let access: OperatorAccess
    private let connect: @Sendable () async throws -> AccountAdmin
    private var admin: AccountAdmin?
    /// The project chosen in the view (`P`); nil: the backend's own.
    private var project: String?
    /// The chosen project's tenant (`P`); nil: the project's own accounts.
    private var tenant: String?

    public init(operatorName: String, audit: AuditLog?, access: OperatorAccess, connect: @escaping @Sendable () async throws -> AccountAdmin) {
        self.operatorName = operatorName
        self.audit = audit
        self.access = access
        self.connect = connect
    }

    public init(admin: AccountAdmin, operatorName: String, audit: AuditLog?, access: OperatorAccess = .full) {
        self.init(operatorName: operatorName, audit: audit, access: access, connect: { admin })
    }

    /// The administration of the chosen project or tenant.
    func accountAdmin() async throws -> AccountAdmin {
        try await accountAdmin(in: project, tenant: tenant)
    }

    /// The administration of `project` (nil: the backend's own, as the console was started: in its
    /// tenant, for a console given one) or of its `tenant`.
    func accountAdmin(in project: String?, tenant: String? = nil) async throws -> AccountAdmin {
        let base: AccountAdmin
        if let admin {
            base = admin
        } else {
            base = try await connect()
            admin = base
        }
        guard let project else { return base }
        return base.inProject(project).inTenant(tenant)
    }

    /// The administration of an account's `project` where the view shows every project, else of the chosen one.
    func accountAdmin(orChosen project: String?) async throws -> AccountAdmin {
        guard let project else { return try await accountAdmin() }
        return try await accountAdmin(in: project)
    }

    func select(project: String, tenant: String?) {
        self.project = project
        self.tenant = tenant
    }
}

/// One page request of the table: the selection (filter), the order, and which rows.
public struct AccountsQuery: Equatable, Sendable {
    public var filter: AccountFilter
    public var sort: AccountSort
    public var offset: Int
    public var limit: Int
    /// The project asked (nil: the backend's own), so that a page of the project left is not taken.
    public var project: String?
    /// The project's tenant asked (nil: the project's own accounts).
    public var tenant: String?
    /// Every project's accounts in one table; `project` is then nil.
    public var allProjects: Bool

    public init(filter: AccountFilter, sort: AccountSort, offset: Int, limit: Int, project: String? = nil, tenant: String? = nil,
                allProjects: Bool = false) {
        self.filter = filter
        self.sort = sort
        self.offset = offset
        self.limit = limit
        self.project = project
        self.tenant = tenant
        self.allProjects = allProjects
    }
}

/// Why the uids that match a filter are wanted.
public enum MatchPurpose: Equatable, Sendable {
    /// Mark every account that matches the table's filter.
    case mark
    /// Delete the anonymous accounts older than this many days (after a confirmation).
    case cleanUp(days: Int)
}

/// One account as the detail screen shows it: the admin API's record and the app data kept for it.
public struct AccountDetailRecord: Equatable, Sendable {
    public var user: UserRecord
    public var cart: [CartItem]
    /// Its email's wrong passwords; nil without an email, or from a backend that keeps no lock-outs.
    public var lockout: PasswordLockout?

    public init(user: UserRecord, cart: [CartItem], lockout: PasswordLockout? = nil) {
        self.user = user
        self.cart = cart
        self.lockout = lockout
    }
}

/// An admin call that failed, in the words the banner shows.
public struct AccountsFailure: Error, Equatable, Sendable {
    public var message: String
    public init(_ message: String) { self.message = message }
}
