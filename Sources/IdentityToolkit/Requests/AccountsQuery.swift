import Foundation

/// `POST projects/{projectId}/accounts:query`, as Google documents it: at most `limit` (≤ 500)
/// users after `offset`, in `sortBy`/`order`, matching the first `expression` (an exact email,
/// case-insensitive, phone number or uid); `returnUserInfo: false` asks only for the count.
///
/// `authdeckFilter` is AuthDeck's extension for the operator's table (prefix search and flags);
/// only the embedded backend and `authdeck serve` understand it.
public struct QueryAccountsRequest: AdministratorRequest, Equatable {
    public static let projectMethod = "/accounts:query"
    public typealias Response = QueryAccountsResponse
    public static let maximumLimit = 500

    public enum SortBy: String, Codable, Sendable, CaseIterable {
        case userId = "USER_ID"
        case name = "NAME"
        case createdAt = "CREATED_AT"
        case lastLoginAt = "LAST_LOGIN_AT"
        case userEmail = "USER_EMAIL"
    }

    public enum Order: String, Codable, Sendable {
        case ascending = "ASC"
        case descending = "DESC"
    }

    /// One condition; only the first field set (email, then phoneNumber, then userId) counts.
    public struct Expression: Codable, Sendable, Equatable {
        public var email: String?
        public var phoneNumber: String?
        public var userId: String?

        public init(email: String? = nil, phoneNumber: String? = nil, userId: String? = nil) {
            self.email = email
            self.phoneNumber = phoneNumber
            self.userId = userId
        }
    }

    /// AuthDeck's filters; every condition set must hold.
    public struct Filter: Codable, Sendable, Equatable {
        /// The start of the email (case-insensitive), the phone number or the uid.
        public var prefix: String?
        public var anonymous: Bool?
        public var disabled: Bool?
        /// `false`: accounts with an email that is not verified.
        public var emailVerified: Bool?
        public var hasSecondFactor: Bool?
        /// Linked to this provider (`password`, `phone`, `google.com` …).
        public var providerId: String?
        /// Milliseconds since 1970, as a string: created before this time.
        public var createdBefore: String?
        /// `true`: accounts whose email wrong passwords have locked out now.
        public var locked: Bool?

        public init(prefix: String? = nil, anonymous: Bool? = nil, disabled: Bool? = nil, emailVerified: Bool? = nil,
                    hasSecondFactor: Bool? = nil, providerId: String? = nil, createdBefore: String? = nil, locked: Bool? = nil) {
            self.locked = locked
            self.prefix = prefix
            self.anonymous = anonymous
            self.disabled = disabled
            self.emailVerified = emailVerified
            self.hasSecondFactor = hasSecondFactor
            self.providerId = providerId
            self.createdBefore = createdBefore
        }
    }

    public var projectId: String
    public var returnUserInfo: Bool?
    /// An int64 as a string, as Google's JSON mapping writes it.
    public var limit: String?
    public var offset: String?
    public var expression: [Expression]?
    public var sortBy: SortBy?
    public var order: Order?
    public var authdeckFilter: Filter?

    public init(projectId: String, returnUserInfo: Bool? = nil, limit: Int? = nil, offset: Int? = nil, expression: [Expression]? = nil,
                sortBy: SortBy? = nil, order: Order? = nil, authdeckFilter: Filter? = nil) {
        self.projectId = projectId
        self.returnUserInfo = returnUserInfo
        self.limit = limit.map(String.init)
        self.offset = offset.map(String.init)
        self.expression = expression
        self.sortBy = sortBy
        self.order = order
        self.authdeckFilter = authdeckFilter
    }

    enum CodingKeys: String, CodingKey { case returnUserInfo, limit, offset, expression, sortBy, order, authdeckFilter }
}

public struct QueryAccountsResponse: Codable, Sendable, Equatable {
    /// The number of users matching the query when `returnUserInfo` is false, else the number returned.
    public var recordsCount: String?
    public var userInfo: [AccountInfo]?

    public init(recordsCount: String?, userInfo: [AccountInfo]?) {
        self.recordsCount = recordsCount
        self.userInfo = userInfo
    }
}
