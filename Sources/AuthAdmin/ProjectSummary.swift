import Foundation
import IdentityToolkit

/// One project of a backend that holds several (an `authdeck serve`, whose `authdeck ssh` gives
/// each visitor one): how many accounts, and who it is for.
public struct ProjectSummary: Sendable, Equatable, Identifiable {
    public struct Owner: Sendable, Equatable {
        /// The visitor's SSH key fingerprint; nil for a visitor without a key.
        public var key: String?
        /// The name they chose at their first visit; nil where the backend kept none.
        public var name: String?
        public var address: String?
        public var lastSeen: Date?
        /// When their last session ended; nil while one is open.
        public var leftAt: Date?

        public init(key: String?, name: String? = nil, address: String?, lastSeen: Date?, leftAt: Date?) {
            self.key = key
            self.name = name
            self.address = address
            self.lastSeen = lastSeen
            self.leftAt = leftAt
        }
    }

    public var id: String
    public var accounts: Int
    /// Addresses locked out now; nil when the backend does not say.
    public var lockouts: Int?
    /// nil for the backend's own project, or any not made for a visitor.
    public var owner: Owner?
    /// Why its data cannot be read now (a database refused at opening); nil: it can.
    public var unavailable: String?

    public init(id: String, accounts: Int, lockouts: Int? = nil, owner: Owner?, unavailable: String? = nil) {
        self.id = id
        self.accounts = accounts
        self.lockouts = lockouts
        self.owner = owner
        self.unavailable = unavailable
    }
}

extension AccountAdmin {
    /// The projects of this backend, its own first. Only `authdeck serve` holds several; any other
    /// backend is this one project.
    public func projects() async throws -> [ProjectSummary] {
        guard capability == .authdeck else {
            return [ProjectSummary(id: projectId, accounts: try await count(matching: AccountFilter()), owner: nil)]
        }
        let format = ISO8601DateFormatter()
        do {
            return try await backend.call(ListProjectsRequest()).projects.map { project in
                ProjectSummary(id: project.projectId, accounts: project.accounts, lockouts: project.lockouts, owner: project.owner.map { owner in
                    ProjectSummary.Owner(key: owner.key, name: owner.name, address: owner.address, lastSeen: owner.lastSeen.flatMap(format.date(from:)),
                                         leftAt: owner.leftAt.flatMap(format.date(from:)))
                }, unavailable: project.unavailable)
            }
        } catch {
            throw AuthAdminError.from(error)
        }
    }

    /// `limit` accounts from `offset` of every project together, matching `filter`, in `sort` (the
    /// project breaks ties), each with its project, and how many match in all. Each project's matches
    /// are read whole and merged here: besides the backend's own, the projects are visitors', small
    /// and no more than `--max-visitor-projects`; the backend has no query across projects.
    public func rowsInEveryProject(filter: AccountFilter, sort: AccountSort, offset: Int, limit: Int) async throws -> AccountPage {
        var rows: [(project: String, user: UserRecord)] = []
        var lockouts: [EmailLockout] = []
        // A project that cannot be read is marked so in the projects' list, and left out here.
        for project in try await projects() where project.unavailable == nil {
            let admin = inProject(project.id)
            // A project without accounts may still hold lock-outs: of addresses with no account. The
            // listing counts them, so that a room's many projects are not each asked.
            if project.lockouts != 0 {
                lockouts += try await admin.passwordLockouts().map { lockout in
                    var lockout = lockout
                    lockout.project = project.id
                    return lockout
                }
            }
            guard project.accounts > 0 else { continue }
            var read = 0
            while true {
                let page = try await admin.rows(filter: filter, sort: sort, offset: read, limit: QueryAccountsRequest.maximumLimit)
                rows += page.users.map { (project.id, $0) }
                read += page.users.count
                if page.users.count < QueryAccountsRequest.maximumLimit || page.totalCount.map({ read >= $0 }) == true { break }
            }
        }
        rows.sort { a, b in
            if sort.areInIncreasingOrder(a.user, b.user) { return true }
            if sort.areInIncreasingOrder(b.user, a.user) { return false }
            return a.project < b.project
        }
        let window = rows.dropFirst(offset).prefix(max(limit, 0))
        return AccountPage(users: window.map(\.user), offset: offset, totalCount: rows.count, projects: window.map(\.project), lockouts: lockouts)
    }

    /// `rows` of this project, with its lock-outs.
    public func rowsAndLockouts(filter: AccountFilter, sort: AccountSort, offset: Int, limit: Int) async throws -> AccountPage {
        var page = try await rows(filter: filter, sort: sort, offset: offset, limit: limit)
        page.lockouts = try await passwordLockouts()
        return page
    }

    /// The same administration, of another project of the same backend.
    public func inProject(_ id: String) -> AccountAdmin {
        AccountAdmin(backend: backend, projectId: id, capability: capability, clock: clock)
    }
}
