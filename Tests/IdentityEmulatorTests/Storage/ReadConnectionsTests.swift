import Foundation
import GRDB
import Synchronization
import Testing
@testable import IdentityEmulator

/// Reads on connections of their own: one snapshot per read, connections reused and left outside
/// any transaction, nothing after close.
@Suite struct ReadConnectionsTests {
    private struct Refused: Error {}

    private func withDatabase(_ body: (DatabasePool, ReadConnections) throws -> Void) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("read-connections-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("db.sqlite").path
        let pool = try DatabasePool(path: path)
        try pool.write { db in try db.execute(sql: "CREATE TABLE item (id INTEGER PRIMARY KEY)") }
        let readers = ReadConnections(path: path, busyTimeout: 5)
        try body(pool, readers)
        readers.close()
        try pool.close()
    }

    private func count(_ db: Database) throws -> Int { try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM item") ?? -1 }

    @Test func aReadSeesOneSnapshotWhileAWriteCommits() throws {
        try withDatabase { pool, readers in
            let (before, during) = try readers.read { db in
                let before = try count(db)
                try pool.write { db in try db.execute(sql: "INSERT INTO item DEFAULT VALUES") }
                return (before, try count(db))
            }
            #expect(before == 0)
            #expect(during == 0)
            #expect(try readers.read(count) == 1)
        }
    }

    /// The connection a failed read used goes back outside its transaction (GRDB stops the process
    /// when a transaction is left open), and the next read on it sees what was committed since.
    @Test func aFailedReadEndsItsTransaction() throws {
        try withDatabase { pool, readers in
            #expect(throws: Refused.self) {
                try readers.read { db in
                    _ = try count(db)
                    throw Refused()
                }
            }
            try pool.write { db in try db.execute(sql: "INSERT INTO item DEFAULT VALUES") }
            #expect(try readers.read(count) == 1)
            #expect(readers.connectionsOpened == 1)
        }
    }

    /// Reads at once each have a connection; later reads reuse them rather than opening more.
    @Test(.timeLimit(.minutes(1))) func concurrentReadsOpenAConnectionEachAndLaterReadsReuseThem() throws {
        try withDatabase { _, readers in
            let inside = DispatchGroup()
            let release = DispatchSemaphore(value: 0)
            let done = DispatchGroup()
            for _ in 0..<4 {
                inside.enter()
                done.enter()
                Thread {
                    defer { done.leave() }
                    _ = try? readers.read { db in
                        inside.leave()
                        release.wait()
                        return try count(db)
                    }
                }.start()
            }
            inside.wait()
            for _ in 0..<4 { release.signal() }
            done.wait()
            #expect(readers.connectionsOpened == 4)
            for _ in 0..<20 { _ = try readers.read(count) }
            #expect(readers.connectionsOpened == 4)
        }
    }

    /// A read under way when the store closes finishes first: its connection closes before the
    /// writer's, which, closing last, removes the log.
    @Test(.timeLimit(.minutes(1))) func closeWaitsForTheReadsUnderWay() throws {
        try withDatabase { _, readers in
            let inside = DispatchSemaphore(value: 0)
            let release = DispatchSemaphore(value: 0)
            let readEnded = DispatchSemaphore(value: 0)
            Thread {
                _ = try? readers.read { db in
                    inside.signal()
                    release.wait()
                    return try count(db)
                }
                readEnded.signal()
            }.start()
            inside.wait()
            let closed = Mutex(false)
            let closeEnded = DispatchSemaphore(value: 0)
            Thread {
                readers.close()
                closed.withLock { $0 = true }
                closeEnded.signal()
            }.start()
            usleep(200_000)
            #expect(!closed.withLock { $0 })
            release.signal()
            closeEnded.wait()
            readEnded.wait()
            #expect(throws: DatabaseError.self) { try readers.read(count) }
        }
    }

    @Test func readsAfterCloseFail() throws {
        try withDatabase { _, readers in
            _ = try readers.read(count)
            readers.close()
            #expect(throws: DatabaseError.self) { try readers.read(count) }
        }
    }
}
