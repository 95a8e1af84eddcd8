import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Threads of the backend's own for its blocking work: RSA and GRDB's synchronous SQLite calls
/// (scrypt has `hashing`). On Swift's cooperative pool (a thread per core) one password sign-in
/// stalled every other request, and the console's effects with it. Each job gets an idle thread
/// or a new one, up to `limit`; the kernel then shares the cores between requests as it would
/// between processes. Threads stay for the next job.
///
/// It is also a task executor: `authdeck serve` runs its connections on it (`IdentityServer`), so
/// a request is parsed, answered and handed back to SwiftNIO on one of these threads, with no hop
/// to the cooperative pool and back (a tenth of the CPU of a lookup went to those switches).
final class RequestThreads: TaskExecutor, @unchecked Sendable {
    /// Shared by every backend in the process, so that tests opening many backends do not leave
    /// many idle threads behind.
    static let shared = RequestThreads(limit: 16, niceness: 0)

    /// Where scrypt runs: as many threads as cores, at a lower scheduling priority (nice 10), so that
    /// on a busy machine the kernel runs a short request before a hash instead of beside it. A hash
    /// must never run inside a write transaction: the low-priority thread would hold up every writer.
    static let hashing = RequestThreads(limit: max(2, ProcessInfo.processInfo.activeProcessorCount), niceness: 10)

    let limit: Int
    private let niceness: Int32
    // All of the following are guarded by `condition`.
    private let condition = NSCondition()
    private var jobs: [() -> Void] = []
    private var idle = 0
    private var count = 0

    /// The threads each pool owns, so that work already on one runs there without a hop.
    private static let owner: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    init(limit: Int, niceness: Int32) {
        self.limit = limit
        self.niceness = niceness
    }

    private var isCurrent: Bool {
        pthread_getspecific(Self.owner) == Unmanaged.passUnretained(self).toOpaque()
    }

    /// `body` on one of these threads: at once when the caller is on one already.
    func run<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        if isCurrent { return body() }
        return await withCheckedContinuation { continuation in
            submit { continuation.resume(returning: body()) }
        }
    }

    /// `body` on one of these threads, the calling thread waiting for it.
    func runAndWait<T: Sendable>(_ body: @escaping @Sendable () throws -> T) throws -> T {
        if isCurrent { return try body() }
        let done = DispatchSemaphore(value: 0)
        // Written before the signal, read after the wait.
        nonisolated(unsafe) var result: Result<T, any Error>?
        submit {
            result = Result { try body() }
            done.signal()
        }
        done.wait()
        return try result!.get()
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        submit { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }

    private func submit(_ job: @escaping () -> Void) {
        condition.lock()
        defer { condition.unlock() }
        jobs.append(job)
        if jobs.count > idle, count < limit {
            count += 1
            let thread = Thread { [self] in work() }
            thread.name = niceness == 0 ? "authdeck backend" : "authdeck hashing"
            thread.start()
        }
        condition.signal()
    }

    private func work() {
        pthread_setspecific(Self.owner, Unmanaged.passUnretained(self).toOpaque())
        #if os(Linux)
        // On Linux the nice value belongs to the thread, and 0 names the calling one.
        if niceness != 0 { setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, niceness) }
        #endif
        condition.lock()
        while true {
            while jobs.isEmpty {
                idle += 1
                condition.wait()
                idle -= 1
            }
            let job = jobs.removeFirst()
            condition.unlock()
            job()
            condition.lock()
        }
    }
}
