import Foundation

/// `GET /emulator/v1/projects`: the projects an `authdeck serve` holds, the data directory's own
/// first, each with its number of accounts and, for a visitor's, who it is for. AuthDeck's own:
/// the Firebase Auth Emulator has no such listing. An administrator's call on a shared serve.
public struct ListProjectsRequest: EmulatorAdministratorRequest, Equatable {
    public static let endpoint = Endpoint(host: .emulator, path: "/v1/projects")
    public static let httpMethod = "GET"
    public typealias Response = ListProjectsResponse

    public init() {}
}

public struct ListProjectsResponse: Codable, Sendable, Equatable {
    public struct Owner: Codable, Sendable, Equatable {
        /// The SSH key's `SHA256:…` fingerprint; nil for a visitor without a key.
        public var key: String?
        /// The name the visitor chose at their first visit (their SSH user name); nil where none was kept.
        public var name: String?
        public var address: String?
        /// RFC 3339 times.
        public var createdAt: String?
        public var lastSeen: String?
        /// When the visitor's last session ended; nil while one is open.
        public var leftAt: String?

        public init(key: String?, name: String? = nil, address: String?, createdAt: String?, lastSeen: String?, leftAt: String?) {
            self.key = key
            self.name = name
            self.address = address
            self.createdAt = createdAt
            self.lastSeen = lastSeen
            self.leftAt = leftAt
        }
    }

    public struct Project: Codable, Sendable, Equatable {
        public var projectId: String
        public var accounts: Int
        /// Emails and texts in its outbox not yet used or expired: which outboxes are worth reading.
        public var messages: Int?
        /// Addresses locked out by wrong passwords now: which projects' lock-outs are worth reading.
        public var lockouts: Int?
        public var owner: Owner?
        /// Why the project's data cannot be read now (its database refused at opening, say); its
        /// counts are then 0. The other projects are listed all the same.
        public var unavailable: String?

        public init(projectId: String, accounts: Int, messages: Int? = nil, lockouts: Int? = nil, owner: Owner?, unavailable: String? = nil) {
            self.projectId = projectId
            self.accounts = accounts
            self.messages = messages
            self.lockouts = lockouts
            self.owner = owner
            self.unavailable = unavailable
        }
    }

    public var projects: [Project]

    public init(projects: [Project]) { self.projects = projects }
}
