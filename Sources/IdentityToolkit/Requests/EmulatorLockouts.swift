import Foundation

/// `POST /emulator/v1/projects/{projectId}/lockouts:query`: whether wrong passwords have locked an email
/// address's password sign-in (an account's or not), and until when. AuthDeck's own: the Firebase Auth
/// Emulator has no lock-out. Without an email it lists them all (`ListLockoutsRequest`).
public struct QueryLockoutRequest: EmulatorAdministratorRequest, Equatable {
    public static let endpoint = Endpoint(host: .emulator, path: "/v1/projects/{projectId}/lockouts:query")
    public static let httpMethod = "POST"
    public typealias Response = LockoutResponse

    public var projectId: String
    public var email: String

    public init(projectId: String, email: String) {
        self.projectId = projectId
        self.email = email
    }

    public var resolvedEndpoint: Endpoint { Endpoint(host: .emulator, path: "/v1/projects/\(projectId)/lockouts:query") }
}

/// `POST /emulator/v1/projects/{projectId}/lockouts:clear`: forgets an address's wrong passwords and
/// lifts its lock-out; answers as the query would now.
public struct ClearLockoutRequest: EmulatorAdministratorRequest, Equatable {
    public static let endpoint = Endpoint(host: .emulator, path: "/v1/projects/{projectId}/lockouts:clear")
    public static let httpMethod = "POST"
    public typealias Response = LockoutResponse

    public var projectId: String
    public var email: String

    public init(projectId: String, email: String) {
        self.projectId = projectId
        self.email = email
    }

    public var resolvedEndpoint: Endpoint { Endpoint(host: .emulator, path: "/v1/projects/\(projectId)/lockouts:clear") }
}

/// `lockouts:query` with `{"all": true}`: every address of the project locked now, soonest unlocked first.
public struct ListLockoutsRequest: EmulatorAdministratorRequest, Equatable {
    public static let endpoint = QueryLockoutRequest.endpoint
    public static let httpMethod = "POST"
    public typealias Response = LockoutListResponse

    public var projectId: String
    public var all = true

    public init(projectId: String) { self.projectId = projectId }

    public var resolvedEndpoint: Endpoint { Endpoint(host: .emulator, path: "/v1/projects/\(projectId)/lockouts:query") }

    enum CodingKeys: String, CodingKey { case all }
}

/// `lockouts:clear` with `{"all": true}`: lifts every lock-out of the project; answers the addresses it lifted.
public struct ClearAllLockoutsRequest: EmulatorAdministratorRequest, Equatable {
    public static let endpoint = ClearLockoutRequest.endpoint
    public static let httpMethod = "POST"
    public typealias Response = LockoutListResponse

    public var projectId: String
    public var all = true

    public init(projectId: String) { self.projectId = projectId }

    public var resolvedEndpoint: Endpoint { Endpoint(host: .emulator, path: "/v1/projects/\(projectId)/lockouts:clear") }

    enum CodingKeys: String, CodingKey { case all }
}

public struct LockoutListResponse: Codable, Sendable, Equatable {
    public var lockouts: [LockoutResponse]

    public init(lockouts: [LockoutResponse]) { self.lockouts = lockouts }
}

public struct LockoutResponse: Codable, Sendable, Equatable {
    public var email: String
    /// Wrong passwords counted (attempts older than the lock-out's duration are forgotten).
    public var failures: Int
    /// Milliseconds since 1970, as text like the API's other times; nil when not locked.
    public var lockedUntil: String?

    public init(email: String, failures: Int, lockedUntil: String?) {
        self.email = email
        self.failures = failures
        self.lockedUntil = lockedUntil
    }
}
