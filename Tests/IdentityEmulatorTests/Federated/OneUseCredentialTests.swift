import Foundation
import IdentityToolkit
import Testing
@testable import IdentityEmulator

/// One-use credentials are used once, and never outlive what they came from.
@Suite struct OneUseCredentialTests {
    /// Bob's account has Apple linked; Ada's session tries to link the same Apple identity.
    private func appleConflict(_ harness: Harness) async throws -> (pendingToken: String, bob: String) {
        let bob = try await harness.signUp("bob@example.com")
        let identity = try await harness.addIdentity("apple.com", "Bob Apple", "bob.apple@example.com")
        let first = try await harness.appleCredential(identity.subject, rawNonce: "nonce-first")
        _ = try await harness.signInWithIdp(postBody("apple.com", idToken: first.idToken, nonce: "nonce-first"), idToken: bob.idToken)
        let ada = try await harness.signUp("ada@example.com")
        let second = try await harness.appleCredential(identity.subject, rawNonce: "nonce-second")
        let conflict = try await harness.signInWithIdp(postBody("apple.com", idToken: second.idToken, nonce: "nonce-second"), idToken: ada.idToken)
        #expect(conflict.errorMessage == "FEDERATED_USER_ID_ALREADY_LINKED")
        return (try #require(conflict.pendingToken), bob.localId)
    }

    @Test func aPendingTokenSignsInOnce() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        let (pendingToken, bob) = try await appleConflict(harness)
        let signedIn = try await harness.signInWithIdp(nil, pendingToken: pendingToken)
        #expect(signedIn.localId == bob)
        #expect(signedIn.idToken != nil)
        await #expect(throws: server(BackendFailure.invalidPendingToken.message)) {
            _ = try await harness.signInWithIdp(nil, pendingToken: pendingToken)
        }
    }

    @Test func parallelUsesOfAPendingTokenSignInOnce() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        let (pendingToken, _) = try await appleConflict(harness)
        let signedIn = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<8 {
                group.addTask { (try? await harness.signInWithIdp(nil, pendingToken: pendingToken))?.idToken != nil }
            }
            return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(signedIn == 1)
    }

    @Test func aPendingTokenDiesWithTheAppleTokenItStandsFor() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        let (pendingToken, _) = try await appleConflict(harness)
        // Apple's ID tokens live ten minutes; the pending token's hour never extends that.
        harness.clock.advance(601)
        await #expect(throws: server(BackendFailure.invalidPendingToken.message)) {
            _ = try await harness.signInWithIdp(nil, pendingToken: pendingToken)
        }
    }

    @Test func anMfaPendingCredentialCompletesOneSignIn() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        let ada = try await harness.verifiedUser("ada@example.com")
        let (_, secret) = try await harness.enrollTotp(ada.idToken)
        harness.clock.advance(60)
        let first = try await harness.signIn("ada@example.com")
        let pending = try #require(first.mfaPendingCredential)
        let enrollmentId = try #require(first.mfaInfo?.first?.mfaEnrollmentId)
        func finalize() async throws -> MfaTokensResponse {
            try await harness.api.call(FinalizeMfaSignInRequest(
                mfaPendingCredential: pending, mfaEnrollmentId: enrollmentId,
                totpVerificationInfo: TotpVerificationInfo(verificationCode: Totp.code(secret: secret, at: Int64(harness.clock.seconds)))))
        }
        #expect(try await finalize().idToken != nil)
        // A fresh code (the next interval) does not make the spent credential good again.
        harness.clock.advance(30)
        await #expect(throws: server("INVALID_MFA_PENDING_CREDENTIAL")) { _ = try await finalize() }
    }

    @Test func anMfaPendingCredentialDiesWithTheAppleTokenItCameFrom() async throws {
        let harness = try Harness(configuration: { var c = EmbeddedBackendConfiguration(); c.mfaPendingCredentialLifetime = 3600; return c }())
        defer { harness.remove() }
        let ada = try await harness.verifiedUser("ada@example.com")
        _ = try await harness.enrollTotp(ada.idToken)
        let identity = try await harness.addIdentity("apple.com", "Ada", "ada@example.com")
        let apple = try await harness.appleCredential(identity.subject, rawNonce: "nonce-mfa")
        let first = try await harness.signInWithIdp(postBody("apple.com", idToken: apple.idToken, nonce: "nonce-mfa"))
        let pending = try #require(first.mfaPendingCredential)
        #expect(int(claims(of: pending)["exp"]) == int(claims(of: apple.idToken)["exp"]))
    }
}
