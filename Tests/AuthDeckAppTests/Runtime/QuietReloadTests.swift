import AppData
@testable import AuthDeckApp
import AuthClient
import Foundation
import IdentityTestSupport
import Logging
import Testing

/// Signed in, the console reloads its account now and then, and so learns what another console did
/// to it; at the sign-in screen it has nothing to reload and keeps no timer (an idle room's consoles
/// would each wake for nothing).
@Suite("The quiet reload")
struct QuietReloadTests {
    @Test(.timeLimit(.minutes(1))) func runsOnlyWhileSomeoneIsSignedIn() async throws {
        try await withTestBackend(.inProcess) { backend in
            let (events, arrived) = AsyncStream<ConsoleEvent>.makeStream()
            let auth = Auth(backend: backend.makeTransport())
            let runner = EffectRunner(auth: auth, cart: try CartStore(), reloadInterval: .milliseconds(20), logger: Logger(label: "test"),
                                      send: { arrived.yield($0) })
            runner.observe()
            var changes = events.compactMap { event -> (User?, AuthErrorCode?)? in
                guard case let .authStateChanged(user, _, endedBy) = event else { return nil }
                return (user, endedBy)
            }.makeAsyncIterator()
            #expect(!runner.quietReload.isRunning)

            _ = try await auth.createUser(email: "ada@example.com", password: "hunter22")
            #expect(await changes.next()?.0 != nil)
            #expect(runner.quietReload.isRunning)

            // Another console deletes the account: only a reload can tell this one.
            let other = Auth(backend: backend.makeTransport())
            _ = try await other.signIn(with: .password(email: "ada@example.com", password: "hunter22"))
            try await other.delete()
            // Reloads before the deletion may tell of the account again (a refreshed token): the sign-out follows them.
            var ended = await changes.next()
            while let change = ended, change.0 != nil { ended = await changes.next() }
            #expect(ended != nil && ended?.1 == .userNotFound)
            #expect(!runner.quietReload.isRunning)
        }
    }
}
