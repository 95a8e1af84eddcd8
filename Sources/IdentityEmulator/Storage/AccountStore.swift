import Foundation
import GRDB
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The SQLite database of the embedded backend, in WAL mode: a GRDB `DatabasePool` writes, `ReadConnections` read.
struct AccountStore: Sendable {
    let pool: DatabasePool
    private let readers: ReadConnections
    private let commits = GroupCommit()
    private let checkpointer: LogCheckpointer
    let scrypt: ScryptParameters
    /// The project the data belongs to: its tokens, links and outbox name it.
    let projectId: String

    private static let sqliteHeader = Data("SQLite format 3\u{0}".utf8)
    /// How long a write waits for another process's (a second serve, a console beside a serve).
    static let busyTimeout: TimeInterval = 5

    /// Opens (or creates) the database. An existing file is checked before anything writes to it —
    /// SQLite's header, an intact structure, a schema this version knows, the project it belongs
    /// to — so a wrong `--data`, a damaged file or a newer AuthDeck's database is refused untouched.
    /// `projectId` nil: the data's own project (`defaultProjectId` for a new one).
    init(path: String, projectId requested: String?, keysExist: Bool) throws {
        do {
            let stored = try Self.inspectExistingFile(at: path, keysExist: keysExist)
            if let stored, let requested, stored != requested {
                throw EmbeddedBackendError.projectMismatch(path: path, stored: stored, requested: requested)
            }
            var configuration = Configuration()
            configuration.foreignKeysEnabled = true
            configuration.busyMode = .timeout(Self.busyTimeout)
            pool = try DatabasePool(path: path, configuration: configuration)
            // The pool is the writer; reads have connections of their own (`ReadConnections`).
            readers = ReadConnections(path: path, busyTimeout: Self.busyTimeout)
            // Reads first: a start that changes nothing writes nothing, and leaves the files as stamped.
            // They use the writer's connection, as `readOnWriter` does and for its reason.
            if try !pool.writeWithoutTransaction(Self.migrator.hasCompletedMigrations) {
                try Self.migrator.migrate(pool)
            }
            if let existing = try pool.writeWithoutTransaction({ db in try ProjectConfigRecord.fetchOne(db) }) {
                (scrypt, projectId) = (existing.scrypt, existing.projectId)
            } else {
                (scrypt, projectId) = try pool.write { db in
                    if let existing = try ProjectConfigRecord.fetchOne(db) { return (existing.scrypt, existing.projectId) }
                    let parameters = ScryptParameters.generate()
                    let projectId = requested ?? EmbeddedBackendConfiguration.defaultProjectId
                    try ProjectConfigRecord(projectId: projectId, signerKey: parameters.signerKey, saltSeparator: parameters.saltSeparator,
                                            rounds: parameters.rounds, memCost: parameters.memCost).insert(db)
                    return (parameters, projectId)
                }
            }
            if let requested, projectId != requested {
                // Another process created the project between the check and the write.
                throw EmbeddedBackendError.projectMismatch(path: path, stored: projectId, requested: requested)
            }
            // Before anything is answered: from here on, losing this database is refused, never taken for a first start.
            if !FirstStartMarker.exists(forDatabaseAt: path) {
                try FirstStartMarker.record(forDatabaseAt: path, projectId: projectId)
            }
            // Once the start is done (its migrations checkpoint as SQLite does by itself), so that a start that
            // fails never leaves the checkpointer's thread behind.
            checkpointer = LogCheckpointer(path: path)
            try pool.writeWithoutTransaction { [checkpointer] db in
                checkpointer.install(on: db.sqliteConnection)
                // `GroupCommit` runs each write in a savepoint, and SQLite keeps what a savepoint would
                // restore in a statement journal: past 64 KiB, a temporary file that each batch created,
                // wrote and deleted. In memory it is a copy per page.
                try db.execute(sql: "PRAGMA temp_store = MEMORY")
            }
        } catch let error as DatabaseError {
            throw Self.startupError(error, path: path)
        }
    }

    private static func startupError(_ error: DatabaseError, path: String) -> EmbeddedBackendError {
        switch error.resultCode {
        case .SQLITE_NOTADB, .SQLITE_CORRUPT: .corruptDatabase(path)
        case .SQLITE_READONLY, .SQLITE_CANTOPEN, .SQLITE_PERM: .databaseNotWritable(path)
        default: .storageFailure(error.message ?? "\(error.resultCode)")
        }
    }

