import NIOCore
import Synchronization
import Testing

@testable import SSHServer

/// The penalty table's bound: full of unexpired penalties it takes no new source, and takes one
/// again as soon as the first penalty in it has run out.
@Suite struct SourcePenaltyTableTests {
    @Test func aFullTableTakesANewSourceOnceItsFirstPenaltyRunsOut() {
        let now = Mutex(NIODeadline.uptimeNanoseconds(1_000_000_000_000))
        var limits = SSHLimits()
        limits.maxHandshakes = 10
        limits.maxHandshakesPerAddress = 10
        limits.penalties.maximumSources = 2
        limits.penalties.enforcedFrom = .zero
        let registry = ConnectionRegistry(limits: limits, clock: { now.withLock { $0 } })
        func advance(_ amount: TimeAmount) { now.withLock { $0 = $0 + amount } }

        registry.penalise(address: "10.0.0.1")
        advance(.seconds(1))
        registry.penalise(address: "10.0.0.2")
        #expect(registry.admitHandshake(address: "10.0.0.1") {} == nil)
        #expect(registry.admitHandshake(address: "10.0.0.2") {} == nil)
        // Full: a third source goes unpenalised, however often it fails, while both penalties last.
        advance(.seconds(1))
        registry.penalise(address: "10.0.0.3")
        registry.penalise(address: "10.0.0.3")
        #expect(registry.admitHandshake(address: "10.0.0.3") {} != nil)
        // The first penalty has run out (5 s after it began): its place goes to the next source to fail.
        advance(.milliseconds(3500))
        registry.penalise(address: "10.0.0.3")
        #expect(registry.admitHandshake(address: "10.0.0.3") {} == nil)
        #expect(registry.admitHandshake(address: "10.0.0.2") {} == nil)
        // And a source already in the table keeps adding to its own penalty while the table is full.
        registry.penalise(address: "10.0.0.2")
        advance(.seconds(3))
        #expect(registry.admitHandshake(address: "10.0.0.2") {} == nil)
    }
}
