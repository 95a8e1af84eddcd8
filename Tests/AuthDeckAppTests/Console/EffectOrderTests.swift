import AppData
@testable import AuthDeckApp
import AuthClient
import Foundation
import IdentityTestSupport
import Logging
import Testing

/// The runner performs effects in the order the model asked for them (issue 13, item 15): each
/// used to run in a task of its own, so a cart's add and remove could arrive swapped.
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
            #expect(try cart.items(of: uid).isEmpty)
        }
    }
}
