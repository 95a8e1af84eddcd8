import Foundation
import GRDB
import IdentityToolkit

/// What `accounts:query` reads from its body (Google's `QueryUserInfoRequest`, and AuthDeck's filter).
struct QueryAccountsBody: Decodable {
    struct Expression: Decodable {
        var email: String?
        var phoneNumber: String?
        var userId: String?
    }

    struct Filter: Decodable {
        var prefix: String?
        var anonymous: Bool?
        var disabled: Bool?
        var emailVerified: Bool?
        var hasSecondFactor: Bool?
        var providerId: String?
        var createdBefore: Int64Text?
        var locked: Bool?
    }

    var returnUserInfo: Bool?
    var limit: Int64Text?
    var offset: Int64Text?
    var expression: [Expression]?
    var sortBy: String?
    var order: String?
    var tenantId: String?
    var authdeckFilter: Filter?
}

/// A `WHERE` clause and its bound values: text from a request only ever travels as an argument.
private struct AccountCondition {
    var clauses: [String] = []
    var arguments = StatementArguments()

    mutating func add(_ clause: String, _ values: [any DatabaseValueConvertible] = []) {
        clauses.append(clause)
        arguments += StatementArguments(values)
    }

    var sql: String { clauses.isEmpty ? "" : " WHERE " + clauses.map { "(\($0))" }.joined(separator: " AND ") }
}

extension EmbeddedBackend {
    static let defaultQueryLimit = 500

    /// `projects/{projectId}/accounts:query`: a page of accounts (or their count) from the database,
    /// sorted and filtered in SQL with indexes, so that a million accounts are never loaded at once.
    func queryAccounts(_ body: QueryAccountsBody) throws -> QueryAccountsResponse {
        if let named = body.tenantId, !named.isEmpty, named != tenantId { throw tenantId == nil ? BackendFailure.tenantNotFound : .tenantIdMismatch }
        let countOnly = !(body.returnUserInfo ?? true)
        let (sql, arguments) = try Self.accountQuery(body, countOnly: countOnly, now: clock().timeIntervalSince1970)
        return try store.read { db in
            if countOnly {
                return QueryAccountsResponse(recordsCount: String(try Int.fetchOne(db, sql: sql, arguments: arguments) ?? 0), userInfo: nil)
            }
            let infos = try accountInfos(StoredAccount.fetchAll(db, sql: sql, arguments: arguments), in: db)
            return QueryAccountsResponse(recordsCount: String(infos.count), userInfo: infos)
        }
    }

    /// The statement of a query and its arguments: the count, or the page in its order.
    /// `now` (seconds since 1970) tells which lock-outs still hold.
    static func accountQuery(_ body: QueryAccountsBody, countOnly: Bool, now: Double) throws -> (sql: String, arguments: StatementArguments) {
        let limit = body.limit?.value ?? Int64(Self.defaultQueryLimit)
        guard (0...Int64(QueryAccountsRequest.maximumLimit)).contains(limit) else {
            throw BackendFailure.invalidArgument("limit must be between 0 and \(QueryAccountsRequest.maximumLimit)")
        }
        let offset = body.offset?.value ?? 0
        guard offset >= 0 else { throw BackendFailure.invalidArgument("offset must not be negative") }
        let sortColumn = try Self.sortColumn(body.sortBy)
        let direction: String
        switch body.order ?? "ORDER_UNSPECIFIED" {
        case "ASC", "ORDER_UNSPECIFIED": direction = "ASC"
        case "DESC": direction = "DESC"
        case let other: throw BackendFailure.invalidArgument("Invalid value at 'order' (TYPE_ENUM), \"\(other)\"")
        }
        let condition = try Self.condition(body, now: now)
        if countOnly { return ("SELECT COUNT(*) FROM user" + condition.sql, condition.arguments) }
        // The rowid breaks ties, so that pages neither repeat nor skip accounts: every index holds
        // it, so SQLite walks the sort column's index without sorting the rows an offset skips.
        let ordering = sortColumn == "localId" ? "localId \(direction)" : "\(sortColumn) \(direction), rowid \(direction)"
        var arguments = condition.arguments
        arguments += [limit, offset]
        return ("SELECT * FROM user" + condition.sql + " ORDER BY \(ordering) LIMIT ? OFFSET ?", arguments)
    }

    /// The columns Google lets a query sort by; anything else is refused, never spliced into SQL.
    private static func sortColumn(_ sortBy: String?) throws -> String {
        switch sortBy ?? "SORT_BY_FIELD_UNSPECIFIED" {
        case "USER_ID", "SORT_BY_FIELD_UNSPECIFIED": "localId"
        case "NAME": "displayName"
        case "CREATED_AT": "createdAt"
        case "LAST_LOGIN_AT": "lastLoginAt"
        case "USER_EMAIL": "email"
        case let other: throw BackendFailure.invalidArgument("Invalid value at 'sort_by' (TYPE_ENUM), \"\(other)\"")
        }
    }

