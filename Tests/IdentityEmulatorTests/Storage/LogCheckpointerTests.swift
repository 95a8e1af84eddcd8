import Foundation
import GRDB
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
        let pool = try DatabasePool(path: path)
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

    @Test(.timeLimit(.minutes(1))) func theBackendsStoreClosesWithItsCheckpointerStopped() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("checkpoint-store-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let backend = try EmbeddedBackend(dataDirectory: directory)
        try backend.close()
        // The log was emptied into the database and removed by the last connection to close.
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("identity.sqlite-wal").path))
    }
}
