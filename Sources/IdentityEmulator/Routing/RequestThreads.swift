import CThreads
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Threads of the backend's own for its blocking work: RSA and GRDB's synchronous SQLite calls
/// (scrypt has `hashing`). On Swift's cooperative pool (a thread per core) one password sign-in
/// would stall every other request, and the console's effects with it.
///
/// At most `concurrency` threads run jobs at once; a thread blocked on another's work (`blocked`:
/// the start's writes) does not count, so another takes the next job meanwhile (up to `limit`
/// threads in all, each made when first needed). With a thread per job instead, sixteen clients would keep sixteen threads
/// waking each other on two cores, and a fifth of a lookup's CPU would go to switching between them.
///
/// It is also a task executor: the backend answers on it (`EmbeddedBackend.handle`), and `authdeck
/// serve` runs its connections on it (`IdentityServer`), so a request is parsed, answered and handed
/// back to SwiftNIO on one of these threads, with no hop to the cooperative pool and back. A request
/// waiting for a commit (`GroupCommit`) or a hash (`run` on `hashing`) is a suspended task, not a thread.
final class RequestThreads: TaskExecutor, @unchecked Sendable {
    private static let cores = max(2, ProcessInfo.processInfo.activeProcessorCount)

    /// Shared by every backend in the process, so that tests opening many backends do not leave
    /// many idle threads behind.
    static let shared = RequestThreads(name: "requests", limit: 16, concurrency: 2 * cores, batch: false)

    /// Where scrypt runs: a thread per core, `run`'s bodies in Linux's batch scheduling class (SCHED_BATCH), which
    /// never preempts a waking request; its share of the cores stays whole, so sign-ins keep pace
    /// with scrypt elsewhere on the machine (at nice 10 they fell behind it when others loaded the
    /// machine). A hash must never run inside a write transaction: it would hold up every writer.
    static let hashing = RequestThreads(name: "scrypt", limit: cores, concurrency: cores, batch: true)

    /// What `top -H`, `ps -L` and perf call the pool's threads.
    let name: String
    let limit: Int
    private let concurrency: Int
    /// Whether `run`'s bodies run in the batch scheduling class.
    private let batch: Bool
    // All of the following are guarded by `condition`.
    private let condition = NSCondition()
    private var jobs: [() -> Void] = []
    private var idle = 0
    private var count = 0
    /// Threads running a job and not waiting on another pool.
    private var running = 0
    /// Threads signalled or made for a job that have not taken it yet. Counted so that a burst of jobs
    /// (SwiftNIO hands over what one read brought) wakes no more threads than may run: each woke one,
    /// and the threads past the limit woke only to sleep again.
    private var waking = 0

    /// The pool that owns the calling thread, if any.
    private static let owner: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    init(name: String, limit: Int, concurrency: Int, batch: Bool) {
        self.name = name
        self.limit = limit
        self.concurrency = concurrency
        self.batch = batch
    }

    /// Threads made so far, for tests.
    var threadsMade: Int { condition.withLock { count } }

    private static var current: RequestThreads? {
        pthread_getspecific(owner).map { Unmanaged<RequestThreads>.fromOpaque($0).takeUnretainedValue() }
    }

    /// `body` on one of these threads, the calling task suspended until it is done.
    func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withUnsafeThrowingContinuation { continuation in
            submit { [batch] in
                guard batch else { return continuation.resume(with: Result { try body() }) }
                // Only the body runs in the batch class: a thread inherits its maker's class, and resuming
                // the caller may make one (the caller's pool, Dispatch's workers), which must not share it.
                Self.schedule(Self.batchPolicy)
                let result = Result { try body() }
                Self.schedule(Self.normalPolicy)
                continuation.resume(with: result)
            }
        }
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        submit { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }

    /// Runs `wait`, which blocks the calling thread on another thread's work (a blocking write's commit),
    /// without counting the thread as running meanwhile when it is one of a pool's: another takes the next job.
    static func blocked<T>(_ wait: () throws -> T) rethrows -> T {
        guard let pool = current else { return try wait() }
        pool.condition.withLock {
            pool.running -= 1
            pool.startThread()
        }
        defer { pool.condition.withLock { pool.running += 1 } }
        return try wait()
    }

    /// Queues `job` (internal for tests: `run` and `enqueue` are the ways in).
    func submit(_ job: @escaping () -> Void) {
        condition.withLock {
            jobs.append(job)
            startThread()
        }
    }

    /// Under the lock: an idle thread is woken, or a new one made, for a queued job if there is room.
    private func startThread() {
        guard jobs.count > waking, running + waking < concurrency else { return }
        if idle > waking {
            waking += 1
            condition.signal()
        } else if count < limit {
            count += 1
            waking += 1
            let thread = Thread { [self] in work() }
            thread.start()
        }
    }

    /// SCHED_OTHER and SCHED_BATCH (<linux/sched.h>; Glibc's module leaves the latter out).
    private static let normalPolicy: Int32 = 0
    private static let batchPolicy: Int32 = 3

    /// Sets the calling thread's scheduling policy (it belongs to the thread, and 0 names the calling one).
    private static func schedule(_ policy: Int32) {
        #if os(Linux)
        var parameters = sched_param()
        _ = sched_setscheduler(0, policy, &parameters)
        #endif
    }

    private func work() {
        pthread_setspecific(Self.owner, Unmanaged.passUnretained(self).toOpaque())
        authdeck_name_thread(name)
        // Whoever made this thread passed on its scheduling class: start from the normal one.
        Self.schedule(Self.normalPolicy)
        condition.lock()
        // Made for a job (`startThread`).
        waking -= 1
        while true {
            while jobs.isEmpty || running >= concurrency {
                idle += 1
                condition.wait()
                idle -= 1
                // At most what was signalled: a wake-up of the condition's own is not counted.
                if waking > 0 { waking -= 1 }
            }
            let job = jobs.removeFirst()
            running += 1
            condition.unlock()
            job()
            condition.lock()
            running -= 1
        }
    }
}
