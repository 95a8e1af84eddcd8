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
        /// Dropped before the caller resumes: its closure must not outlive its `write`
        /// (withoutActuallyEscaping), and the committing thread still holds the job then.
        var body: ((Database) throws -> Void)?
        /// Set before `wake` is called, read after it.
        var failure: (any Error)?
        /// Called once, on the committing thread: with false when the batch holding the job has committed
        /// or failed, with true when the job is to commit the next batch. Nil for the job that leads at once.
        var wake: ((_ leads: Bool) -> Void)?

        init(_ body: @escaping (Database) throws -> Void) { self.body = body }

        /// Calls `wake` if it has not been called: a batch's leader is in its batch, and was woken to lead it.
        func signal(leads: Bool) {
            let wake = self.wake
            self.wake = nil
            wake?(leads)
        }
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

    /// Runs `body` in a transaction shared with the writes waiting beside it; returns once it is
    /// committed. A request's task waits suspended, so its thread answers other requests meanwhile:
    /// a blocked thread would need another woken in its place (more context switches per request, more
    /// idle CPU), and sixteen writes waiting would hold every thread the backend may make, so not even
    /// a lookup could run until the commit ended.
    func write<T>(on pool: DatabasePool, _ body: (Database) throws -> T) async throws -> T {
        try await withoutActuallyEscaping(body) { body in
            var result: T?
            let job = Job { db in result = try body(db) }
            let leads = await withUnsafeContinuation { continuation in
                job.wake = { continuation.resume(returning: $0) }
                if join(job) { continuation.resume(returning: true) }
            }
            if leads { commitWaiting(on: pool) }
            if let failure = job.failure { throw failure }
            // A job without a failure ran its body to the end.
            return result!
        }
    }

    /// `write` for a caller that is not a request (the start's clean-up): blocks the calling thread.
    func writeBlocking<T>(on pool: DatabasePool, _ body: (Database) throws -> T) throws -> T {
        try withoutActuallyEscaping(body) { body in
            var result: T?
            let job = Job { db in result = try body(db) }
            let woken = DispatchSemaphore(value: 0)
            // Written before the signal, read after the wait.
            var leads = true
            job.wake = { leads = $0; woken.signal() }
            if !join(job) { RequestThreads.blocked { woken.wait() } }
            if leads { commitWaiting(on: pool) }
            if let failure = job.failure { throw failure }
            return result!
        }
    }

    /// Queues `job`; true when no commit is under way, and so its caller is to commit.
    private func join(_ job: Job) -> Bool {
        lock.withLock {
            waiting.append(job)
            if committing { return false }
            committing = true
            job.wake = nil
            return true
        }
    }

    /// Commits every write waiting (the caller's among them), wakes their callers and hands the next
    /// batch to the first write that arrived meanwhile.
    private func commitWaiting(on pool: DatabasePool) {
        let batch = lock.withLock {
            defer { waiting.removeAll() }
            return waiting
        }
        Self.commit(batch, on: pool)
        for job in batch {
            job.body = nil
            job.signal(leads: false)
        }
        let next: Job? = lock.withLock {
            if let next = waiting.first { return next }
            committing = false
            return nil
        }
        next?.signal(leads: true)
    }

    /// Runs the batch in one transaction; sets each job's failure, if any.
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
