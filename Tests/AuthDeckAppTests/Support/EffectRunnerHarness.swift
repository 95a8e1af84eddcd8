import AppData
@testable import AuthDeckApp
import AuthClient
import Foundation
import IdentityEmulator
import IdentityTestSupport
import Logging

/// The effect runner as the console has it: a real `Auth` on a real embedded backend, reached in
/// process or over HTTP, a real cart store, and one movable clock for the backend and the client.
struct EffectRunnerHarness {
    let served: TestBackend
    let clock: TestClock
    let auth: Auth
    let cart: CartStore
    let runner: EffectRunner

    var backend: EmbeddedBackend { served.backend }

    /// Runs `body` with a fresh harness; the backend, its server and its directory go away afterwards.
    static func with(_ transport: BackendTransport, _ body: (EffectRunnerHarness) async throws -> Void) async throws {
        let clock = TestClock()
        try await withTestBackend(transport, clock: clock.read) { served in
            let auth = Auth(backend: served.makeTransport(), clock: clock.read)
            let cart = try CartStore()
            let runner = EffectRunner(auth: auth, cart: cart, logger: Logger(label: "test"), send: { _ in })
            try await body(EffectRunnerHarness(served: served, clock: clock, auth: auth, cart: cart, runner: runner))
        }
    }

    /// An identity at the simulated provider and a consent, through the runner as the console does it.
    func consent(_ provider: OAuthProvider, name: String, email: String) async throws -> ProviderAuthorization {
        guard case let .simulatedIdentityAdded(_, .success(identity))? = await runner.perform(
            .consent(.addSimulatedIdentity(providerID: provider.providerID, name: name, email: email))).feature(ConsentFeature.Event.self) else { throw AuthError(.internalError) }
        guard case let .providerAuthorized(.success(authorization))? = await runner.perform(
            .consent(.authorize(provider, subject: identity.subject, hideEmail: nil))).feature(ConsentFeature.Event.self) else { throw AuthError(.internalError) }
        return authorization
    }
}

extension Optional where Wrapped == ConsoleEvent {
    /// The feature's result the runner answered with, if it is of `type`.
    func feature<Event: FeatureResult>(_ type: Event.Type) -> Event? {
        guard case let .feature(result)? = self else { return nil }
        return result.event(as: type)
    }
}
