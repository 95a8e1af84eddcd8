import Foundation
import GRDB

/// One row per data directory: the project's password-hash parameters.
struct ProjectConfigRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "projectConfig"
    var id: Int64 = 1
    var projectId: String
    var signerKey: Data
    var saltSeparator: Data
    var rounds: Int
    var memCost: Int

    var scrypt: ScryptParameters {
        ScryptParameters(signerKey: signerKey, saltSeparator: saltSeparator, rounds: rounds, memCost: memCost)
    }
}

/// An account as the backend stores it, a row of the `user` table (the operator's view of one is
/// AuthAdmin's `UserRecord`).
struct StoredAccount: Codable, FetchableRecord, PersistableRecord, Sendable {
    static let databaseTableName = "user"
    /// Firebase's limit on a uid, which a custom token or an administrator may choose.
    static let maximumLocalIdLength = 128
    var localId: String
    /// Trimmed and lower-cased, so that matching is case-insensitive.
    var email: String?
    var emailVerified: Bool = false
    var displayName: String?
    var photoUrl: String?
    var phoneNumber: String?
    var passwordHash: Data?
    var salt: Data?
    /// Milliseconds since 1970.
    var passwordUpdatedAt: Int64?
    var disabled: Bool = false
    var customAttributes: String?
    /// Seconds since 1970: ID tokens issued before this are no longer accepted.
    var validSince: Int64
    /// The revocation's millisecond, for ID tokens issued in `validSince`'s own second (whose `iat` alone
    /// cannot say whether they came before it); 0 when no revocation fell in that second.
    var validSinceMilliseconds: Int64 = 0
    /// Milliseconds since 1970.
    var createdAt: Int64
    var lastLoginAt: Int64?
    var lastRefreshAt: Int64?
    /// Signed in with a custom token at least once (`customAuth`): not anonymous, though it has no provider.
    var customAuth: Bool = false
    /// Signed in with an email link at least once: `emailLink` is one of its sign-in methods.
    var emailLinkSignin: Bool = false
    /// The email before the first change, where a `RECOVER_EMAIL` message goes (`initialEmail`).
    var initialEmail: String?
    /// Set once per account instance (`newSessionSeal()`), and in each of its refresh tokens
    /// (`AccountSessions`). No default value: one would be drawn again for every row read.
    var sessionSeal: Int64

    /// A new account instance's seal: any value another instance of its localId is unlikely to have had.
    static func newSessionSeal() -> Int64 { .random(in: .min ... .max) }

    enum Columns {
        static let localId = Column(CodingKeys.localId)
        static let email = Column(CodingKeys.email)
        static let phoneNumber = Column(CodingKeys.phoneNumber)
        static let createdAt = Column(CodingKeys.createdAt)
    }
}

// Rows are read and written by column, not through `Codable`: GRDB's decoder would be most of the time of
// listing 100,000 accounts (`batchGet`), and of every lookup. A new column needs its line in both
// (a property with a default value would otherwise keep the default silently).
extension StoredAccount: ColumnRecord {
    init(row: Row) throws {
        localId = row["localId"]
        email = row["email"]
        emailVerified = row["emailVerified"]
        displayName = row["displayName"]
        photoUrl = row["photoUrl"]
        phoneNumber = row["phoneNumber"]
        passwordHash = row["passwordHash"]
        salt = row["salt"]
        passwordUpdatedAt = row["passwordUpdatedAt"]
        disabled = row["disabled"]
        customAttributes = row["customAttributes"]
        validSince = row["validSince"]
        validSinceMilliseconds = row["validSinceMilliseconds"]
        createdAt = row["createdAt"]
        lastLoginAt = row["lastLoginAt"]
        lastRefreshAt = row["lastRefreshAt"]
        customAuth = row["customAuth"]
        emailLinkSignin = row["emailLinkSignin"]
        initialEmail = row["initialEmail"]
        sessionSeal = row["sessionSeal"]
    }

    /// Written by column too: GRDB's `Encodable` path runs an encoder for every row a sign-up writes.
    static let columnNames = [
        "localId", "email", "emailVerified", "displayName", "photoUrl", "phoneNumber", "passwordHash", "salt", "passwordUpdatedAt",
        "disabled", "customAttributes", "validSince", "validSinceMilliseconds", "createdAt", "lastLoginAt", "lastRefreshAt", "customAuth", "emailLinkSignin",
        "initialEmail", "sessionSeal",
    ]
    static let insertSQL = makeInsertSQL()

    /// In the order of `columnNames`.
    var columnValues: [(any DatabaseValueConvertible)?] {
        [localId, email, emailVerified, displayName, photoUrl, phoneNumber, passwordHash, salt, passwordUpdatedAt, disabled,
         customAttributes, validSince, validSinceMilliseconds, createdAt, lastLoginAt, lastRefreshAt, customAuth, emailLinkSignin, initialEmail, sessionSeal]
    }
}

/// A record written column by column, from one list of its columns: every sign-up inserts a user
/// through a statement prepared once per connection (GRDB's `insert` looked up
/// the table's columns and built its statement anew each time).
protocol ColumnRecord: PersistableRecord {
    static var columnNames: [String] { get }
    /// `makeInsertSQL()`, made once.
    static var insertSQL: String { get }
    /// In the order of `columnNames`.
    var columnValues: [(any DatabaseValueConvertible)?] { get }
}

extension ColumnRecord {
    func encode(to container: inout PersistenceContainer) {
        for (name, value) in zip(Self.columnNames, columnValues) { container[name] = value }
    }

    static func makeInsertSQL() -> String {
        let placeholders = Array(repeating: "?", count: columnNames.count).joined(separator: ", ")
        return "INSERT INTO \(databaseTableName) (\(columnNames.joined(separator: ", "))) VALUES (\(placeholders))"
    }

