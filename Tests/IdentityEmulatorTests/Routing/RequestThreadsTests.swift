import Foundation
import Testing
@testable import IdentityEmulator

@Suite(.timeLimit(.minutes(1)))
struct RequestThreadsTests {
    @Test func hashesRunInTheBatchSchedulingClass() async throws {
        #expect(try await RequestThreads.hashing.run { sched_getscheduler(0) } == 3)  // SCHED_BATCH
        #expect(try await RequestThreads.shared.run { sched_getscheduler(0) } == 0)  // SCHED_OTHER
    }

    /// A thread inherits the scheduling class of the thread that made it: a pool's thread made from a
    /// hash (a request resumed there wakes its own pool) starts in the normal class all the same.
    @Test func aThreadMadeInTheBatchClassRunsItsJobsInTheNormalOne() async throws {
        let hashing = RequestThreads(name: "test", limit: 1, concurrency: 1, batch: true)
        let requests = RequestThreads(name: "test", limit: 1, concurrency: 1, batch: false)
        let policies = await withCheckedContinuation { (done: CheckedContinuation<[Int32], Never>) in
            Task {
                _ = try await hashing.run {
                    let maker = sched_getscheduler(0)
                    requests.submit { done.resume(returning: [maker, sched_getscheduler(0)]) }
                }
            }
        }
        #expect(policies == [3, 0])
        #expect(requests.threadsMade == 1)
    }

    /// Only the hash runs in the batch class: the thread is back in the normal one when it hands the
    /// result back, so no thread that the resumption wakes or makes (Dispatch's workers) inherits it.
    @Test func whatAHashHandsBackIsHandedOverInTheNormalClass() async throws {
        let hashing = RequestThreads(name: "test", limit: 1, concurrency: 1, batch: true)
        let recorder = PolicyRecorder()
        let inBody = try await Task(executorPreference: recorder) { try await hashing.run { sched_getscheduler(0) } }.value
        #expect(inBody == 3)
        let handedOverIn = recorder.policies
        #expect(handedOverIn.count >= 2)  // the task's start, and its resumption after the hash
        #expect(!handedOverIn.contains(3))
    }

    /// A request waiting for a hash holds no thread, so a hash never holds up a lookup: here the pool's
    /// only thread runs the next job meanwhile (were the wait to block the thread, a second one would have
    /// to be made for it, and past the pool's limit the job would wait for the hash).
    @Test func aJobRunsWhileTheOnlyThreadsRequestWaitsForAHash() async {
        let requests = RequestThreads(name: "test", limit: 1, concurrency: 1, batch: false)
        let hashing = RequestThreads(name: "test", limit: 1, concurrency: 1, batch: true)
        let gate = DispatchSemaphore(value: 0)
        let waiting = DispatchSemaphore(value: 0)
        let hashed = Task(executorPreference: requests) {
            (try? await hashing.run { () -> Void in
                waiting.signal()
                gate.wait()
            }) != nil
        }
        #expect(await Self.aSecondJobRuns(on: requests, onceSignalled: waiting, beforeOpening: gate))
        #expect(await hashed.value)
    }

    /// A request thread waiting for a commit another thread makes (GroupCommit) leaves its place too:
    /// with two places, sixteen sign-ups kept a quarter of the CPU idle while their threads waited.
    @Test func aJobRunsWhileTheOnlyRunningThreadIsBlocked() async {
        let requests = RequestThreads(name: "test", limit: 2, concurrency: 1, batch: false)
        let gate = DispatchSemaphore(value: 0)
        let waiting = DispatchSemaphore(value: 0)
        let blocked = Task(executorPreference: requests) {
            RequestThreads.blocked {
                waiting.signal()
                gate.wait()
            }
        }
        #expect(await Self.aSecondJobRuns(on: requests, onceSignalled: waiting, beforeOpening: gate))
        await blocked.value
    }

    /// Whether a second job runs on `requests` while its only running thread waits for `gate`: asked
    /// once the first job signals `waiting`, just before it waits.
    private static func aSecondJobRuns(on requests: RequestThreads, onceSignalled waiting: DispatchSemaphore,
                                       beforeOpening gate: DispatchSemaphore) async -> Bool {
        await withCheckedContinuation { started in DispatchQueue.global().async { waiting.wait(); started.resume() } }
        return await requests.runs({}, beforeOpening: gate)
    }

    /// A burst of jobs (SwiftNIO hands over what one read brought) makes or wakes no more threads than
    /// may run: were each job to make or wake one, those past the limit would only go back to sleep.
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

/// Runs jobs on a queue of its own, noting the scheduling policy of each thread that hands it one.
private final class PolicyRecorder: TaskExecutor, @unchecked Sendable {
    private let queue = DispatchQueue(label: "policy-recorder")
    private let lock = NSLock()
    private var recorded: [Int32] = []

    var policies: [Int32] { lock.withLock { recorded } }

    func enqueue(_ job: consuming ExecutorJob) {
        let policy = sched_getscheduler(0)
        lock.withLock { recorded.append(policy) }
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
