import CThreads
import Foundation
import GRDBSQLite

/// Copies the write-ahead log into the database on a thread and connection of its own. SQLite's
/// automatic checkpoint runs inside the commit that crosses its threshold, on the one writer: at a
/// few thousand sign-ups a second that is some twenty checkpoints a second, each holding up every
/// writer (and, through them, the requests waiting on the group commit) while it copies 4 MB and
/// syncs the file. Here the commit only signals; the copy runs beside the writers, which SQLite
/// allows for a passive checkpoint. Commits write the log as they would without it, so what a commit made durable
/// stays durable; the database file just catches up off the writers' path.
final class LogCheckpointer: @unchecked Sendable {
    /// SQLite's own default threshold (`wal_autocheckpoint`), in pages of the log.
    static let defaultThreshold: Int32 = 1000

    let path: String
    let threshold: Int32
    // Guarded by `condition`.
    private let condition = NSCondition()
    private var requested = false
    private var stopping = false
    private var thread: Thread?
    private var finished = false
    private var completed = 0
    private var requests = 0
    /// The thread is copying.
    private var copying = false
    /// A commit past the ceiling is copying; the thread waits.
    private var holding = false
    /// The log's size at which the next commit asks for a checkpoint. Only the writer's hook uses it,
    /// and SQLite calls that on one thread at a time.
    private var nextRequest: Int32

    init(path: String, threshold: Int32 = defaultThreshold) {
        self.path = path
        self.threshold = threshold
        nextRequest = threshold
    }

    /// Checkpoints that have run to the end, for tests.
    var completedCheckpoints: Int { condition.withLock { completed } }
    /// Checkpoints the commits asked the thread for, for tests.
    var requestedCheckpoints: Int { condition.withLock { requests } }

    /// Takes over the automatic checkpoint of `connection`, the writer's (a commit hook set here
    /// replaces SQLite's own). The hook stays after `stop()`, so the checkpointer must outlive the
    /// connection (`AccountStore` holds both).
    func install(on connection: OpaquePointer?) {
        sqlite3_wal_hook(connection, { context, connection, _, pages in
            guard let context else { return SQLITE_OK }
            let checkpointer = Unmanaged<LogCheckpointer>.fromOpaque(context).takeUnretainedValue()
            if pages < checkpointer.nextRequest - checkpointer.threshold {
                // The log started over.
                checkpointer.nextRequest = checkpointer.threshold
            }
            if pages >= checkpointer.ceiling {
                checkpointer.catchUp(on: connection)
            } else if pages >= checkpointer.nextRequest {
                // Once per `threshold` pages written: asked at every commit, the thread copied a few pages
                // and synced both files some eighty times a second.
                checkpointer.nextRequest = pages + checkpointer.threshold
                if !checkpointer.request() {
                    // No thread (stopped, or its connection would not open): here, as SQLite's own checkpoint.
                    sqlite3_wal_checkpoint_v2(connection, nil, SQLITE_CHECKPOINT_PASSIVE, nil, nil)
                }
            }
            return SQLITE_OK
        }, Unmanaged.passUnretained(self).toOpaque())
    }

    /// The log's size, in pages, past which a commit checkpoints itself.
    var ceiling: Int32 { 4 * threshold }

    /// SQLite starts the log over only when a write finds every frame copied, which copies beside
    /// writers that never pause may never leave behind: past `ceiling` the commit (on the writer, so
    /// no write of this process comes meanwhile) waits for the thread's copy to end and copies the
    /// rest (little), as SQLite's own checkpoint would, so that the next write starts the log over.
    /// Passive still: a reader's snapshot is never waited for (the log then grows until it ends, as with SQLite's own).
    private func catchUp(on connection: OpaquePointer?) {
        condition.withLock {
            holding = true
            while copying { condition.wait() }
        }
        sqlite3_wal_checkpoint_v2(connection, nil, SQLITE_CHECKPOINT_PASSIVE, nil, nil)
        condition.withLock {
            holding = false
            condition.broadcast()
        }
    }

    /// Wakes the thread (made at the first request, so a console that writes little never has one).
    /// False once stopped.
    private func request() -> Bool {
        condition.withLock {
            guard !stopping else { return false }
            requested = true
            requests += 1
            if thread == nil {
                let thread = Thread { [self] in
                    authdeck_name_thread("checkpoint")
                    run()
                }
                self.thread = thread
                thread.start()
            }
            condition.signal()
            return true
        }
    }

    /// Ends the thread after the checkpoint under way, if any; its connection is closed when this returns.
    func stop() {
        condition.withLock {
            stopping = true
            condition.broadcast()
            while thread != nil && !finished { condition.wait() }
        }
    }

    private func run() {
        var connection: OpaquePointer?
        // The database exists (the writer made it); no mutex: only this thread uses the connection.
        // A first read makes the connection find the log: until then a checkpoint takes the database
        // for one without a log and does nothing.
        if sqlite3_open_v2(path, &connection, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nil) != SQLITE_OK
            || sqlite3_busy_timeout(connection, Int32(AccountStore.busyTimeout * 1000)) != SQLITE_OK
            || sqlite3_exec(connection, "PRAGMA schema_version", nil, nil, nil) != SQLITE_OK {
            sqlite3_close(connection)
            connection = nil
        }
        condition.lock()
        while !stopping {
            guard requested, !holding else {
                condition.wait()
                continue
            }
            requested = false
            copying = true
            condition.unlock()
            // Passive: it copies what no reader still needs and never waits for readers or writers.
            // Without a connection of its own, a later commit's request finds `stopping` and checkpoints inline.
            let result = connection.map { sqlite3_wal_checkpoint_v2($0, nil, SQLITE_CHECKPOINT_PASSIVE, nil, nil) }
            condition.lock()
            copying = false
            condition.broadcast()
            if result == SQLITE_OK { completed += 1 }
            if connection == nil { stopping = true }
        }
        condition.unlock()
        sqlite3_close(connection)
        condition.withLock {
            finished = true
            condition.broadcast()
        }
    }
}
