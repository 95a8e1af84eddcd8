@testable import AuthClient
import Foundation
import IdentityEmulator
import IdentityTestSupport
import IdentityToolkit
import Testing

/// An account takeover, as a visitor of a shared backend would try it from their own
/// console: make up a Google or Apple identity with someone else's email, consent, sign in with it.
@Suite("A shared backend: nobody signs in to another's account with a simulated identity, in process and over HTTP")
struct SharedBackendTakeoverTests {
    static let shared = EmbeddedBackendConfiguration(adminToken: "shared-admin-token-0123456789")

    @Test(arguments: BackendTransport.allCases, [google, apple])
    func aMadeUpIdentityForSomebodysEmailGetsNoSession(_ transport: BackendTransport, provider: OAuthProvider) async throws {
        try await withHarness(transport, Self.shared) { harness in
            let owner = harness.auth(session: "owner.json")
            let account = try await owner.createUser(email: "owner@example.com", password: "owner-password").user

            let attacker = harness.auth(session: "attacker.json")
            let attackersProviders = SimulatedIdentityProviders(backend: harness.served.makeTransport(),
                                                                ownerSecret: "attacker-console-secret-0123456789")
            let identity = try await attackersProviders.addIdentity(providerID: provider.providerID, displayName: "Mallory",
                                                                    email: "owner@example.com")
            let consent = try await attackersProviders.authorize(provider, subject: identity.subject, rawNonce: OAuthProvider.randomNonce())
            await expectAuthError(.accountExistsWithDifferentCredential) { _ = try await attacker.signIn(with: consent.credential) }
            #expect(await attacker.currentUser == nil)

            // Another console sees nothing of the attacker's people.
            let visitorsProviders = SimulatedIdentityProviders(backend: harness.served.makeTransport(),
                                                               ownerSecret: "visitor-console-secret-0123456789")
            #expect(try await visitorsProviders.directory(for: provider.providerID).identities.isEmpty)

            // The owner's way in is intact and nothing was linked.
            await owner.signOut()
            let back = try await owner.signIn(email: "owner@example.com", password: "owner-password").user
            #expect(back.uid == account.uid)
            #expect(back.providerData.map(\.providerID) == ["password"])
        }
    }
}
