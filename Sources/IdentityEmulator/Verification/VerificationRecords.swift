import Foundation
import GRDB

// What email actions, SMS verifications and second factors leave in the database.

/// An enrolled second factor (`mfaInfo[]`): a phone number or a TOTP secret.
struct MfaEnrollmentRecord: Codable, FetchableRecord, PersistableRecord, Sendable {
    static let databaseTableName = "mfaEnrollment"
    enum Factor: String, Codable, Sendable { case phone, totp }

    var mfaEnrollmentId: String
    var localId: String
    var factor: Factor
    var displayName: String?
    var phoneNumber: String?
    var totpSecret: Data?
    /// Milliseconds since 1970.
    var enrolledAt: Int64
    /// The last TOTP time step accepted: a code is never accepted twice (RFC 6238 §5.2).
    var lastTotpStep: Int64?
    /// Consecutive wrong TOTP codes, and the lock they caused (seconds since 1970).
    var failedAttempts: Int = 0
    var lockedUntil: Double?

    enum Columns {
        static let localId = Column(CodingKeys.localId)
        static let enrolledAt = Column(CodingKeys.enrolledAt)
    }
}

/// An email action waiting to be used: single-use, expiring.
struct OobCodeRecord: Codable, FetchableRecord, PersistableRecord, Sendable {
    static let databaseTableName = "oobCode"
    var oobCode: String
    var requestType: String
    var email: String
    var newEmail: String?
    /// The account it was sent for; none for an email sign-in link to an address without an account yet.
    var localId: String?
    var continueUrl: String?
    /// Milliseconds since 1970; the outbox lists codes in this order.
    var createdAt: Int64
    /// Seconds since 1970.
    var expiresAt: Int64

    enum Columns {
        static let createdAt = Column(CodingKeys.createdAt)
        static let expiresAt = Column(CodingKeys.expiresAt)
    }
}

/// A code texted to a phone, bound to what it was sent for: single-use, expiring, a few tries.
struct SmsVerificationRecord: Codable, FetchableRecord, PersistableRecord, Sendable {
    static let databaseTableName = "smsVerification"
    enum Purpose: String, Codable, Sendable {
        /// Phone sign-in or linking (`sendVerificationCode`).
        case phoneSignIn
        /// `mfaEnrollment:start` for `localId`.
        case enrollment
        /// `mfaSignIn:start` for `localId` and `mfaEnrollmentId`.
        case multiFactorSignIn
    }

    var sessionInfo: String
    var phoneNumber: String
    var code: String
    var purpose: Purpose
    var localId: String?
    var mfaEnrollmentId: String?
    var createdAt: Int64
    var expiresAt: Int64
    var failedAttempts: Int = 0

    enum Columns {
        static let createdAt = Column(CodingKeys.createdAt)
        static let expiresAt = Column(CodingKeys.expiresAt)
    }
}

/// A TOTP secret handed out by `mfaEnrollment:start`, waiting for its first code.
struct TotpEnrollmentSessionRecord: Codable, FetchableRecord, PersistableRecord, Sendable {
    static let databaseTableName = "totpEnrollmentSession"
    var sessionInfo: String
    var localId: String
    var secret: Data
    var expiresAt: Int64
    var failedAttempts: Int = 0
}

/// Proof that a phone number was verified, handed back when linking finds it on another account.
struct PhoneProofRecord: Codable, FetchableRecord, PersistableRecord, Sendable {
    static let databaseTableName = "phoneProof"
    var temporaryProof: String
    var phoneNumber: String
    var expiresAt: Int64
}

extension MfaEnrollmentRecord {
    static let idsPerAccountMigrationName = "second factors: enrollment ids unique per account"

    /// An enrollment id names a factor of its account, not of the project: the emulator lets two accounts
    /// have a factor with the same id (an administrator may set it), so the key becomes (localId, id).
    static func makeIdsPerAccount(_ db: Database) throws {
        try db.create(table: "mfaEnrollmentPerAccount") { t in
            t.column("mfaEnrollmentId", .text).notNull()
            t.column("localId", .text).notNull().references(StoredAccount.databaseTableName, onDelete: .cascade)
            t.column("factor", .text).notNull()
            t.column("displayName", .text)
            t.column("phoneNumber", .text)
            t.column("totpSecret", .blob)
            t.column("enrolledAt", .integer).notNull()
            t.column("lastTotpStep", .integer)
            t.column("failedAttempts", .integer).notNull().defaults(to: 0)
            t.column("lockedUntil", .double)
            t.primaryKey(["localId", "mfaEnrollmentId"])
            t.uniqueKey(["localId", "phoneNumber"])
        }
        let columns = "mfaEnrollmentId, localId, factor, displayName, phoneNumber, totpSecret, enrolledAt, lastTotpStep, failedAttempts, lockedUntil"
        try db.execute(sql: "INSERT INTO mfaEnrollmentPerAccount (\(columns)) SELECT \(columns) FROM \(databaseTableName)")
        try db.drop(table: databaseTableName)
        try db.rename(table: "mfaEnrollmentPerAccount", to: databaseTableName)
    }

