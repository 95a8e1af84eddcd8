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

struct UserRecord: Codable, FetchableRecord, PersistableRecord, Sendable {
    static let databaseTableName = "user"
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
    /// Milliseconds since 1970.
    var createdAt: Int64
    var lastLoginAt: Int64?
    var lastRefreshAt: Int64?

    enum Columns {
        static let localId = Column(CodingKeys.localId)
        static let email = Column(CodingKeys.email)
        static let phoneNumber = Column(CodingKeys.phoneNumber)
        static let createdAt = Column(CodingKeys.createdAt)
    }
}

// Rows are read by column, not through `Decodable`: GRDB's decoder was most of the time of
// listing 100,000 accounts (`batchGet`), and of every lookup.
extension UserRecord {
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
        createdAt = row["createdAt"]
        lastLoginAt = row["lastLoginAt"]
        lastRefreshAt = row["lastRefreshAt"]
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
}

/// A refresh token, known only by its SHA-256 so that a copy of the database cannot resume sessions.
/// Rows outlive their user so that a token of a deleted account answers `TOKEN_EXPIRED`, not `INVALID_REFRESH_TOKEN`.
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

    enum Columns {
        static let localId = Column(CodingKeys.localId)
        static let revoked = Column(CodingKeys.revoked)
    }
}

/// Consecutive wrong passwords for one account, and the lock they caused.
struct FailedSignInRecord: Codable, FetchableRecord, PersistableRecord, Sendable {
    static let databaseTableName = "failedSignIn"
    var localId: String
    var failures: Int
    /// Seconds since 1970.
    var lockedUntil: Double?
}
