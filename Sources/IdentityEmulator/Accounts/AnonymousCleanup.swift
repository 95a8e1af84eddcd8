import Foundation
import GRDB

extension EmbeddedBackend {
    /// Deletes anonymous accounts (no email, no phone, no linked provider) created longer ago than
    /// `anonymousAccountLifetime`, as Identity Platform's auto clean-up does. Upgraded accounts are kept.
    @discardableResult
    public func purgeExpiredAnonymousUsers() throws -> Int {
        let cutoff = nowMilliseconds - Int64(configuration.anonymousAccountLifetime * 1000)
        let purged = try store.write { db -> Int in
            let localIds = try String.fetchAll(db, sql: """
                SELECT localId FROM user
                WHERE email IS NULL AND phoneNumber IS NULL AND NOT customAuth AND createdAt < ?
                  AND NOT EXISTS (SELECT 1 FROM provider WHERE provider.localId = user.localId)
                """, arguments: [cutoff])
            for localId in localIds {
                try RefreshTokenRecord.revokeAll(localId: localId, in: db)
                try UserRecord.deleteOne(db, key: localId)
            }
            return localIds.count
        }
        if purged > 0 { logger.info("purged expired anonymous accounts", metadata: ["count": "\(purged)"]) }
        return purged
    }
}
