import Foundation
import IdentityToolkit

/// One project of a backend that holds several (an `authdeck serve`, whose `authdeck ssh` gives
/// each visitor one): how many accounts, and who it is for.
public struct ProjectSummary: Sendable, Equatable, Identifiable {
    public struct Owner: Sendable, Equatable {
        /// The visitor's SSH key fingerprint; nil for a visitor without a key.
        public var key: String?
        public var address: String?
        public var lastSeen: Date?
        /// When their last session ended; nil while one is open.
        public var leftAt: Date?

        public init(key: String?, address: String?, lastSeen: Date?, leftAt: Date?) {
            self.key = key
            self.address = address
            self.lastSeen = lastSeen
            self.leftAt = leftAt
        }
    }

    public var id: String
    public var accounts: Int
    /// nil for the backend's own project, or any not made for a visitor.
    public var owner: Owner?

    public init(id: String, accounts: Int, owner: Owner?) {
        self.id = id
        self.accounts = accounts
        self.owner = owner
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
                ProjectSummary(id: project.projectId, accounts: project.accounts, owner: project.owner.map { owner in
                    ProjectSummary.Owner(key: owner.key, address: owner.address, lastSeen: owner.lastSeen.flatMap(format.date(from:)),
                                         leftAt: owner.leftAt.flatMap(format.date(from:)))
                })
            }
        } catch {
            throw AuthAdminError.from(error)
        }
    }

    /// The same administration, of another project of the same backend.
    public func inProject(_ id: String) -> AccountAdmin {
        AccountAdmin(backend: backend, projectId: id, capability: capability, clock: clock)
    }
}
