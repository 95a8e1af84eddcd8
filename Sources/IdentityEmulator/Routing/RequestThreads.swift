import Foundation

/// Threads of the backend's own for its blocking work: scrypt, RSA and GRDB's synchronous
/// SQLite calls. On Swift's cooperative pool (a thread per core) one password sign-in stalled
/// every other request, and the console's effects with it. Each request gets an idle thread or a
/// new one, up to `limit`; the kernel then shares the cores between requests as it would between
/// processes, so a lookup is not queued behind a hash. The limit bounds a burst of sign-ins:
/// each hash holds 16 MiB, and many at once would each get a sliver of the cores. No lock is
/// taken around the hashing itself: some hashes run inside a write transaction, and a second
/// lock there could deadlock with the writer. Threads stay for the next request.
final class RequestThreads: @unchecked Sendable {
    /// Shared by every backend in the process, so that tests opening many backends do not leave
    /// many idle threads behind.
    static let shared = RequestThreads(limit: 16)

    private let limit: Int
    // All of the following are guarded by `condition`.
    private let condition = NSCondition()
    private var jobs: [() -> Void] = []
    private var idle = 0
    private var count = 0

    init(limit: Int) { self.limit = limit }

    func run<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            submit { continuation.resume(returning: body()) }
        }
    }

    private func submit(_ job: @escaping () -> Void) {
        condition.lock()
        defer { condition.unlock() }
        jobs.append(job)
        if jobs.count > idle, count < limit {
            count += 1
            let thread = Thread { [self] in work() }
            thread.name = "authdeck backend"
            thread.start()
        }
        condition.signal()
    }

    private func work() {
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
