import Foundation
import Testing
@testable import IdentityEmulator

@Suite(.timeLimit(.minutes(1)))
struct RequestThreadsTests {
    @Test func hashesRunInTheBatchSchedulingClass() async throws {
        #expect(try await RequestThreads.hashing.run { sched_getscheduler(0) } == 3)  // SCHED_BATCH
        #expect(try await RequestThreads.shared.run { sched_getscheduler(0) } == 0)  // SCHED_OTHER
    }

    /// A request waiting for a hash holds no thread, so a hash never holds up a lookup: here the pool's
    /// only thread runs the next job meanwhile (when the wait blocked the thread, a second one had to
    /// be made for it, and past the pool's limit the job waited for the hash).
    @Test func aJobRunsWhileTheOnlyThreadsRequestWaitsForAHash() async throws {
        let requests = RequestThreads(name: "test", limit: 1, concurrency: 1, batch: false)
        let hashing = RequestThreads(name: "test", limit: 1, concurrency: 1, batch: true)
        let gate = DispatchSemaphore(value: 0)
        let hashed = Task(executorPreference: requests) { (try? await hashing.run { gate.wait() }) != nil }
        #expect(try await Self.aSecondJobRuns(on: requests, beforeOpening: gate))
        #expect(await hashed.value)
    }

    /// A request thread waiting for a commit another thread makes (GroupCommit) leaves its place too:
    /// with two places, sixteen sign-ups kept a quarter of the CPU idle while their threads waited.
    @Test func aJobRunsWhileTheOnlyRunningThreadIsBlocked() async throws {
        let requests = RequestThreads(name: "test", limit: 2, concurrency: 1, batch: false)
        let gate = DispatchSemaphore(value: 0)
        let blocked = Task(executorPreference: requests) { RequestThreads.blocked { gate.wait() } }
        #expect(try await Self.aSecondJobRuns(on: requests, beforeOpening: gate))
        await blocked.value
    }

    /// Whether a second job runs on `requests` while its only running thread waits for `gate`.
    private static func aSecondJobRuns(on requests: RequestThreads, beforeOpening gate: DispatchSemaphore) async throws -> Bool {
        // Give the first job time to start waiting: the second must run even so, and before the gate opens.
        try await Task.sleep(for: .milliseconds(100))
        return await requests.runs({}, beforeOpening: gate)
    }

    /// A burst of jobs (SwiftNIO hands over what one read brought) makes or wakes no more threads than
    /// may run: each job made or woke one, and those past the limit only went back to sleep.
    @Test func aBurstOfJobsMakesNoMoreThreadsThanMayRun() {
        let requests = RequestThreads(name: "test", limit: 8, concurrency: 2, batch: false)
        let group = DispatchGroup()
        for _ in 0..<8 {
            group.enter()
            requests.submit {
                usleep(20_000)
                group.leave()
            }
        }
        group.wait()
        #expect(requests.threadsMade <= 2)
    }

    /// `top -H`, `ps -L` and perf tell the pools' threads apart: the kernel has their names.
    @Test func aPoolsThreadsCarryItsName() async throws {
        let pool = RequestThreads(name: "a-long-pool-name", limit: 1, concurrency: 1, batch: false)
        let comm = try await pool.run { try String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8) }
        // The kernel keeps 15 bytes.
        #expect(comm == "a-long-pool-nam\n")
        #expect(try await RequestThreads.shared.run { try String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8) } == "requests\n")
    }

    @Test func blockedOffThePoolJustRuns() {
        #expect(RequestThreads.blocked { 42 } == 42)
    }
}

extension RequestThreads {
    /// Whether `job` runs on this pool while `gate` is shut; the gate is opened either way (after ten
    /// seconds if the job never runs, and the answer is no).
    func runs(_ job: @escaping @Sendable () -> Void, beforeOpening gate: DispatchSemaphore) async -> Bool {
        let ran = await withTaskGroup(of: Bool.self) { group in
            group.addTask(executorPreference: self) {
                job()
                return true
            }
            group.addTask {
                try? await Task.sleep(for: .seconds(10))
                gate.signal()
                return false
            }
            let first = await group.next() ?? false
            group.cancelAll()
            return first
        }
        if ran { gate.signal() }
        return ran
    }
}
