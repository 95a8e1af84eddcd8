import Foundation
import IdentityToolkit
import Testing
@testable import IdentityEmulator

/// A shared backend (an admin token: `authdeck serve` off loopback, the backend of `authdeck ssh`):
/// a caller's simulated identities are theirs alone and vouch for no email, so nobody reaches an
/// account they do not control through an identity they made up for its email.
@Suite struct SharedBackendIdentityTests {
    static let adminToken = "shared-admin-token-0123456789"
    static let attacker = "attacker-owner-secret-0123456789"
    static let visitor = "visitor-owner-secret-9876543210"

    private func sharedHarness() throws -> Harness {
        try Harness(configuration: .init(adminToken: Self.adminToken))
    }

    @Test(arguments: ["google.com", "apple.com"], [false, true])
    func anIdentityMadeUpForSomebodysEmailNeitherLinksNorTakesOver(providerId: String, victimVerified: Bool) async throws {
        let harness = try sharedHarness()
        defer { harness.remove() }
        let victim = try await harness.signUp("victim@example.com", "victim-password")
        if victimVerified {
            let update = try await harness.raw(AccountsUpdateRequest.endpoint.emulatorPath,
                                               body: #"{"localId":"\#(victim.localId ?? "")","emailVerified":true}"#,
                                               headers: ["Authorization": "Bearer \(Self.adminToken)"])
            #expect(update.status == 200)
        }

        let identity = try await harness.api.call(SimulatedIdpAddIdentityRequest(
            providerId: providerId, displayName: "Mallory", email: "victim@example.com", ownerSecret: Self.attacker))
        let nonce = "attacker-nonce-0123456789"
        let answer = try await harness.api.call(SimulatedIdpAuthorizeRequest(
            providerId: providerId, subject: identity.subject, scopes: providerId == "apple.com" ? ["email", "name"] : ["email", "profile"],
            nonce: sha256Hex(nonce), ownerSecret: Self.attacker))
        let verified = claims(of: answer.idToken)["email_verified"]
        #expect(verified as? Bool == false || verified as? String == "false")

        let attempt = try await harness.signInWithIdp(postBody(providerId, idToken: answer.idToken, accessToken: answer.accessToken, nonce: nonce))
        #expect(attempt.needConfirmation == true)
        #expect(attempt.idToken == nil)
        #expect(attempt.refreshToken == nil)
        #expect(attempt.localId == nil)
        // The pending token stands for the same unverified identity: it does not get further.
        let again = try await harness.signInWithIdp(nil, pendingToken: attempt.pendingToken)
        #expect(again.needConfirmation == true)
        #expect(again.idToken == nil)

        // The account is untouched: its password works and no provider was linked.
        let signedIn = try await harness.signIn("victim@example.com", "victim-password")
        let account = try #require(try await harness.lookup(signedIn.idToken))
        #expect(account.localId == victim.localId)
        #expect(account.providerUserInfo?.map(\.providerId) == ["password"])
        #expect(account.emailVerified == victimVerified)
    }

    @Test func eachCallerSeesAndAuthorizesOnlyTheirOwnIdentities() async throws {
        let harness = try sharedHarness()
        defer { harness.remove() }
        let mine = try await harness.api.call(SimulatedIdpAddIdentityRequest(
            providerId: "google.com", displayName: "Ada", email: "ada@example.com", ownerSecret: Self.visitor))

        func list(_ secret: String?) async throws -> [String] {
            try await harness.api.call(SimulatedIdpListRequest(providerId: "google.com", ownerSecret: secret)).identities.map(\.subject)
        }
        #expect(try await list(Self.visitor) == [mine.subject])
        #expect(try await list(Self.attacker) == [])
        #expect(try await list(nil) == [])

        for secret in [Self.attacker, nil] {
            await #expect(throws: server("IDENTITY_NOT_FOUND : google.com knows no identity \(mine.subject).")) {
                _ = try await harness.api.call(SimulatedIdpAuthorizeRequest(providerId: "google.com", subject: mine.subject,
                                                                            scopes: ["email"], ownerSecret: secret))
            }
        }
        await #expect(throws: server("INVALID_ARGUMENT : This backend is shared: a simulated identity needs an ownerSecret, and belongs to whoever holds it.")) {
            _ = try await harness.addIdentity("google.com", "Nobody", "nobody@example.com")
        }
        await #expect(throws: server("INVALID_ARGUMENT : ownerSecret must be at least 16 characters.")) {
            _ = try await harness.api.call(SimulatedIdpListRequest(providerId: "google.com", ownerSecret: "short"))
        }
        // Another caller may make up the same email: the existence of mine is not revealed, nor in the way.
        let theirs = try await harness.api.call(SimulatedIdpAddIdentityRequest(
            providerId: "google.com", displayName: "Ada?", email: "ada@example.com", ownerSecret: Self.attacker))
        #expect(theirs.subject != mine.subject)
        let authorized = try await harness.api.call(SimulatedIdpAuthorizeRequest(providerId: "google.com", subject: mine.subject,
                                                                                 scopes: ["email"], ownerSecret: Self.visitor))
        #expect(claims(of: authorized.idToken)["email_verified"] as? Bool == false)
    }

    @Test func theAdministratorSeesEveryoneAndVouchesForTheirOwnIdentities() async throws {
        let harness = try sharedHarness()
        defer { harness.remove() }
        let admin = ["Authorization": "Bearer \(Self.adminToken)"]
        _ = try await harness.api.call(SimulatedIdpAddIdentityRequest(
            providerId: "google.com", displayName: "Ada", email: "ada@example.com", ownerSecret: Self.visitor))
        let added = await harness.raw(SimulatedIdpAddIdentityRequest.endpoint.emulatorPath,
                                      body: #"{"providerId":"google.com","displayName":"Grace","email":"grace@example.com"}"#, headers: admin)
        let grace = try WireCoding.decode(SimulatedIdentity.self, from: added)
        let listed = try WireCoding.decode(SimulatedIdpListResponse.self, from: await harness.raw(
            SimulatedIdpListRequest.endpoint.emulatorPath, body: #"{"providerId":"google.com"}"#, headers: admin))
        #expect(Set(listed.identities.compactMap(\.email)) == ["ada@example.com", "grace@example.com"])
        let authorized = try WireCoding.decode(SimulatedIdpAuthorizeResponse.self, from: await harness.raw(
            SimulatedIdpAuthorizeRequest.endpoint.emulatorPath,
            body: #"{"providerId":"google.com","subject":"\#(grace.subject)","scopes":["email"]}"#, headers: admin))
        #expect(claims(of: authorized.idToken)["email_verified"] as? Bool == true)
    }

    @Test func aBackendThatIsNotSharedIgnoresOwnersAndVouchesAsTheProvidersDo() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        let identity = try await harness.api.call(SimulatedIdpAddIdentityRequest(
            providerId: "google.com", displayName: "Ada", email: "ada@example.com", ownerSecret: Self.visitor))
        let listed = try await harness.api.call(SimulatedIdpListRequest(providerId: "google.com"))
        #expect(listed.identities.map(\.subject) == [identity.subject])
        let answer = try await harness.authorize("google.com", identity.subject)
        #expect(claims(of: answer.idToken)["email_verified"] as? Bool == true)
    }
}