    /// Checks an existing database without writing to it and returns its project id; creates an
    /// empty owner-only file when there is none (SQLite gives its WAL and shared-memory files the
    /// mode of the database file).
    private static func inspectExistingFile(at path: String, keysExist: Bool) throws -> String? {
        let firstStartDone = FirstStartMarker.exists(forDatabaseAt: path)
        guard FileManager.default.fileExists(atPath: path) else {
            guard !firstStartDone else { throw EmbeddedBackendError.missingDatabase(path) }
            try BackendFiles.createPrivateFile(at: path, contents: Data())
            return nil
        }
        guard access(path, R_OK | W_OK) == 0 else { throw EmbeddedBackendError.databaseNotWritable(path) }
        guard let handle = FileHandle(forReadingAtPath: path) else { throw EmbeddedBackendError.databaseNotWritable(path) }
        let header = (try? handle.read(upToCount: sqliteHeader.count)) ?? Data()
        try? handle.close()
        if header.isEmpty {
            // Only a first start that was interrupted leaves an empty file and no marker. The keys count
            // too for a data directory from before the marker: they were made after its first start.
            guard !firstStartDone, !keysExist else { throw EmbeddedBackendError.emptiedDatabase(path) }
            return nil
        }
        guard header == sqliteHeader else { throw EmbeddedBackendError.corruptDatabase(path) }
        // Taken before the check, so that a write meanwhile makes the next start check again.
        let stamp = IntegrityStamp.current(databaseAt: path)
        let knownIntact = stamp != nil && stamp == IntegrityStamp.stored(forDatabaseAt: path)
        // Read-only: the check never writes, not even the checkpoint SQLite makes when a connection closes.
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(busyTimeout)
        let queue = try DatabaseQueue(path: path, configuration: configuration)
        defer { try? queue.close() }
        let projectId = try queue.read { db -> String? in
            if !knownIntact {
                let check = try String.fetchAll(db, sql: "PRAGMA quick_check")
                guard check == ["ok"] else { throw EmbeddedBackendError.corruptDatabase(path) }
            }
            guard try !migrator.hasBeenSuperseded(db) else { throw EmbeddedBackendError.newerDatabase(path) }
            guard try db.tableExists(ProjectConfigRecord.databaseTableName) else { return nil }
            return try String.fetchOne(db, sql: "SELECT projectId FROM \(ProjectConfigRecord.databaseTableName) WHERE id = 1")
        }
        if !knownIntact { stamp?.store(forDatabaseAt: path) }
        return projectId
    }

    /// Checkpoints the log into the database and closes it, then stamps the files it leaves as
    /// intact, so that the next start need not read them all. The checkpoint is explicit: GRDB
    /// closes its writer before its readers, so SQLite's own checkpoint at the last close never runs
    /// once a read has happened.
    func close() throws {
        checkpointer.stop()
        _ = try pool.writeWithoutTransaction { db in try db.checkpoint(.truncate) }
        // A read-only connection that closes last cannot remove the log: the readers go first.
        readers.close()
        try pool.close()
        IntegrityStamp.current(databaseAt: pool.path)?.store(forDatabaseAt: pool.path)
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
            try db.create(table: StoredAccount.databaseTableName) { t in
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
                t.column("localId", .text).notNull().references(StoredAccount.databaseTableName, onDelete: .cascade)
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
            // Replaced by `FailedSignInRecord`'s table in v4.
            try db.create(table: "failedSignIn") { t in
                t.primaryKey("localId", .text).references(StoredAccount.databaseTableName, onDelete: .cascade)
                t.column("failures", .integer).notNull()
                t.column("lockedUntil", .double)
            }
        }
        migrator.registerMigration("admin: imported password hashes, email privacy setting") { db in
            try db.create(table: ImportedPasswordHashRecord.databaseTableName) { t in
                t.primaryKey("localId", .text).references(StoredAccount.databaseTableName, onDelete: .cascade)
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
        migrator.registerMigration(FederatedSchema.ownershipMigrationName, migrate: FederatedSchema.addOwnership)
        migrator.registerMigration(FailedSignInRecord.migrationName, migrate: FailedSignInRecord.migrate)
        migrator.registerMigration(SpentPendingCredentialRecord.migrationName, migrate: SpentPendingCredentialRecord.migrate)
        registerPasswordlessMigration(&migrator)
        registerAccountQueryMigration(&migrator)
        registerAnonymousCleanupMigration(&migrator)
        migrator.registerMigration(AccountSessions.migrationName, migrate: AccountSessions.migrate)
        migrator.registerMigration(MfaEnrollmentRecord.idsPerAccountMigrationName, migrate: MfaEnrollmentRecord.makeIdsPerAccount)
        migrator.registerMigration(StoredAccount.revocationMillisecondsMigrationName, migrate: StoredAccount.addRevocationMilliseconds)
        migrator.registerMigration(FailedSignInRecord.lockedEmailMigrationName, migrate: FailedSignInRecord.addLockedEmail)
        return migrator
    }

    func read<T>(_ body: (Database) throws -> T) throws -> T { try readers.read(body) }

    /// A read on the writer's connection, outside any transaction: the start's few reads open no
    /// reader connection of their own.
    func readOnWriter<T>(_ body: (Database) throws -> T) throws -> T { try pool.writeWithoutTransaction(body) }
    /// A transaction, shared with the writes that arrive beside it (`GroupCommit`).
    func write<T>(_ body: (Database) throws -> T) async throws -> T { try await commits.write(on: pool, body) }
    /// `write` for a caller that is not a request: blocks the calling thread until the commit.
    func writeBlocking<T>(_ body: (Database) throws -> T) throws -> T { try commits.writeBlocking(on: pool, body) }
}

extension StoredAccount {
    static func find(email: String, in db: Database) throws -> StoredAccount? {
        try StoredAccount.filter(Columns.email == email).fetchOne(db)
    }

    func providers(in db: Database) throws -> [ProviderRecord] {
        // A statement prepared once per connection: every lookup and sign-in asks.
        try ProviderRecord.fetchAll(db.cachedStatement(sql: "SELECT * FROM \(ProviderRecord.databaseTableName) WHERE localId = ? ORDER BY providerId"),
                                    arguments: [localId])
    }

    /// No email, no phone, no linked provider, never a custom token: what Firebase calls an anonymous account.
    func isAnonymous(providers: [ProviderRecord]) -> Bool {
        email == nil && phoneNumber == nil && providers.isEmpty && !customAuth
    }
}
