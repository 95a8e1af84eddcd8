import Foundation
import GRDB

extension RefreshTokenRecord {
    /// Ends the sessions of one account that started at or before `second` (an administrator's `validSince`).
    static func revokeAll(localId: String, startedUpTo second: Int64, in db: Database) throws {
        try RefreshTokenRecord.filter(Columns.localId == localId && Column("createdAt") <= second).updateAll(db, Columns.revoked.set(to: true))
    }
}
