import Foundation
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
                    try await TerminalThread.run {
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

    @Test func anErrorOfTheLoopReachesTheCaller() async {
        struct Failure: Error {}
        await #expect(throws: Failure.self) { try await TerminalThread.run { throw Failure() } }
    }
}
