import Foundation
import IdentityToolkit
import Testing
@testable import IdentityEmulator

@Suite("Tokens and sessions answer as the emulator")
struct SessionParityTests {
    @Test func refreshingForADisabledUserIsUserDisabledAndForADeletedOneInvalidRefreshToken() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        let disabled = try await harness.signUp("off@example.com")
        _ = try await harness.send("POST", harness.projectPath + "/accounts:update", ["localId": disabled.localId, "disableUser": true])
        await #expect(throws: server("USER_DISABLED")) { try await harness.refresh(disabled.refreshToken) }

        let deleted = try await harness.signUp("gone@example.com")
        _ = try await harness.send("POST", harness.projectPath + "/accounts:delete", ["localId": deleted.localId])
        await #expect(throws: server("INVALID_REFRESH_TOKEN")) { try await harness.refresh(deleted.refreshToken) }
    }

    @Test func aClientsValidSinceEndsItsOtherSessions() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        let signedUp = try await harness.signUp("self@example.com")
        harness.clock.advance(5)
        let other = try await harness.signIn("self@example.com")
        harness.clock.advance(5)
        let revoked = try await harness.raw(AccountsUpdateRequest.endpoint.emulatorPath,
                                            body: #"{"idToken":"\#(signedUp.idToken ?? "")","validSince":"0"}"#)
        #expect(revoked.status == 200)
        let answer = try WireCoding.decode(AccountsUpdateResponse.self, from: revoked)
        #expect(answer.idToken != nil)
        await #expect(throws: server("TOKEN_EXPIRED")) { try await harness.refresh(other.refreshToken) }
        // The answer's own session goes on.
        _ = try await harness.refresh(answer.refreshToken)
    }

    @Test func everySignInSetsLastRefreshAt() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        let signedUp = try await harness.signUp("r@example.com")
        #expect(try harness.stored(signedUp.localId)?.lastRefreshAt == Int64(harness.clock.seconds) * 1000)
        harness.clock.advance(10)
        _ = try await harness.signIn("r@example.com")
        #expect(try harness.stored(signedUp.localId)?.lastRefreshAt == Int64(harness.clock.seconds) * 1000)
    }

    @Test func aPasswordGivenToAnAnonymousAccountMakesTheSessionAPasswordOne() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        let anonymous = try await harness.api.call(SignUpRequest())
        let linked = try await harness.api.call(SignUpRequest(email: "up@example.com", password: "secret-1", idToken: anonymous.idToken))
        #expect((claims(of: linked.idToken)["firebase"] as? [String: Any])?["sign_in_provider"] as? String == "password")
        let other = try await harness.api.call(SignUpRequest())
        let updated = try await harness.api.call(AccountsUpdateRequest(idToken: other.idToken, email: "up2@example.com", password: "secret-2"))
        #expect((claims(of: updated.idToken)["firebase"] as? [String: Any])?["sign_in_provider"] as? String == "password")
        #expect(claims(of: updated.idToken)["provider_id"] == nil)
    }
}

@Suite("An app's accounts:update answers as the emulator")
struct ClientUpdateTests {
    @Test func anAppNamesItsUserAndCannotDisableItselfOrSetClaims() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        let signedUp = try await harness.signUp("app@example.com")
        let path = AccountsUpdateRequest.endpoint.emulatorPath
        #expect(errorMessage(await harness.raw(path, body: #"{"localId":"\#(signedUp.localId)","displayName":"x"}"#))
            == "INVALID_REQ_TYPE : Unsupported request parameters.")
        #expect(errorMessage(await harness.raw(path, body: #"{"idToken":"\#(signedUp.idToken ?? "")","disableUser":true}"#)) == "OPERATION_NOT_ALLOWED")
        #expect(errorMessage(await harness.raw(path, body: #"{"idToken":"\#(signedUp.idToken ?? "")","customAttributes":"{}"}"#))
            == "INSUFFICIENT_PERMISSION")
        #expect(try harness.stored(signedUp.localId)?.disabled == false)
    }
}
