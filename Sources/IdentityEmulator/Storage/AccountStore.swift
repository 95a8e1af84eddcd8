import Foundation
import GRDB

/// The SQLite database of the embedded backend (WAL, through a GRDB `DatabasePool`).
struct AccountStore: Sendable {
    let pool: DatabasePool
    let scrypt: ScryptParameters

    private static let sqliteHeader = Data("SQLite format 3\u{0}".utf8)

    /// Opens (or creates) the database. An existing file that is not SQLite is refused before
    /// SQLite touches it, so a wrong `--data` never destroys somebody's file.
    init(path: String, projectId: String) throws {
        try Self.checkExistingFile(at: path)
        do {
            var configuration = Configuration()
            configuration.foreignKeysEnabled = true
            pool = try DatabasePool(path: path, configuration: configuration)
            try Self.migrator.migrate(pool)
            scrypt = try pool.write { db in
                if let existing = try ProjectConfigRecord.fetchOne(db) { return existing.scrypt }
                let parameters = ScryptParameters.generate()
                try ProjectConfigRecord(projectId: projectId, signerKey: parameters.signerKey, saltSeparator: parameters.saltSeparator,
                                        rounds: parameters.rounds, memCost: parameters.memCost).insert(db)
                return parameters
            }
        } catch let error as DatabaseError {
            switch error.resultCode {
            case .SQLITE_NOTADB, .SQLITE_CORRUPT: throw EmbeddedBackendError.corruptDatabase(path)
            case .SQLITE_READONLY, .SQLITE_CANTOPEN, .SQLITE_PERM: throw EmbeddedBackendError.dataDirectoryNotWritable(path)
            default: throw EmbeddedBackendError.storageFailure(error.message ?? "\(error.resultCode)")
            }
        }
    }

    private static func checkExistingFile(at path: String) throws {
        guard FileManager.default.fileExists(atPath: path) else {
            // SQLite gives its WAL and shared-memory files the mode of the database file.
            try DataDirectory.createPrivateFile(at: path, contents: Data())
            return
        }
        guard let handle = FileHandle(forReadingAtPath: path) else { throw EmbeddedBackendError.dataDirectoryNotWritable(path) }
        defer { try? handle.close() }
        let header = (try? handle.read(upToCount: sqliteHeader.count)) ?? Data()
        // An empty file is what a fresh start leaves if it was interrupted; SQLite initialises it.
        guard header.isEmpty || header == sqliteHeader else { throw EmbeddedBackendError.corruptDatabase(path) }
    }

    private static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: projects, users, providers, refresh tokens, failed sign-ins") { db in
            try db.create(table: ProjectConfigRecord.databaseTableName) { t in
                t.primaryKey("id", .integer)
                t.column("projectId", .text).notNull()
                t.column("signerKey", .blob).notNull()
                t.column("saltSeparator", .blob).notNull()
                t.column("rounds", .integer).notNull()
                t.column("memCost", .integer).notNull()
            }
            try db.create(table: UserRecord.databaseTableName) { t in
                t.primaryKey("localId", .text)
                t.column("email", .text).unique()
                t.column("emailVerified", .boolean).notNull().defaults(to: false)
                t.column("displayName", .text)
                t.column("photoUrl", .text)
                t.column("phoneNumber", .text).unique()
                t.column("passwordHash", .blob)
                t.column("salt", .blob)
                t.column("passwordUpdatedAt", .integer)
                t.column("disabled", .boolean).notNull().defaults(to: false)
                t.column("customAttributes", .text)
                t.column("validSince", .integer).notNull()
                t.column("createdAt", .integer).notNull().indexed()
                t.column("lastLoginAt", .integer)
                t.column("lastRefreshAt", .integer)
            }
            try db.create(table: ProviderRecord.databaseTableName) { t in
                t.column("localId", .text).notNull().references(UserRecord.databaseTableName, onDelete: .cascade)
                t.column("providerId", .text).notNull()
                t.column("rawId", .text).notNull()
                t.column("federatedId", .text)
                t.column("email", .text)
                t.column("displayName", .text)
                t.column("photoUrl", .text)
                t.column("phoneNumber", .text)
                t.primaryKey(["localId", "providerId"])
                t.uniqueKey(["providerId", "rawId"])
            }
            try db.create(table: RefreshTokenRecord.databaseTableName) { t in
                t.primaryKey("tokenHash", .text)
                t.column("localId", .text).notNull().indexed()
                t.column("signInProvider", .text).notNull()
                t.column("authTime", .integer).notNull()
                t.column("createdAt", .integer).notNull()
                t.column("revoked", .boolean).notNull().defaults(to: false)
            }
            try db.create(table: FailedSignInRecord.databaseTableName) { t in
                t.primaryKey("localId", .text).references(UserRecord.databaseTableName, onDelete: .cascade)
                t.column("failures", .integer).notNull()
                t.column("lockedUntil", .double)
            }
        }
        migrator.registerMigration("admin: imported password hashes, email privacy setting") { db in
            try db.create(table: ImportedPasswordHashRecord.databaseTableName) { t in
                t.primaryKey("localId", .text).references(UserRecord.databaseTableName, onDelete: .cascade)
                t.column("passwordHash", .blob).notNull()
                t.column("signerKey", .blob).notNull()
                t.column("saltSeparator", .blob).notNull()
                t.column("rounds", .integer).notNull()
                t.column("memCost", .integer).notNull()
            }
            // NULL: the backend's configured default.
            try db.alter(table: ProjectConfigRecord.databaseTableName) { t in t.add(column: "emailEnumerationProtection", .boolean) }
        }
        migrator.registerMigration(FederatedSchema.migrationName, migrate: FederatedSchema.create)
        registerVerificationMigration(&migrator)
        registerAnonymousCleanupMigration(&migrator)
        return migrator
    }

    func read<T>(_ body: (Database) throws -> T) throws -> T { try pool.read(body) }
    func write<T>(_ body: (Database) throws -> T) throws -> T { try pool.write(body) }
}

extension UserRecord {
    static func find(email: String, in db: Database) throws -> UserRecord? {
        try UserRecord.filter(Columns.email == email).fetchOne(db)
    }

    func providers(in db: Database) throws -> [ProviderRecord] {
        try ProviderRecord.filter(ProviderRecord.Columns.localId == localId).order(ProviderRecord.Columns.providerId).fetchAll(db)
    }

    /// No email, no phone, no linked provider: what Firebase calls an anonymous account.
    func isAnonymous(providers: [ProviderRecord]) -> Bool {
        email == nil && phoneNumber == nil && providers.isEmpty
    }
}

extension RefreshTokenRecord {
    /// Ends every session of the account (password change, email change, disable, delete).
    static func revokeAll(localId: String, in db: Database) throws {
        try RefreshTokenRecord.filter(Columns.localId == localId).updateAll(db, Columns.revoked.set(to: true))
    }
}
