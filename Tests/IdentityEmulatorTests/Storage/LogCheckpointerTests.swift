import Foundation
import GRDB
import Synchronization
import Testing
@testable import IdentityEmulator

/// The write-ahead log reaches the database file on the checkpointer's thread, not in the commit
/// that crosses the threshold; once stopped, commits checkpoint for themselves again.
@Suite struct LogCheckpointerTests {
    private func withPool(_ body: (DatabasePool, String) throws -> Void) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("checkpoint-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("db.sqlite").path
        // As the store's: a commit past the ceiling waits for the thread's copy to end.
        var configuration = Configuration()
        configuration.busyMode = .timeout(AccountStore.busyTimeout)
        let pool = try DatabasePool(path: path, configuration: configuration)
        try pool.write { db in try db.execute(sql: "CREATE TABLE item (id INTEGER PRIMARY KEY, payload BLOB NOT NULL)") }
        try body(pool, path)
        try pool.close()
    }

    private func fileSize(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int) ?? 0
    }

    /// Each insert fills about two pages, so `count` inserts cross a threshold of `count` pages.
    private func insert(_ count: Int, into pool: DatabasePool) throws {
        for _ in 0..<count {
            try pool.write { db in try db.execute(sql: "INSERT INTO item (payload) VALUES (randomblob(6000))") }
        }
    }

    @Test(.timeLimit(.minutes(1))) func theLogIsCopiedOnTheCheckpointersThread() throws {
        try withPool { pool, path in
            let checkpointer = LogCheckpointer(path: path, threshold: 20)
            pool.writeWithoutTransaction { db in checkpointer.install(on: db.sqliteConnection) }
            let databaseBefore = fileSize(path)
            try insert(30, into: pool)
            let deadline = Date().addingTimeInterval(20)
            while checkpointer.completedCheckpoints == 0 && Date() < deadline { usleep(10_000) }
            #expect(checkpointer.completedCheckpoints >= 1)
            // The rows reached the database file itself (SQLite's own threshold, 1,000 pages, was never crossed).
            #expect(fileSize(path) > databaseBefore + 20 * 4096)
            checkpointer.stop()
        }
    }

    @Test(.timeLimit(.minutes(1))) func theThreadIsAskedOncePerThresholdOfPages() throws {
        try withPool { pool, path in
            let checkpointer = LogCheckpointer(path: path, threshold: 20)
            pool.writeWithoutTransaction { db in checkpointer.install(on: db.sqliteConnection) }
            // About 120 pages in 60 commits, 40 of them past the threshold: asked once per 20 pages, not at
            // every commit past it (the log may start over in between, which asks anew).
            try insert(60, into: pool)
            #expect(checkpointer.requestedCheckpoints >= 1)
            #expect(checkpointer.requestedCheckpoints <= 8, "\(checkpointer.requestedCheckpoints) requests")
            checkpointer.stop()
        }
    }

    @Test(.timeLimit(.minutes(1))) func belowTheThresholdNothingIsCopied() throws {
        try withPool { pool, path in
            let checkpointer = LogCheckpointer(path: path, threshold: 10_000)
            pool.writeWithoutTransaction { db in checkpointer.install(on: db.sqliteConnection) }
            let databaseBefore = fileSize(path)
            try insert(30, into: pool)
            usleep(200_000)
            #expect(checkpointer.completedCheckpoints == 0)
            #expect(fileSize(path) == databaseBefore)
            #expect(fileSize(path + "-wal") > 30 * 4096)
            checkpointer.stop()
        }
    }

    @Test(.timeLimit(.minutes(1))) func onceStoppedCommitsCheckpointThemselves() throws {
        try withPool { pool, path in
            let checkpointer = LogCheckpointer(path: path, threshold: 20)
            pool.writeWithoutTransaction { db in checkpointer.install(on: db.sqliteConnection) }
            checkpointer.stop()
            let databaseBefore = fileSize(path)
            try insert(30, into: pool)
            // Synchronously, in the commit that crossed the threshold: nothing to wait for.
            #expect(checkpointer.completedCheckpoints == 0)
            #expect(fileSize(path) > databaseBefore + 20 * 4096)
        }
    }

    @Test(.timeLimit(.minutes(1))) func theLogStaysBoundedUnderWritesThatNeverPause() throws {
        try withPool { pool, path in
            let checkpointer = LogCheckpointer(path: path, threshold: 20)
            pool.writeWithoutTransaction { db in checkpointer.install(on: db.sqliteConnection) }
            // Back to back from two threads, so that the thread's copies never find the log idle.
            let writers = DispatchGroup()
            let failures = Mutex<[String]>([])
            for _ in 0..<2 {
                DispatchQueue.global().async(group: writers) {
                    do { try insert(400, into: pool) } catch { failures.withLock { $0.append("\(error)") } }
                }
            }
            writers.wait()
            checkpointer.stop()
            // The file keeps its largest size; frames of 4,096 bytes and a 24-byte header each.
            let frames = fileSize(path + "-wal") / 4120
            #expect(frames <= Int(checkpointer.ceiling) + 8, "\(frames) frames")
            // Every write went in: failed ones would leave the log small, and the bound met for nothing.
            #expect(failures.withLock { $0 } == [])
            let rows = try pool.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM item") }
            #expect(rows == 800)
        }
    }

    @Test(.timeLimit(.minutes(1))) func stoppingEndsTheThreadAndClosesItsConnection() throws {
        try withPool { pool, path in
            let checkpointer = LogCheckpointer(path: path, threshold: 20)
            pool.writeWithoutTransaction { db in checkpointer.install(on: db.sqliteConnection) }
            try insert(30, into: pool)
            let deadline = Date().addingTimeInterval(20)
            while checkpointer.completedCheckpoints == 0 && Date() < deadline { usleep(10_000) }
            #expect(checkpointer.completedCheckpoints >= 1)
            checkpointer.stop()
            // Its connection is closed: the pool's, closing last, copies the log and removes it.
            pool.releaseMemory()
            try pool.close()
            #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
        }
    }
}