    /// The factor `mfaEnrollmentId` of the account `localId`.
    static func find(_ mfaEnrollmentId: String, of localId: String, in db: Database) throws -> MfaEnrollmentRecord? {
        try fetchOne(db, key: ["localId": localId, "mfaEnrollmentId": mfaEnrollmentId])
    }
}

extension AccountStore {
    static func registerVerificationMigration(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v2: email actions, SMS verifications, second factors, phone proofs") { db in
            try db.create(table: MfaEnrollmentRecord.databaseTableName) { t in
                t.primaryKey("mfaEnrollmentId", .text)
                t.column("localId", .text).notNull().indexed().references(StoredAccount.databaseTableName, onDelete: .cascade)
                t.column("factor", .text).notNull()
                t.column("displayName", .text)
                t.column("phoneNumber", .text)
                t.column("totpSecret", .blob)
                t.column("enrolledAt", .integer).notNull()
                t.column("lastTotpStep", .integer)
                t.column("failedAttempts", .integer).notNull().defaults(to: 0)
                t.column("lockedUntil", .double)
                t.uniqueKey(["localId", "phoneNumber"])
            }
            try db.create(table: OobCodeRecord.databaseTableName) { t in
                t.primaryKey("oobCode", .text)
                t.column("requestType", .text).notNull()
                t.column("email", .text).notNull()
                t.column("newEmail", .text)
                t.column("localId", .text).notNull().references(StoredAccount.databaseTableName, onDelete: .cascade)
                t.column("continueUrl", .text)
                t.column("createdAt", .integer).notNull().indexed()
                t.column("expiresAt", .integer).notNull()
            }
            try db.create(table: SmsVerificationRecord.databaseTableName) { t in
                t.primaryKey("sessionInfo", .text)
                t.column("phoneNumber", .text).notNull()
                t.column("code", .text).notNull()
                t.column("purpose", .text).notNull()
                t.column("localId", .text).references(StoredAccount.databaseTableName, onDelete: .cascade)
                t.column("mfaEnrollmentId", .text)
                t.column("createdAt", .integer).notNull().indexed()
                t.column("expiresAt", .integer).notNull()
                t.column("failedAttempts", .integer).notNull().defaults(to: 0)
            }
            try db.create(table: TotpEnrollmentSessionRecord.databaseTableName) { t in
                t.primaryKey("sessionInfo", .text)
                t.column("localId", .text).notNull().references(StoredAccount.databaseTableName, onDelete: .cascade)
                t.column("secret", .blob).notNull()
                t.column("expiresAt", .integer).notNull()
                t.column("failedAttempts", .integer).notNull().defaults(to: 0)
            }
            try db.create(table: PhoneProofRecord.databaseTableName) { t in
                t.primaryKey("temporaryProof", .text)
                t.column("phoneNumber", .text).notNull()
                t.column("expiresAt", .integer).notNull()
            }
            // A session started with a second factor keeps it in every refreshed ID token.
            try db.alter(table: RefreshTokenRecord.databaseTableName) { t in
                t.add(column: "secondFactor", .text)
                t.add(column: "secondFactorIdentifier", .text)
            }
        }
    }
}

extension Database {
    /// Drops email actions, SMS verifications and TOTP sessions an hour after they expired (until then a late
    /// attempt is told it expired rather than that it never existed), and expired phone proofs.
    func deleteExpiredVerifications(now: Int64) throws {
        try OobCodeRecord.filter(OobCodeRecord.Columns.expiresAt <= now - 3600).deleteAll(self)
        try SmsVerificationRecord.filter(SmsVerificationRecord.Columns.expiresAt <= now - 3600).deleteAll(self)
        try execute(sql: "DELETE FROM totpEnrollmentSession WHERE expiresAt <= ?", arguments: [now - 3600])
        try execute(sql: "DELETE FROM phoneProof WHERE expiresAt <= ?", arguments: [now])
    }
}