    func insertPrepared(_ db: Database) throws {
        try db.cachedStatement(sql: Self.insertSQL).execute(arguments: StatementArguments(columnValues))
    }
}

/// A linked sign-in provider (`providerUserInfo[]`).
struct ProviderRecord: Codable, FetchableRecord, PersistableRecord, Sendable {
    static let databaseTableName = "provider"
    var localId: String
    var providerId: String
    var rawId: String
    var federatedId: String?
    var email: String?
    var displayName: String?
    var photoUrl: String?
    var phoneNumber: String?

    enum Columns {
        static let localId = Column(CodingKeys.localId)
        static let providerId = Column(CodingKeys.providerId)
    }
}

extension ProviderRecord {
    init(row: Row) throws {
        localId = row["localId"]
        providerId = row["providerId"]
        rawId = row["rawId"]
        federatedId = row["federatedId"]
        email = row["email"]
        displayName = row["displayName"]
        photoUrl = row["photoUrl"]
        phoneNumber = row["phoneNumber"]
    }

    func encode(to container: inout PersistenceContainer) {
        container["localId"] = localId
        container["providerId"] = providerId
        container["rawId"] = rawId
        container["federatedId"] = federatedId
        container["email"] = email
        container["displayName"] = displayName
        container["photoUrl"] = photoUrl
        container["phoneNumber"] = phoneNumber
    }
}

/// A refresh token issued before tokens carried their session (`RefreshTokenSession`), known only by its
/// SHA-256 so that a copy of the database cannot resume sessions. No row is written any more; the rows
/// there still refresh their sessions and are still revoked. They outlive their user; a token of a
/// deleted account answers `INVALID_REFRESH_TOKEN`, as in the emulator.
struct RefreshTokenRecord: Codable, FetchableRecord, PersistableRecord, Sendable {
    static let databaseTableName = "refreshToken"
    var tokenHash: String
    var localId: String
    var signInProvider: String
    /// Seconds since 1970 of the sign-in that started the session; kept across refreshes.
    var authTime: Int64
    var createdAt: Int64
    var revoked: Bool = false
    /// `phone` or `totp` when the session was started with a second factor, and which enrollment.
    var secondFactor: String?
    var secondFactorIdentifier: String?
    /// The developer claims of a custom token (a JSON object), in every ID token of the session.
    var extraClaims: String?

    enum Columns {
        static let localId = Column(CodingKeys.localId)
        static let revoked = Column(CodingKeys.revoked)
    }
}

/// Password sign-in attempts for one email, and the lock they caused. Kept per email, for emails of
/// no account too, so that a lock says nothing about whether the account exists. The email is the key
/// as its SHA-256; the address itself is kept only once it is locked, so that an administrator can
/// list the lock-outs, and goes with the row.
struct FailedSignInRecord: Codable, FetchableRecord, PersistableRecord, Sendable {
    static let databaseTableName = "passwordAttempt"
    /// SHA-256 (hex) of the normalized email.
    var emailHash: String
    var failures: Int
    /// Seconds since 1970.
    var lockedUntil: Double?
    /// Seconds since 1970; attempts older than the lockout duration are forgotten.
    var lastAttemptAt: Double
    /// The normalized address, while it is locked; nil for a lock older than the column.
    var email: String?

    enum Columns {
        static let lockedUntil = Column(CodingKeys.lockedUntil)
        static let lastAttemptAt = Column(CodingKeys.lastAttemptAt)
        static let email = Column(CodingKeys.email)
    }

    static let lockedEmailMigrationName = "v5: a locked email's address, for the list of lock-outs"

    static func addLockedEmail(_ db: Database) throws {
        try db.alter(table: databaseTableName) { t in t.add(column: "email", .text) }
        try db.create(index: "passwordAttempt_locked", on: databaseTableName, columns: ["email"], condition: Column("lockedUntil") != nil)
    }

    static let migrationName = "v4: password attempts counted per email (known or not), before the check"

    static func migrate(_ db: Database) throws {
        try db.drop(table: "failedSignIn")
        try db.create(table: databaseTableName) { t in
            t.primaryKey("emailHash", .text)
            t.column("failures", .integer).notNull()
            t.column("lockedUntil", .double)
            t.column("lastAttemptAt", .double).notNull().indexed()
        }
    }

    static func emailHash(_ email: String) -> String { EmbeddedBackend.sha256Hex(email) }

    /// A successful sign-in (or a password reset) clears the count of its email.
    static func clear(email: String?, in db: Database) throws {
        guard let email else { return }
        _ = try deleteOne(db, key: emailHash(email))
    }
}

extension StoredAccount {
    static let revocationMillisecondsMigrationName = "revocations to the millisecond"

    static func addRevocationMilliseconds(_ db: Database) throws {
        try db.alter(table: databaseTableName) { t in t.add(column: "validSinceMilliseconds", .integer).notNull().defaults(to: 0) }
    }

    /// Ends every ID token issued before `milliseconds` (since 1970), those of the same second included.
    mutating func revokeTokens(at milliseconds: Int64) {
        validSince = milliseconds / 1000
        validSinceMilliseconds = milliseconds
    }

    /// Whether an ID token issued at `seconds` (its `iat`), `milliseconds` to the finer grain, came at or
    /// after the last revocation. A token without the finer time counts as issued at the start of its second.
    func acceptsToken(issuedAt seconds: Int64, milliseconds: Int64?) -> Bool {
        seconds > validSince || (seconds == validSince && (milliseconds ?? seconds * 1000) >= validSinceMilliseconds)
    }
}

