import Foundation
import GRDB

/// One line of an account's cart: the seeds' example of per-account app data.
public struct CartItem: Sendable, Equatable, Codable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "cart_item"

    public var uid: String
    public var name: String
    public var quantity: Int

    public init(uid: String, name: String, quantity: Int) {
        self.uid = uid
        self.name = name
        self.quantity = quantity
    }
}

public enum CartStoreError: Error, Sendable, Equatable, CustomStringConvertible {
    case unreadable(path: String, reason: String)
    case invalidItemName

    public var description: String {
        switch self {
        case let .unreadable(path, reason): "The app-data database at \(path) cannot be used (\(reason)). It was left untouched."
        case .invalidItemName: "An item name must have 1 to 40 printable characters."
        }
    }
}

/// AuthDeck's own per-account data, kept beside (not inside) the auth backend, so it is the
/// same whichever backend signs the user in — exactly how an app keeps data keyed by uid.
public final class CartStore: Sendable {
    public static let maximumNameLength = 40
    private let database: any DatabaseWriter

    /// Opens (or creates) the store; a file that is not a usable database is reported and never replaced.
    public init(path: String) throws {
        do {
            database = try Self.open(path)
            try? FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
        } catch {
            throw CartStoreError.unreadable(path: path, reason: Self.reason(error))
        }
    }

    /// Consoles started together (SSH visitors) create the file at once, and SQLite refuses the switch to WAL
    /// with "database is locked" instead of waiting for the busy timeout: try again for up to 5 seconds.
    /// They also migrate it at once (below).
    private static func open(_ path: String) throws -> DatabasePool {
        var configuration = Configuration()
        configuration.busyMode = .timeout(5)
        // In WAL mode this never corrupts the file; a power cut may undo the last changes of a demo's
        // cart, and no commit waits for the disk: a room's consoles each create their store at the start.
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA synchronous = NORMAL") }
        for attempt in 1... {
            do {
                let pool = try DatabasePool(path: path, configuration: configuration)
                try migrator.migrate(pool)
                return pool
            } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY && attempt < 50 {
                Thread.sleep(forTimeInterval: 0.1)
            } catch let error as DatabaseError where error.resultCode == .SQLITE_ERROR && attempt < 50 {
                // GRDB reads which migrations have run before it takes the write lock: a console started at the
                // same moment may create the table in between ("table cart_item already exists"). Its migration
                // committed with the table, so the next attempt finds nothing left to do.
                Thread.sleep(forTimeInterval: 0.01)
            }
        }
        preconditionFailure("unreachable: the loop returns or throws")
    }

    /// An in-memory store, for tests and for runs with a read-only data directory.
    public init() throws {
        let queue = try DatabaseQueue()
        try Self.migrator.migrate(queue)
        database = queue
    }

    private static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1-cart") { db in
            try db.create(table: CartItem.databaseTableName) { table in
                table.column("uid", .text).notNull()
                table.column("name", .text).notNull()
                table.column("quantity", .integer).notNull().check { $0 > 0 }
                table.primaryKey(["uid", "name"])
            }
        }
        return migrator
    }

    private static func reason(_ error: any Error) -> String {
        if let error = error as? DatabaseError { return error.message ?? "\(error.resultCode)" }
        return String(describing: error)
    }

    public func items(of uid: String) throws -> [CartItem] {
        try database.read { db in
            try CartItem.filter(Column("uid") == uid).order(Column("name")).fetchAll(db)
        }
    }

    /// Adds one of `name`; the same name again raises its quantity.
    public func add(_ name: String, to uid: String) throws {
        let name = try Self.validated(name)
        try database.write { db in
            try db.execute(sql: """
                INSERT INTO cart_item (uid, name, quantity) VALUES (?, ?, 1)
                ON CONFLICT(uid, name) DO UPDATE SET quantity = quantity + 1
                """, arguments: [uid, name])
        }
    }

    /// Removes one of `name`; the line goes when its quantity reaches zero.
    public func removeOne(_ name: String, from uid: String) throws {
        try database.write { db in
            try db.execute(sql: "UPDATE cart_item SET quantity = quantity - 1 WHERE uid = ? AND name = ? AND quantity > 1",
                           arguments: [uid, name])
            if db.changesCount == 0 {
                try db.execute(sql: "DELETE FROM cart_item WHERE uid = ? AND name = ?", arguments: [uid, name])
            }
        }
    }

    /// Moves every item of `source` into `target` (quantities add up) in one transaction,
    /// for the link-conflict merge; `source` ends empty.
    public func merge(from source: String, into target: String) throws {
        try database.write { db in
            try db.execute(sql: """
                INSERT INTO cart_item (uid, name, quantity) SELECT ?, name, quantity FROM cart_item WHERE uid = ? AND true
                ON CONFLICT(uid, name) DO UPDATE SET quantity = quantity + excluded.quantity
                """, arguments: [target, source])
            try db.execute(sql: "DELETE FROM cart_item WHERE uid = ?", arguments: [source])
        }
    }

    public func removeAll(of uid: String) throws {
        _ = try database.write { db in
            try CartItem.filter(Column("uid") == uid).deleteAll(db)
        }
    }

    static func validated(_ name: String) throws -> String {
        let cleaned = String(String.UnicodeScalarView(name.unicodeScalars.filter { !CharacterSet.controlCharacters.contains($0) }))
            .trimmingCharacters(in: .whitespaces)
        guard !cleaned.isEmpty, cleaned.count <= maximumNameLength else { throw CartStoreError.invalidItemName }
        return cleaned
    }
}
