import Synchronization
import Testing
@testable import IdentityServer

@Suite struct ConnectionLedgerTests {
    final class Releases: Sendable {
        let count = Atomic<Int>(0)
    }

    @Test func largeBodiesReleasedTogetherGiveTheirMemoryBackOnceAndSmallOnesNever() {
        let releases = Releases()
        var limits = ConnectionLimits()
        limits.bodyMemory = 16 * 1024 * 1024
        let ledger = ConnectionLedger(limits: limits) { releases.count.add(1, ordering: .relaxed) }
        let megabyte = 1024 * 1024

        // Three connections' bodies, 6 MiB at the most: the memory goes back once all three are released.
        #expect(ledger.reserveBody(2 * megabyte))
        #expect(ledger.reserveBody(2 * megabyte))
        #expect(ledger.reserveBody(2 * megabyte))
        ledger.releaseBody(2 * megabyte)
        ledger.releaseBody(2 * megabyte)
        #expect(releases.count.load(ordering: .relaxed) == 0, "a body is still being read")
        ledger.releaseBody(2 * megabyte)
        #expect(releases.count.load(ordering: .relaxed) == 1)

        // Under the threshold, reading and releasing bodies costs no trim.
        for _ in 0..<10 {
            #expect(ledger.reserveBody(megabyte))
            ledger.releaseBody(megabyte)
        }
        #expect(releases.count.load(ordering: .relaxed) == 1)

        // Over the budget a body is refused and nothing is held for it.
        #expect(!ledger.reserveBody(17 * megabyte))
        #expect(ledger.reserveBody(16 * megabyte))
        ledger.releaseBody(16 * megabyte)
        #expect(releases.count.load(ordering: .relaxed) == 2)
    }
}
