import Foundation
import GRDB

/// The read-only connections `AccountStore.read` runs on, beside the pool's writer (WAL lets them
/// read while it writes). GRDB's own pool of readers took a semaphore, a dispatch group and a
/// barrier queue for each read and compiled its BEGIN and COMMIT anew every time: a quarter of a
/// lookup's CPU. Here a read takes an idle connection under a lock (or opens one: there are never
/// more than reads at once, which the request threads bound) and runs in a transaction whose two
/// statements each connection prepares once.
final class ReadConnections: @unchecked Sendable {
    private let path: String
    private let configuration: Configuration
    // All guarded by `lock`.
    private let lock = NSLock()
    private var idle: [DatabaseQueue] = []
    private var closed = false
    private var opened = 0

    init(path: String, busyTimeout: TimeInterval) {
        self.path = path
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(busyTimeout)
        self.configuration = configuration
    }

    /// Connections opened so far, for tests.
    var connectionsOpened: Int { lock.withLock { opened } }

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

    /// Closes the idle connections; a read still running closes its own when it ends. Reads after this fail.
    func close() {
        let connections = lock.withLock {
            closed = true
            defer { idle.removeAll() }
            return idle
        }
        for connection in connections { try? connection.close() }
    }

    private func take() throws -> DatabaseQueue {
        let reused: DatabaseQueue? = try lock.withLock {
            guard !closed else { throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "The database is closed.") }
            if let connection = idle.popLast() { return connection }
            opened += 1
            return nil
        }
        return try reused ?? DatabaseQueue(path: path, configuration: configuration)
    }

    private func giveBack(_ connection: DatabaseQueue) {
        let kept = lock.withLock {
            guard !closed else { return false }
            idle.append(connection)
            return true
        }
        if !kept { try? connection.close() }
    }
}
