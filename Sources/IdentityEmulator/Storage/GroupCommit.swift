import Foundation
import GRDB

/// Writes that arrive together share one transaction and one commit. SQLite has one writer: one
/// sign-up per transaction wrote some thirty pages of the user table, its indexes and the refresh
/// tokens to the write-ahead log at each commit, and every other sign-up queued behind it. Here
/// the first writer to find no commit under way takes every write waiting, runs each in a
/// savepoint of its own (one that throws is rolled back alone and its caller gets its error), and
/// commits once; each caller returns only after the commit that holds its write, so an answered
/// request is as durable as before. With no other writer waiting, a write is its own transaction.
final class GroupCommit: @unchecked Sendable {
    private final class Job {
        let body: (Database) throws -> Void
        /// Set under `condition` once the batch holding the job has committed or failed.
        var failure: (any Error)?
        var done = false

        init(_ body: @escaping (Database) throws -> Void) { self.body = body }
    }

    /// The transaction ended under a write's feet (SQLite rolls back by itself on a full disk, an
    /// I/O error, an interrupt): no write of the batch was committed.
    private struct TransactionRolledBack: Error {
        let cause: any Error
    }

    // All of the following are guarded by `condition`.
    private let condition = NSCondition()
    private var waiting: [Job] = []
    private var committing = false

    /// Runs `body` in a transaction shared with the writes waiting beside it; blocks until it is committed.
    func write<T>(on pool: DatabasePool, _ body: (Database) throws -> T) throws -> T {
        try withoutActuallyEscaping(body) { body in
            var result: T?
            let job = Job { db in result = try body(db) }
            condition.lock()
            waiting.append(job)
            while !job.done {
                if committing {
                    // Waiting for another thread's commit uses no CPU: let a request thread run meanwhile.
                    RequestThreads.blocked { condition.wait() }
                    continue
                }
                committing = true
                let batch = waiting
                waiting.removeAll()
                condition.unlock()
                Self.commit(batch, on: pool)
                condition.lock()
                for done in batch { done.done = true }
                committing = false
                condition.broadcast()
            }
            condition.unlock()
            if let failure = job.failure { throw failure }
            // A job without a failure ran its body to the end.
            return result!
        }
    }

    /// Runs the batch in one transaction; sets each job's failure, if any, but not `done`.
    private static func commit(_ batch: [Job], on pool: DatabasePool) {
        do {
            try pool.write { db in
                for job in batch {
                    do {
                        try db.inSavepoint {
                            try job.body(db)
                            return .commit
                        }
                    } catch {
                        job.failure = error
                        if !db.isInsideTransaction { throw TransactionRolledBack(cause: error) }
                    }
                }
            }
        } catch {
            // Nothing of the batch is in the database: the writes that succeeded fail with the cause.
            let cause = (error as? TransactionRolledBack)?.cause ?? error
            for job in batch where job.failure == nil { job.failure = cause }
        }
    }
}
