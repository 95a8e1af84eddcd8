import GRDB

extension AccountStore {
    static func registerPasswordlessMigration(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v3: custom tokens, email links, initial email") { db in
            try db.alter(table: StoredAccount.databaseTableName) { t in
                t.add(column: "customAuth", .boolean).notNull().defaults(to: false)
                t.add(column: "emailLinkSignin", .boolean).notNull().defaults(to: false)
                t.add(column: "initialEmail", .text)
            }
            try db.alter(table: RefreshTokenRecord.databaseTableName) { t in t.add(column: "extraClaims", .text) }
            // An email sign-in link may go to an address with no account yet: `localId` becomes optional.
            // SQLite cannot relax a column, so the table is rebuilt.
            try db.create(table: "oobCode_v3") { t in
                t.primaryKey("oobCode", .text)
                t.column("requestType", .text).notNull()
                t.column("email", .text).notNull()
                t.column("newEmail", .text)
                t.column("localId", .text).references(StoredAccount.databaseTableName, onDelete: .cascade)
                t.column("continueUrl", .text)
                t.column("createdAt", .integer).notNull()
                t.column("expiresAt", .integer).notNull()
            }
            try db.execute(sql: "INSERT INTO oobCode_v3 SELECT oobCode, requestType, email, newEmail, localId, continueUrl, createdAt, expiresAt FROM \(OobCodeRecord.databaseTableName)")
            try db.drop(table: OobCodeRecord.databaseTableName)
            try db.rename(table: "oobCode_v3", to: OobCodeRecord.databaseTableName)
            try db.create(indexOn: OobCodeRecord.databaseTableName, columns: ["createdAt"])
        }
    }
}
