import Foundation
import GRDB
import Synchronization
import Testing
@testable import IdentityEmulator

/// Writes that share a transaction keep each one's own outcome: one that throws is rolled back
/// alone, the others are committed and durable when their callers return.
@Suite struct GroupCommitTests {
    private struct Refused: Error, Equatable {
        let index: Int
    }

    private func withPool(_ body: (DatabasePool) throws -> Void) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("group-commit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let pool = try DatabasePool(path: directory.appendingPathComponent("db.sqlite").path)
        try pool.write { db in try db.execute(sql: "CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE)") }
        try body(pool)
        try pool.close()
    }

    @Test(.timeLimit(.minutes(1))) func concurrentWritesKeepTheirOwnOutcomes() throws {
        try withPool { pool in
            let commits = GroupCommit()
            let written = Mutex<[Int: Int64]>([:])
            let refused = Mutex<[Int]>([])
            let ranForAnother = Mutex(0)
            let writers = DispatchGroup()
            // 60 threads at once, each write slow enough that others queue behind the one committing.
            // Every third write inserts a row and then throws: its row must not stay.
            for index in 0..<60 {
                writers.enter()
                Thread {
                    defer { writers.leave() }
                    let caller = pthread_self()
                    do {
                        let id = try commits.write(on: pool) { db in
                            if pthread_equal(caller, pthread_self()) == 0 { ranForAnother.withLock { $0 += 1 } }
                            try db.execute(sql: "INSERT INTO item (name) VALUES (?)", arguments: ["item \(index)"])
                            usleep(1_000)
                            if index % 3 == 0 { throw Refused(index: index) }
                            return db.lastInsertedRowID
                        }
                        written.withLock { $0[index] = id }
                    } catch {
                        #expect(error as? Refused == Refused(index: index))
                        refused.withLock { $0.append(index) }
                    }
                }.start()
            }
            writers.wait()
            // Writes were batched: some ran on the thread of a writer that committed them with its own.
            #expect(ranForAnother.withLock { $0 } > 0)
            let rows = try pool.read { db in
                Dictionary(uniqueKeysWithValues: try Row.fetchAll(db, sql: "SELECT id, name FROM item").map { ($0["name"] as String, $0["id"] as Int64) })
            }
            #expect(refused.withLock { Set($0) } == Set(stride(from: 0, to: 60, by: 3)))
            for (index, id) in written.withLock({ $0 }) { #expect(rows["item \(index)"] == id) }
            #expect(written.withLock { $0.count } == 40)
            #expect(rows.count == 40)
        }
    }

    /// A constraint that fails inside a write is that write's error; the writes beside it commit.
    @Test func aFailedStatementFailsOnlyItsWrite() throws {
        try withPool { pool in
            let commits = GroupCommit()
            try commits.write(on: pool) { db in try db.execute(sql: "INSERT INTO item (name) VALUES ('taken')") }
            #expect(throws: DatabaseError.self) {
                try commits.write(on: pool) { db in try db.execute(sql: "INSERT INTO item (name) VALUES ('taken')") }
            }
            try commits.write(on: pool) { db in try db.execute(sql: "INSERT INTO item (name) VALUES ('free')") }
            #expect(try pool.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM item") } == 2)
        }
    }

    /// When SQLite ends the transaction itself, no write of the batch is reported as done.
    @Test func aTransactionEndedUnderAWriteFailsIt() throws {
        try withPool { pool in
            let commits = GroupCommit()
            #expect(throws: (any Error).self) {
                try commits.write(on: pool) { db in
                    try db.execute(sql: "INSERT INTO item (name) VALUES ('lost')")
                    try db.execute(sql: "ROLLBACK")
                }
            }
            #expect(try pool.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM item") } == 0)
            try commits.write(on: pool) { db in try db.execute(sql: "INSERT INTO item (name) VALUES ('kept')") }
            #expect(try pool.read { db in try String.fetchAll(db, sql: "SELECT name FROM item") } == ["kept"])
        }
    }
}
