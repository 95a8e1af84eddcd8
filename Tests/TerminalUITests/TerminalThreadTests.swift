import Foundation
import Synchronization
import Testing
import TerminalUI

@Suite struct TerminalThreadTests {
    /// As many blocked loops as the cooperative pool has threads: if any loop ran on the pool,
    /// no task could run until they all ended, and the detached task below would never answer.
    @Test(.timeLimit(.minutes(1))) func blockedLoopsLeaveTheCooperativePoolFree() async throws {
        let loops = ProcessInfo.processInfo.activeProcessorCount
        let release = DispatchSemaphore(value: 0)
        let started = DispatchSemaphore(value: 0)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<loops {
                group.addTask {
                    try await TerminalThread {}.run { _ in
                        started.signal()
                        release.wait()
                    }
                }
            }
            for _ in 0..<loops { await Task.detached { started.wait() }.value }
            let answer = await Task.detached { 6 * 7 }.value
            #expect(answer == 42)
            for _ in 0..<loops { release.signal() }
            try await group.waitForAll()
        }
    }

    /// The preparation runs as soon as the thread is made, without waiting for `run`: that is
    /// what lets curses start while the console opens its data directory. The body then gets
    /// what it made, on the same thread.
    @Test(.timeLimit(.minutes(1))) func preparationStartsAtOnceAndTheBodyRunsOnItsThread() async throws {
        let prepared = DispatchSemaphore(value: 0)
        let thread = TerminalThread { () -> pthread_t in
            prepared.signal()
            return pthread_self()
        }
        await Task.detached { prepared.wait() }.value
        let sameThread = Mutex(false)
        try await thread.run { preparer in
            sameThread.withLock { $0 = pthread_equal(preparer, pthread_self()) != 0 }
        }
        #expect(sameThread.withLock { $0 })
    }

    @Test func anErrorOfThePreparationReachesRunAndTheBodyDoesNotRun() async {
        struct Failure: Error {}
        let ran = Mutex(false)
        await #expect(throws: Failure.self) {
            try await TerminalThread { () throws -> Int in throw Failure() }.run { _ in ran.withLock { $0 = true } }
        }
        #expect(!ran.withLock { $0 })
    }

    @Test func anErrorOfTheLoopReachesTheCaller() async {
        struct Failure: Error {}
        await #expect(throws: Failure.self) { try await TerminalThread {}.run { _ in throw Failure() } }
    }

    /// What the preparation made (for the console, curses holding the terminal) is let go of before
    /// `cancel` returns: the error the caller then prints finds the terminal given back.
    @Test func cancelLetsGoOfThePreparedBeforeItReturns() async {
        let letGo = Mutex(false)
        let thread = TerminalThread { Resource { letGo.withLock { $0 = true } } }
        await thread.cancel()
        #expect(letGo.withLock { $0 })
    }

    @Test(.timeLimit(.minutes(1))) func cancelAfterRunIsNothing() async throws {
        let thread = TerminalThread {}
        let runs = Mutex(0)
        try await thread.run { _ in runs.withLock { $0 += 1 } }
        await thread.cancel()
        // Returned without waiting for the thread, which ended with the run, and ran nothing more.
        #expect(runs.withLock { $0 } == 1)
    }

    private final class Resource {
        let onDeinit: () -> Void
        init(onDeinit: @escaping () -> Void) { self.onDeinit = onDeinit }
        deinit { onDeinit() }
    }
}
