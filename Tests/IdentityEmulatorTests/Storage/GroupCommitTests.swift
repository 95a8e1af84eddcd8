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

    private func withPool(_ body: (DatabasePool) async throws -> Void) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("group-commit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let pool = try DatabasePool(path: directory.appendingPathComponent("db.sqlite").path)
        try await pool.write { db in try db.execute(sql: "CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE)") }
        try await body(pool)
        try pool.close()
    }

    /// Sixty writes at once, each slow enough that others queue behind the one committing: the even
    /// ones are requests (tasks on the backend's threads, waiting suspended), the odd ones threads
    /// that block (as the start's writes do). Every third write inserts a row and then throws: its row
    /// must not stay.
    @Test(.timeLimit(.minutes(1))) func concurrentWritesKeepTheirOwnOutcomes() async throws {
        try await withPool { pool in
            let commits = GroupCommit()
            let requests = RequestThreads(name: "test", limit: 4, concurrency: 2, batch: false)
            let outcomes = Outcomes()
            let threads = DispatchGroup()
            for index in stride(from: 1, to: 60, by: 2) {
                threads.enter()
                Thread {
                    defer { threads.leave() }
                    let caller = pthread_self()
                    outcomes.record(index, Result {
                        try commits.writeBlocking(on: pool) { db in
                            if pthread_equal(caller, pthread_self()) == 0 { outcomes.ranForAnother.withLock { $0 += 1 } }
                            return try Self.insert(index, db)
                        }
                    })
                }.start()
            }
            await withTaskGroup(of: Void.self) { group in
                for index in stride(from: 0, to: 60, by: 2) {
                    group.addTask(executorPreference: requests) {
                        do {
                            outcomes.record(index, .success(try await commits.write(on: pool) { db in try Self.insert(index, db) }))
                        } catch {
                            outcomes.record(index, .failure(error))
                        }
                    }
                }
            }
            await withCheckedContinuation { done in threads.notify(queue: .global()) { done.resume() } }
            // Writes were batched: some ran on the thread of a writer that committed them with its own.
            #expect(outcomes.ranForAnother.withLock { $0 } > 0)
            let rows = try await pool.read { db in
                Dictionary(uniqueKeysWithValues: try Row.fetchAll(db, sql: "SELECT id, name FROM item").map { ($0["name"] as String, $0["id"] as Int64) })
            }
            let written = outcomes.written.withLock { $0 }
            #expect(outcomes.refused.withLock { Set($0) } == Set(stride(from: 0, to: 60, by: 3)))
            for (index, id) in written { #expect(rows["item \(index)"] == id) }
            #expect(written.count == 40)
            #expect(rows.count == 40)
        }
    }

    /// A slow insert; every third one throws after inserting.
    private static func insert(_ index: Int, _ db: Database) throws -> Int64 {
        try db.execute(sql: "INSERT INTO item (name) VALUES (?)", arguments: ["item \(index)"])
        usleep(1_000)
        if index % 3 == 0 { throw Refused(index: index) }
        return db.lastInsertedRowID
    }

    private final class Outcomes: Sendable {
        let written = Mutex<[Int: Int64]>([:])
        let refused = Mutex<[Int]>([])
        let ranForAnother = Mutex(0)

        func record(_ index: Int, _ outcome: Result<Int64, any Error>) {
            switch outcome {
            case .success(let id): written.withLock { $0[index] = id }
            case .failure(let error):
                #expect(error as? Refused == Refused(index: index))
                refused.withLock { $0.append(index) }
            }
        }
    }

    /// Writes waiting for a commit hold no thread: with the pool's two threads, one committing (held
    /// up here) and four writes queued behind it, a read still runs. Were a waiting write to block its
    /// thread, the second thread would be parked too and the read would wait for the commit.
    @Test(.timeLimit(.minutes(1))) func writesWaitingForACommitHoldNoThread() async throws {
        try await withPool { pool in
            let commits = GroupCommit()
            let requests = RequestThreads(name: "test", limit: 2, concurrency: 2, batch: false)
            let gate = DispatchSemaphore(value: 0)
            let committing = DispatchSemaphore(value: 0)
            let first = Task(executorPreference: requests) {
                try await commits.write(on: pool) { db in
                    committing.signal()
                    gate.wait()
                    try db.execute(sql: "INSERT INTO item (name) VALUES ('first')")
                }
            }
            await withCheckedContinuation { started in DispatchQueue.global().async { committing.wait(); started.resume() } }
            let joining = DispatchSemaphore(value: 0)
            let queued = (0..<4).map { index in
                Task(executorPreference: requests) {
                    // Nothing suspends the task between here and its joining the batch behind the commit.
                    joining.signal()
                    try await commits.write(on: pool) { db in try db.execute(sql: "INSERT INTO item (name) VALUES (?)", arguments: ["queued \(index)"]) }
                }
            }
            // Bounded: were a waiting write to hold the free thread, the writes after it would never start.
            let allJoining = await withCheckedContinuation { started in
                DispatchQueue.global().async { started.resume(returning: (0..<4).allSatisfy { _ in joining.wait(timeout: .now() + .seconds(10)) == .success }) }
            }
            #expect(allJoining)
            // Without a free thread the read never runs while the gate is shut.
            let readRan = await requests.runs({ _ = try? pool.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM item") } },
                                              beforeOpening: gate)
            #expect(readRan)
            try await first.value
            for write in queued { try await write.value }
            #expect(try await pool.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM item") } == 5)
        }
    }

    /// A constraint that fails inside a write is that write's error; the writes beside it commit.
    @Test func aFailedStatementFailsOnlyItsWrite() async throws {
        try await withPool { pool in
            let commits = GroupCommit()
            try await commits.write(on: pool) { db in try db.execute(sql: "INSERT INTO item (name) VALUES ('taken')") }
            await #expect(throws: DatabaseError.self) {
                try await commits.write(on: pool) { db in try db.execute(sql: "INSERT INTO item (name) VALUES ('taken')") }
            }
            try await commits.write(on: pool) { db in try db.execute(sql: "INSERT INTO item (name) VALUES ('free')") }
            #expect(try await pool.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM item") } == 2)
        }
    }

    /// When SQLite ends the transaction itself, no write of the batch is reported as done.
    @Test func aTransactionEndedUnderAWriteFailsIt() async throws {
        try await withPool { pool in
            let commits = GroupCommit()
            await #expect(throws: (any Error).self) {
                try await commits.write(on: pool) { db in
                    try db.execute(sql: "INSERT INTO item (name) VALUES ('lost')")
                    try db.execute(sql: "ROLLBACK")
                }
            }
            #expect(try await pool.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM item") } == 0)
            try await commits.write(on: pool) { db in try db.execute(sql: "INSERT INTO item (name) VALUES ('kept')") }
            #expect(try await pool.read { db in try String.fetchAll(db, sql: "SELECT name FROM item") } == ["kept"])
        }
    }

    /// A commit that fails (a deferred constraint, checked only then) rolls the transaction back: none of
    /// its writes stays, and the next write starts a transaction of its own.
    @Test func aFailedCommitRollsTheBatchBack() async throws {
        try await withPool { pool in
            let commits = GroupCommit()
            try await commits.write(on: pool) { db in
                try db.execute(sql: "CREATE TABLE child (id INTEGER PRIMARY KEY, item INTEGER REFERENCES item(id) DEFERRABLE INITIALLY DEFERRED)")
            }
            await #expect(throws: DatabaseError.self) {
                try await commits.write(on: pool) { db in
                    try db.execute(sql: "INSERT INTO item (name) VALUES ('lost')")
                    try db.execute(sql: "INSERT INTO child (item) VALUES (42)")
                }
            }
            try await commits.write(on: pool) { db in try db.execute(sql: "INSERT INTO item (name) VALUES ('kept')") }
            #expect(try await pool.read { db in try String.fetchAll(db, sql: "SELECT name FROM item") } == ["kept"])
        }
    }
}