    private static func condition(_ body: QueryAccountsBody, now: Double) throws -> AccountCondition {
        var condition = AccountCondition()
        // As documented: only the first expression counts, and in it the email, else the phone, else the uid.
        if let expression = body.expression?.first {
            if let email = expression.email {
                condition.add("email = ?", [EmailAddress.normalized(email) ?? email.lowercased()])
            } else if let phone = expression.phoneNumber {
                condition.add("phoneNumber = ?", [phone])
            } else if let userId = expression.userId {
                condition.add("localId = ?", [userId])
            }
        }
        guard let filter = body.authdeckFilter else { return condition }
        if let prefix = filter.prefix?.trimmingCharacters(in: .whitespacesAndNewlines), !prefix.isEmpty {
            // Ranges rather than LIKE, so that each column's index answers (SQLite's OR optimisation).
            var alternatives = ["(email >= ? AND email < ?)", "(localId >= ? AND localId < ?)"]
            var values: [any DatabaseValueConvertible] = []
            values += Self.prefixRange(prefix.lowercased())
            values += Self.prefixRange(prefix)
            if let first = prefix.first, first == "+" || first.isASCII && first.isNumber {
                alternatives.append("(phoneNumber >= ? AND phoneNumber < ?)")
                values += Self.prefixRange(first == "+" ? prefix : "+" + prefix)
            }
            condition.add(alternatives.joined(separator: " OR "), values)
        }
        if let anonymous = filter.anonymous {
            let clause = Self.anonymousClause
            condition.add(anonymous ? clause : "NOT (\(clause))")
        }
        if let disabled = filter.disabled { condition.add(disabled ? "disabled = 1" : "disabled = 0") }
        if let verified = filter.emailVerified {
            condition.add(verified ? "email IS NOT NULL AND emailVerified = 1" : "email IS NOT NULL AND emailVerified = 0")
        }
        if let hasSecondFactor = filter.hasSecondFactor {
            condition.add((hasSecondFactor ? "" : "NOT ") + "localId IN (SELECT localId FROM mfaEnrollment)")
        }
        if let providerId = filter.providerId, !providerId.isEmpty {
            condition.add("localId IN (SELECT localId FROM provider WHERE providerId = ?)", [providerId])
        }
        if let createdBefore = filter.createdBefore?.value { condition.add("createdAt < ?", [createdBefore]) }
        if let locked = filter.locked {
            // A locked row keeps its address (normalized, as the account's is), so the lock-outs join by email.
            condition.add((locked ? "" : "NOT ") + "email IN (SELECT email FROM passwordAttempt WHERE lockedUntil > ? AND email IS NOT NULL)", [now])
        }
        return condition
    }

    /// No email, no phone, no linked provider (as `StoredAccount.isAnonymous` says). The partial index
    /// `user_anonymous` has the same `+email IS NULL AND +phoneNumber IS NULL` (the `+` keeps SQLite
    /// from reading every NULL of the unique email or phone index instead).
    private static let anonymousClause =
        "+email IS NULL AND +phoneNumber IS NULL AND NOT EXISTS (SELECT 1 FROM provider WHERE provider.localId = user.localId)"

    /// `[prefix, prefix + U+10FFFF]`: every text that starts with `prefix` sorts inside it (BINARY collation).
    private static func prefixRange(_ prefix: String) -> [any DatabaseValueConvertible] {
        [prefix, prefix + "\u{10FFFF}"]
    }

    /// The REST `UserInfo` of each user, with their providers and second factors, in two queries.
    func accountInfos(_ users: [StoredAccount], in db: Database) throws -> [AccountInfo] {
        let localIds = users.map(\.localId)
        let providers = try ProviderRecord.filter(localIds.contains(ProviderRecord.Columns.localId))
            .order(ProviderRecord.Columns.providerId).fetchAll(db)
        let providersByUser = Dictionary(grouping: providers, by: \.localId)
        let enrollments = try MfaEnrollmentRecord.filter(localIds.contains(MfaEnrollmentRecord.Columns.localId))
            .order(MfaEnrollmentRecord.Columns.enrolledAt).fetchAll(db)
        let enrollmentsByUser = Dictionary(grouping: enrollments, by: \.localId)
        return users.map {
            accountInfo($0, providers: providersByUser[$0.localId] ?? [], enrollments: enrollmentsByUser[$0.localId] ?? [], redacted: false)
        }
    }

    /// A transport whose administrator requests carry this backend's administrator credential
    /// (its admin token, else the emulator's `owner`): the operator's console on its own data.
    public func administratorTransport(exchanges: ExchangeLog = ExchangeLog()) -> InProcessTransport {
        let credential = configuration.adminToken.map(StaticAdministratorCredential.init(token:)) ?? .owner
        return InProcessTransport(handler: self, exchanges: exchanges, administrator: credential, clock: clock)
    }
}

extension AccountStore {
    /// Indexes for the operator's table: each sort column, anonymous accounts by age, providers by
    /// id (for the provider filter), and the flags the filters ask for most.
    static func registerAccountQueryMigration(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("accounts query: sort and filter indexes") { db in
            try db.execute(sql: """
                CREATE INDEX user_lastLoginAt ON user(lastLoginAt);
                CREATE INDEX user_displayName ON user(displayName);
                CREATE INDEX user_anonymous ON user(createdAt) WHERE +email IS NULL AND +phoneNumber IS NULL;
                CREATE INDEX user_disabled ON user(createdAt) WHERE disabled = 1;
                CREATE INDEX provider_providerId ON provider(providerId, localId);
                """)
        }
    }
}
