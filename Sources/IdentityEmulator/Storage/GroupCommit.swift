import Foundation
import GRDB

/// Writes that arrive together share one transaction and one commit. SQLite has one writer: one
/// sign-up per transaction wrote some thirty pages of the user table, its indexes and the refresh
/// tokens to the write-ahead log at each commit, and every other sign-up queued behind it. Here
/// the first writer to find no commit under way takes every write waiting, runs each in a
/// savepoint of its own (one that throws is rolled back alone and its caller gets its error), and
/// commits once; the first write that arrived meanwhile then commits the next batch. Each caller
/// returns only after the commit that holds its write, so an answered request is as durable as
/// before. With no other writer waiting, a write is its own transaction.
final class GroupCommit: @unchecked Sendable {
    private final class Job {
        /// Dropped before the caller is woken: its closure must not outlive its `write`
        /// (withoutActuallyEscaping), and the committing thread still holds the job then.
        var body: ((Database) throws -> Void)?
        /// Set before `wake` is signalled, read after it.
        var failure: (any Error)?
        var done = false
        /// Signalled once: when the batch holding the job has committed or failed, or when the job is to
        /// commit the next batch. Each waiting thread is woken once, not at every commit.
        let wake = DispatchSemaphore(value: 0)

        init(_ body: @escaping (Database) throws -> Void) { self.body = body }
    }

    /// The transaction ended under a write's feet (SQLite rolls back by itself on a full disk, an
    /// I/O error, an interrupt): no write of the batch was committed.
    private struct TransactionRolledBack: Error {
        let cause: any Error
    }

    // Both guarded by `lock`.
    private let lock = NSLock()
    private var waiting: [Job] = []
    private var committing = false

    /// Runs `body` in a transaction shared with the writes waiting beside it; blocks until it is committed.
    func write<T>(on pool: DatabasePool, _ body: (Database) throws -> T) throws -> T {
        try withoutActuallyEscaping(body) { body in
            var result: T?
            let job = Job { db in result = try body(db) }
            let leads = lock.withLock {
                waiting.append(job)
                if committing { return false }
                committing = true
                return true
            }
            // Waiting for another thread's commit uses no CPU: let a request thread run meanwhile.
            if !leads { RequestThreads.blocked { job.wake.wait() } }
            if !job.done {
                // First in line: this thread commits every write waiting, its own among them.
                let batch = lock.withLock {
                    defer { waiting.removeAll() }
                    return waiting
                }
                Self.commit(batch, on: pool)
                for other in batch where other !== job {
                    other.body = nil
                    other.done = true
                    other.wake.signal()
                }
                lock.withLock {
                    if let next = waiting.first { next.wake.signal() } else { committing = false }
                }
            }
            if let failure = job.failure { throw failure }
            // A job without a failure ran its body to the end.
            return result!
        }
    }

    /// Runs the batch in one transaction; sets each job's failure, if any, but not `done`.
    private static func commit(_ batch: [Job], on pool: DatabasePool) {
        do {
            try pool.write { db in
                // A job alone is its transaction: if it throws, the write rolls it back.
                if batch.count == 1, let job = batch.first {
                    do {
                        try job.body?(db)
                    } catch {
                        job.failure = error
                        throw error
                    }
                    return
                }
                for job in batch {
                    job.failure = try inSavepoint(db) { try job.body?(db) }
                }
            }
        } catch {
            // Nothing of the batch is in the database: the writes that succeeded fail with the cause (for
            // a job alone, its own failure).
            let cause = (error as? TransactionRolledBack)?.cause ?? error
            for job in batch where job.failure == nil { job.failure = cause }
        }
    }

    /// `body` in a savepoint of the open transaction, rolled back alone if it fails; its failure, if any.
    /// The savepoint's statements are prepared once per connection: GRDB's `inSavepoint` compiled both
    /// anew for every write. Throws only when SQLite has rolled the whole transaction back itself (a
    /// full disk, an I/O error, an interrupt).
    private static func inSavepoint(_ db: Database, _ body: () throws -> Void) throws -> (any Error)? {
        try db.cachedStatement(sql: "SAVEPOINT groupCommit").execute()
        do {
            try body()
            try db.cachedStatement(sql: "RELEASE SAVEPOINT groupCommit").execute()
            return nil
        } catch {
            guard db.isInsideTransaction else { throw TransactionRolledBack(cause: error) }
            try db.cachedStatement(sql: "ROLLBACK TO SAVEPOINT groupCommit").execute()
            try db.cachedStatement(sql: "RELEASE SAVEPOINT groupCommit").execute()
            return error
        }
    }
}
