import Foundation
import GRDB

extension EmbeddedBackend {
    /// Deletes anonymous accounts (no email, no phone, no linked provider) created longer ago than
    /// `anonymousAccountLifetime`, as Identity Platform's auto clean-up does. Upgraded accounts are kept.
    @discardableResult
    public func purgeExpiredAnonymousUsers() throws -> Int {
        let cutoff = nowMilliseconds - Int64(configuration.anonymousAccountLifetime * 1000)
        // Looked for first: a start with nothing to purge writes nothing (the files stay as stamped intact).
        guard try store.readOnWriter({ db in try String.fetchOne(db, sql: Self.expiredAnonymousAccounts, arguments: [cutoff]) }) != nil else {
            return 0
        }
        let purged = try store.writeBlocking { db -> Int in
            let localIds = try String.fetchAll(db, sql: Self.expiredAnonymousAccounts, arguments: [cutoff])
            for localId in localIds {
                try AccountSessions.endAll(ofDeleted: localId, in: db)
                try StoredAccount.deleteOne(db, key: localId)
            }
            return localIds.count
        }
        if purged > 0 { logger.info("purged expired anonymous accounts", metadata: ["count": "\(purged)"]) }
        return purged
    }

    /// Runs at every start, so it reads only anonymous candidates: through their own partial
    /// index, never the phone number's (where "no number" is almost every account). SQLite uses a
    /// partial index only for a query that repeats its condition as written, `+` and all.
    static let expiredAnonymousAccounts = """
        SELECT localId FROM user INDEXED BY \(AccountStore.anonymousCreatedAtIndex)
        WHERE +email IS NULL AND +phoneNumber IS NULL AND NOT customAuth AND createdAt < ?
          AND NOT EXISTS (SELECT 1 FROM provider WHERE provider.localId = user.localId)
        """
}

extension AccountStore {
    /// The operator's table's index of anonymous accounts by age (`registerAccountQueryMigration`).
    static let anonymousCreatedAtIndex = "user_anonymous"

    static func registerAnonymousCleanupMigration(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("anonymous clean-up: accounts without email or phone, by creation") { db in
            try db.execute(sql: """
                CREATE INDEX user_anonymous_createdAt ON user(createdAt) WHERE email IS NULL AND phoneNumber IS NULL
                """)
        }
        // It repeated `user_anonymous` (the `+` changes no row), and every anonymous sign-up wrote both.
        migrator.registerMigration("anonymous clean-up: the operator's table's index serves it") { db in
            try db.execute(sql: "DROP INDEX user_anonymous_createdAt")
        }
    }
}
