import Foundation
import GRDB

/// The read-only connections `AccountStore.read` runs on, beside the pool's writer (WAL lets them
/// read while it writes). GRDB's own pool of readers takes a semaphore, a dispatch group and a
/// barrier queue for each read and compiles its BEGIN and COMMIT anew every time: a quarter of a
/// lookup's CPU. Here a read takes an idle connection under a lock (or opens one: there are never
/// more than reads at once, which the request threads bound) and runs in a transaction whose two
/// statements each connection prepares once.
final class ReadConnections: @unchecked Sendable {
    private let path: String
    private let configuration: Configuration
    // All guarded by `condition`.
    private let condition = NSCondition()
    private var idle: [DatabaseQueue] = []
    private var closed = false
    private var opened = 0
    /// Reads under way, a connection still opening counted: `close` waits for them.
    private var active = 0

    init(path: String, busyTimeout: TimeInterval) {
        self.path = path
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(busyTimeout)
        self.configuration = configuration
    }

    /// Connections opened so far, for tests.
    var connectionsOpened: Int { condition.withLock { opened } }

    /// `body` in a read transaction of its own: one snapshot of the database however many statements it runs.
    func read<T>(_ body: (Database) throws -> T) throws -> T {
        let connection = try take()
        defer { giveBack(connection) }
        return try connection.inDatabase { db in
            try db.cachedStatement(sql: "BEGIN DEFERRED TRANSACTION").execute()
            // Ended whatever happens: a connection goes back to the idle ones outside any transaction.
            defer {
                if db.isInsideTransaction { try? db.cachedStatement(sql: "ROLLBACK TRANSACTION").execute() }
            }
            let value = try body(db)
            try db.cachedStatement(sql: "COMMIT TRANSACTION").execute()
            return value
        }
    }

    /// Waits for the reads under way, then closes every connection: the writer, closed after this,
    /// is then the last connection, which removes the log. Reads after this fail.
    func close() {
        let connections = condition.withLock {
            closed = true
            while active > 0 { condition.wait() }
            defer { idle.removeAll() }
            return idle
        }
        for connection in connections { try? connection.close() }
    }

    private func take() throws -> DatabaseQueue {
        let reused: DatabaseQueue? = try condition.withLock {
            guard !closed else { throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "The database is closed.") }
            active += 1
            return idle.popLast()
        }
        if let reused { return reused }
        do {
            let connection = try DatabaseQueue(path: path, configuration: configuration)
            condition.withLock { opened += 1 }
            return connection
        } catch {
            condition.withLock {
                active -= 1
                condition.broadcast()
            }
            throw error
        }
    }

    private func giveBack(_ connection: DatabaseQueue) {
        condition.withLock {
            idle.append(connection)
            active -= 1
            condition.broadcast()
        }
    }
}
