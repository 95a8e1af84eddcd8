import Foundation
import GRDB

/// An `mfaPendingCredential` that completed its sign-in, known by its SHA-256 until it would have
/// expired anyway: a pending credential signs in once.
struct SpentPendingCredentialRecord: Codable, FetchableRecord, PersistableRecord, Sendable {
    static let databaseTableName = "spentPendingCredential"
    var tokenHash: String
    /// Seconds since 1970.
    var expiresAt: Int64

    enum Columns {
        static let expiresAt = Column(CodingKeys.expiresAt)
    }

    static let migrationName = "v5: spent mfaPendingCredentials"

    static func migrate(_ db: Database) throws {
        try db.create(table: databaseTableName) { t in
            t.primaryKey("tokenHash", .text)
            t.column("expiresAt", .integer).notNull().indexed()
        }
    }

    static func isSpent(_ credential: String, in db: Database) throws -> Bool {
        try exists(db, key: EmbeddedBackend.sha256Hex(credential))
    }

    static func spend(_ credential: String, expiresAt: Int64, now: Int64, in db: Database) throws {
        try filter(Columns.expiresAt <= now).deleteAll(db)
        guard try !isSpent(credential, in: db) else { throw BackendFailure.invalidMfaPendingCredential }
        try SpentPendingCredentialRecord(tokenHash: EmbeddedBackend.sha256Hex(credential), expiresAt: expiresAt).insert(db)
    }
}
