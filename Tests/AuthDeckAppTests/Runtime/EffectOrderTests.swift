import AppData
@testable import AuthDeckApp
import AuthClient
import Foundation
import IdentityTestSupport
import Logging
import Testing

/// The runner performs effects in the order the model asked for them: run each in a task of its
/// own, and a cart's add and remove could arrive swapped.
@Suite("Effects run in order")
struct EffectOrderTests {
    @Test(.timeLimit(.minutes(1))) func aCartsAddsAndRemovesArriveInTheOrderAsked() async throws {
        try await withTestBackend(.inProcess) { backend in
            let (events, arrived) = AsyncStream<ConsoleEvent>.makeStream()
            let cart = try CartStore()
            let runner = EffectRunner(auth: Auth(backend: backend.makeTransport()), cart: cart, logger: Logger(label: "test"),
                                      send: { arrived.yield($0) })
            let uid = "orderUID00000000000000000001"
            for _ in 0..<100 {
                runner.run(.addToCart(uid: uid, name: "apple"))
                runner.run(.removeFromCart(uid: uid, name: "apple"))
            }
            var sizes: [Int] = []
            for await event in events {
                guard case let .cartChanged(eventUid, .success(items)) = event, eventUid == uid else {
                    Issue.record("unexpected \(event)")
                    return
                }
                sizes.append(items.count)
                if sizes.count == 200 { break }
            }
            #expect(sizes == Array(repeating: [1, 0], count: 100).flatMap { $0 })
            #expect(try await cart.items(of: uid).isEmpty)
        }
    }
}

/// The console draws its first frame before the backend is open: effects asked for until then wait,
/// in order, and reach the runner once it exists; none is lost, and none runs after the console ended.
@Suite("Effects before the backend is open")
struct PendingRunnerTests {
    @Test(.timeLimit(.minutes(1))) func effectsAskedForBeforeOpeningRunInOrderOnceOpen() async throws {
        try await withTestBackend(.inProcess) { backend in
            let (events, arrived) = AsyncStream<ConsoleEvent>.makeStream()
            let cart = try CartStore()
            let pending = PendingRunner()
            let uid = "pendingUID000000000000000001"
            pending.run(.addToCart(uid: uid, name: "apple"))
            pending.run(.addToCart(uid: uid, name: "pear"))
            pending.run(.removeFromCart(uid: uid, name: "apple"))
            try await Task.sleep(for: .milliseconds(50))
            #expect(try await cart.items(of: uid).isEmpty)
            pending.open {
                EffectRunner(auth: Auth(backend: backend.makeTransport()), cart: cart, logger: Logger(label: "test"), send: { arrived.yield($0) })
            }
            pending.run(.addToCart(uid: uid, name: "plum"))
            var seen: [[String]] = []
            for await event in events {
                guard case let .cartChanged(eventUid, .success(items)) = event, eventUid == uid else { continue }
                seen.append(items.map(\.name).sorted())
                if seen.count == 4 { break }
            }
            #expect(seen == [["apple"], ["apple", "pear"], ["pear"], ["pear", "plum"]])
            #expect(pending.failure == nil)
        }
    }

    @Test(.timeLimit(.minutes(1))) func aFailureToOpenIsKeptAndNoRunnerIsMade() async throws {
        struct Damaged: Error {}
        let pending = PendingRunner()
        pending.run(.signInAnonymously)
        pending.fail(Damaged())
        #expect(pending.failure is Damaged)
        #expect(try await madeARunner(pending) == false)
    }

    @Test(.timeLimit(.minutes(1))) func afterTheConsoleEndedNoRunnerIsMade() async throws {
        let pending = PendingRunner()
        pending.run(.signInAnonymously)
        pending.end()
        #expect(try await madeARunner(pending) == false)
        #expect(pending.failure == nil)
    }

    /// Whether `open` still makes a runner.
    private func madeARunner(_ pending: PendingRunner) async throws -> Bool {
        var made = false
        try await withTestBackend(.inProcess) { backend in
            let cart = try CartStore()
            pending.open {
                made = true
                return EffectRunner(auth: Auth(backend: backend.makeTransport()), cart: cart, logger: Logger(label: "test"), send: { _ in })
            }
        }
        return made
    }
}
