import AsyncHTTPClient
import Foundation
import IdentityTestSupport
import IdentityToolkit
import NIOCore
import Synchronization
import Testing

/// One thread that runs whatever is enqueued on it.
private final class OneThreadExecutor: TaskExecutor, @unchecked Sendable {
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private(set) var thread: pthread_t?

    init() {
        let started = DispatchSemaphore(value: 0)
        Thread { [self] in
            condition.lock()
            thread = pthread_self()
            started.signal()
            while true {
                while jobs.isEmpty { condition.wait() }
                let job = jobs.removeFirst()
                condition.unlock()
                job.runSynchronously(on: asUnownedTaskExecutor())
                condition.lock()
            }
        }.start()
        started.wait()
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.withLock {
            jobs.append(job)
            condition.signal()
        }
    }

    var isCurrent: Bool { condition.withLock { thread.map { pthread_equal($0, pthread_self()) != 0 } ?? false } }
}

/// Answers 200 when called on its preferred executor's thread, 500 anywhere else.
private struct ThreadReportingHandler: WireHandler {
    let executor: OneThreadExecutor
    var preferredExecutor: (any TaskExecutor)? { executor }

    func handle(_ request: WireRequest) async -> WireResponse {
        WireResponse(status: executor.isCurrent ? 200 : 500, body: Data("{}".utf8))
    }
}

@Suite("authdeck serve: where requests run", .timeLimit(.minutes(1)))
struct ServerExecutorTests {
    /// The backend answers on its own threads without a hop there and back per request.
    @Test func requestsReachTheHandlerOnItsPreferredExecutor() async throws {
        let statuses = try await withServedHandler(ThreadReportingHandler(executor: OneThreadExecutor())) { port in
            var statuses: [UInt] = []
            for _ in 0..<3 {
                var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)/identitytoolkit.googleapis.com/v1/accounts:lookup?key=k")
                request.method = .POST
                request.body = .bytes(ByteBuffer(string: "{}"))
                statuses.append(try await HTTPClient.shared.execute(request, timeout: .seconds(30)).status.code)
            }
            return statuses
        }
        #expect(statuses == [200, 200, 200])
    }
}
