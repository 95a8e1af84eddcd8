import Foundation
import GRDB
import Synchronization

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
///
/// Every call runs on the database's own queues (GRDB's asynchronous API), never on Swift's
/// cooperative pool; a store made with `init(openingAtFirstUse:)` opens its file on a thread of
/// its own at the first call.
public final class CartStore: Sendable {
    public static let maximumNameLength = 40
    private let path: String?
    private let database: Mutex<(any DatabaseWriter)?>
    /// Opening may wait for another console's migration (below): never on the cooperative pool.
    private static let openingQueue = DispatchQueue(label: "authdeck.cart-opening")

    /// Opens (or creates) the store now; a file that is not a usable database is reported and never replaced.
    public init(path: String) throws {
        self.path = path
        database = Mutex(try Self.open(path))
    }

    /// A store whose file opens (or is created) at its first use, and whose first use reports a file that
    /// is not a usable database, then tries again at the next: a console that never shows a cart never
    /// touches it. A room's consoles start together, and opening is most of what each does after its first frame.
    public init(openingAtFirstUse path: String) {
        self.path = path
        database = Mutex(nil)
    }

    /// An in-memory store, for tests and for runs with a read-only data directory.
    public init() throws {
        let queue = try DatabaseQueue()
        try Self.migrator.migrate(queue)
        path = nil
        database = Mutex(queue)
    }

    private func writer() async throws -> any DatabaseWriter {
        if let open = database.withLock({ $0 }) { return open }
        return try await withCheckedThrowingContinuation { continuation in
            Self.openingQueue.async {
                continuation.resume(with: Result {
                    // Another call may have opened it while this one waited for the queue.
                    if let open = self.database.withLock({ $0 }) { return open }
                    guard let path = self.path else { preconditionFailure("an in-memory store is open from the start") }
                    let opened = try Self.open(path)
                    self.database.withLock { $0 = opened }
                    return opened
                })
            }
        }
    }

    private static func open(_ path: String) throws -> any DatabaseWriter {
        do {
            let pool = try openPool(path)
            // chmod, not FileManager: its attribute dictionary costs a scan of every protocol conformance.
            _ = chmod(path, 0o600)
            return pool
        } catch {
            throw CartStoreError.unreadable(path: path, reason: reason(error))
        }
    }

    /// Consoles started together (SSH visitors) create the file at once, and SQLite refuses the switch to WAL
    /// with "database is locked" instead of waiting for the busy timeout: try again for up to 5 seconds.
    /// They also migrate it at once (below).
    private static func openPool(_ path: String) throws -> DatabasePool {
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

    /// Whether the store at `path` holds any item, read without creating or changing anything. Blocks
    /// on SQLite. A file that cannot be read counts as holding some: what it holds is not known.
    public static func holdsItems(at path: String) -> Bool {
        guard FileManager.default.fileExists(atPath: path) else { return false }
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(5)
        guard let queue = try? DatabaseQueue(path: path, configuration: configuration) else { return true }
        defer { try? queue.close() }
        return (try? queue.read { db in try db.tableExists(CartItem.databaseTableName) && CartItem.fetchCount(db) > 0 }) ?? true
    }

    public func items(of uid: String) async throws -> [CartItem] {
        try await writer().read { db in
            try CartItem.filter(Column("uid") == uid).order(Column("name")).fetchAll(db)
        }
    }

    /// Adds one of `name`; the same name again raises its quantity.
    public func add(_ name: String, to uid: String) async throws {
        let name = try Self.validated(name)
        try await writer().write { db in
            try db.execute(sql: """
                INSERT INTO cart_item (uid, name, quantity) VALUES (?, ?, 1)
                ON CONFLICT(uid, name) DO UPDATE SET quantity = quantity + 1
                """, arguments: [uid, name])
        }
    }

    /// Removes one of `name`; the line goes when its quantity reaches zero.
    public func removeOne(_ name: String, from uid: String) async throws {
        try await writer().write { db in
            try db.execute(sql: "UPDATE cart_item SET quantity = quantity - 1 WHERE uid = ? AND name = ? AND quantity > 1",
                           arguments: [uid, name])
            if db.changesCount == 0 {
                try db.execute(sql: "DELETE FROM cart_item WHERE uid = ? AND name = ?", arguments: [uid, name])
            }
        }
    }

    /// Moves every item of `source` into `target` (quantities add up) in one transaction,
    /// for the link-conflict merge; `source` ends empty.
    public func merge(from source: String, into target: String) async throws {
        try await writer().write { db in
            try db.execute(sql: """
                INSERT INTO cart_item (uid, name, quantity) SELECT ?, name, quantity FROM cart_item WHERE uid = ? AND true
                ON CONFLICT(uid, name) DO UPDATE SET quantity = quantity + excluded.quantity
                """, arguments: [target, source])
            try db.execute(sql: "DELETE FROM cart_item WHERE uid = ?", arguments: [source])
        }
    }

    public func removeAll(of uid: String) async throws {
        _ = try await writer().write { db in
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
