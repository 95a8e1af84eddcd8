import Foundation
import IdentityToolkit
import Testing
@testable import IdentityEmulator

@Suite struct TokenLifecycleTests {
    @Test func idTokensExpireAfterAnHourAndRefreshKeepsAuthTime() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        let signedUp = try await harness.signUp("hal@example.com")
        let signInTime = harness.clock.seconds
        harness.clock.advance(3601)
        await #expect(throws: server("TOKEN_EXPIRED")) { try await harness.lookup(signedUp.idToken) }

        let refreshed = try await harness.refresh(signedUp.refreshToken)
        #expect(refreshed.accessToken == refreshed.idToken)
        #expect(refreshed.refreshToken == signedUp.refreshToken)
        #expect(refreshed.userId == signedUp.localId)
        #expect(refreshed.tokenType == "Bearer")
        #expect(refreshed.expiresIn == "3600")
        let token = claims(of: refreshed.idToken)
        #expect(int(token["auth_time"]) == signInTime)
        #expect(int(token["iat"]) == harness.clock.seconds)
        #expect((token["firebase"] as? [String: Any])?["sign_in_provider"] as? String == "password")
        #expect(try await harness.lookup(refreshed.idToken)?.lastRefreshAt != nil)
    }

    @Test func theTokenEndpointAcceptsFormEncoding() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        let signedUp = try await harness.signUp("ida@example.com")
        let token = try #require(signedUp.refreshToken)
        let form = await harness.raw(SecureTokenRequest.endpoint.emulatorPath + "?key=test-key",
                                     body: "grant_type=refresh_token&refresh_token=\(token)",
                                     headers: ["Content-Type": "application/x-www-form-urlencoded"])
        #expect(form.status == 200)
        #expect(try WireCoding.decode(SecureTokenResponse.self, from: form).userId == signedUp.localId)

        let path = SecureTokenRequest.endpoint.emulatorPath
        #expect(errorMessage(await harness.raw(path, body: "refresh_token=\(token)")) == "MISSING_GRANT_TYPE")
        #expect(errorMessage(await harness.raw(path, body: "grant_type=password&refresh_token=\(token)")) == "INVALID_GRANT_TYPE")
        #expect(errorMessage(await harness.raw(path, body: #"{"grantType":"refresh_token"}"#)) == "MISSING_REFRESH_TOKEN")
        await #expect(throws: server("INVALID_REFRESH_TOKEN")) { try await harness.refresh("not-a-token") }
    }

    @Test func aPasswordChangeRevokesOlderTokensAndReturnsNewOnes() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        let signedUp = try await harness.signUp("jay@example.com")
        harness.clock.advance(1)
        let updated = try await harness.api.call(AccountsUpdateRequest(idToken: signedUp.idToken, password: "new-secret"))
        #expect(updated.idToken != nil)
        #expect(updated.refreshToken != nil)
        #expect(updated.expiresIn == "3600")
        #expect(updated.passwordHash == "UkVEQUNURUQ=")

        await #expect(throws: server("TOKEN_EXPIRED")) { try await harness.refresh(signedUp.refreshToken) }
        await #expect(throws: server("TOKEN_EXPIRED")) { try await harness.lookup(signedUp.idToken) }
        #expect(try await harness.lookup(updated.idToken)?.validSince == String(harness.clock.seconds))
        _ = try await harness.refresh(updated.refreshToken)
        await #expect(throws: server("INVALID_LOGIN_CREDENTIALS")) { try await harness.signIn("jay@example.com") }
        _ = try await harness.signIn("jay@example.com", "new-secret")
        await #expect(throws: server("WEAK_PASSWORD : Password should be at least 6 characters")) {
            try await harness.api.call(AccountsUpdateRequest(idToken: updated.idToken, password: "short"))
        }
    }

    /// `validSince` counts seconds; a token issued earlier in the revocation's own second is ended all the same.
    @Test func aRevocationEndsTheIdTokensIssuedEarlierInItsOwnSecond() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        harness.clock.advance(0.2)
        let signedUp = try await harness.signUp("lee@example.com")
        harness.clock.advance(0.3)
        let updated = try await harness.api.call(AccountsUpdateRequest(idToken: signedUp.idToken, password: "new-secret"))
        #expect(int(claims(of: signedUp.idToken)["iat"]) == int(claims(of: updated.idToken)["iat"]))
        await #expect(throws: server("TOKEN_EXPIRED")) { try await harness.lookup(signedUp.idToken) }
        await #expect(throws: server("TOKEN_EXPIRED")) {
            try await harness.api.call(AccountsUpdateRequest(idToken: signedUp.idToken, displayName: "Lee"))
        }
        await #expect(throws: server("TOKEN_EXPIRED")) {
            try await harness.api.call(SendOobCodeRequest(requestType: .verifyEmail, idToken: signedUp.idToken))
        }
        // The tokens the change returned, and those the new session mints later in the same second, are valid.
        #expect(try await harness.lookup(updated.idToken)?.localId == signedUp.localId)
        harness.clock.advance(0.1)
        let refreshed = try await harness.refresh(updated.refreshToken)
        #expect(try await harness.lookup(refreshed.idToken)?.localId == signedUp.localId)
    }

    @Test func anAdministratorsValidSinceRevokesEarlierTokens() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        let signedUp = try await harness.signUp("kim@example.com")
        harness.clock.advance(5)
        _ = try await harness.admin(AccountsUpdateRequest(localId: signedUp.localId, validSince: String(harness.clock.seconds)))
        await #expect(throws: server("TOKEN_EXPIRED")) { try await harness.lookup(signedUp.idToken) }
        await #expect(throws: server("TOKEN_EXPIRED")) { try await harness.refresh(signedUp.refreshToken) }
        let again = try await harness.signIn("kim@example.com")
        #expect(try await harness.lookup(again.idToken)?.localId == signedUp.localId)
    }

    /// A verified token is remembered (the next call skips RSA); its account is still checked every time.
    @Test func aTokenUsedBeforeIsStillRefusedOnceRevokedDisabledDeletedOrExpired() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        let revoked = try await harness.signUp("lea@example.com")
        let disabled = try await harness.signUp("max@example.com")
        let deleted = try await harness.signUp("ned@example.com")
        for session in [revoked, disabled, deleted] { #expect(try await harness.lookup(session.idToken) != nil) }
        harness.clock.advance(5)
        _ = try await harness.admin(AccountsUpdateRequest(localId: revoked.localId, validSince: String(harness.clock.seconds)))
        _ = try await harness.admin(AccountsUpdateRequest(localId: disabled.localId, disableUser: true))
        _ = try await harness.admin(AccountsDeleteRequest(localId: deleted.localId))
        await #expect(throws: server("TOKEN_EXPIRED")) { try await harness.lookup(revoked.idToken) }
        await #expect(throws: server("USER_DISABLED")) { try await harness.lookup(disabled.idToken) }
        await #expect(throws: server("USER_NOT_FOUND")) { try await harness.lookup(deleted.idToken) }

        let fresh = try await harness.signUp("ola@example.com")
        #expect(try await harness.lookup(fresh.idToken) != nil)
        harness.clock.advance(3601)
        await #expect(throws: server("TOKEN_EXPIRED")) { try await harness.lookup(fresh.idToken) }
    }

    @Test func sensitiveChangesNeedARecentSignIn() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        let signedUp = try await harness.signUp("lee@example.com")
        harness.clock.advance(301)
        let stale = try await harness.refresh(signedUp.refreshToken)
        await #expect(throws: server("CREDENTIAL_TOO_OLD_LOGIN_AGAIN")) {
            try await harness.api.call(AccountsUpdateRequest(idToken: stale.idToken, password: "new-secret"))
        }
        await #expect(throws: server("CREDENTIAL_TOO_OLD_LOGIN_AGAIN")) {
            try await harness.api.call(AccountsUpdateRequest(idToken: stale.idToken, email: "lee2@example.com"))
        }
        await #expect(throws: server("CREDENTIAL_TOO_OLD_LOGIN_AGAIN")) {
            try await harness.api.call(AccountsDeleteRequest(idToken: stale.idToken))
        }
        let renamed = try await harness.api.call(AccountsUpdateRequest(idToken: stale.idToken, displayName: "Lee"))
        #expect(renamed.displayName == "Lee")
        #expect(renamed.idToken == nil)

        let fresh = try await harness.signIn("lee@example.com")
        let moved = try await harness.api.call(AccountsUpdateRequest(idToken: fresh.idToken, email: "Lee2@example.com"))
        #expect(moved.email == "lee2@example.com")
        #expect(moved.idToken != nil)
        #expect(claims(of: moved.idToken)["email"] as? String == "lee2@example.com")
        _ = try await harness.signIn("lee2@example.com")
    }

    @Test func customClaimsAppearAtTheTopLevelWithoutOverridingReservedOnes() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        let signedUp = try await harness.signUp("max@example.com")
        await #expect(throws: server("FORBIDDEN_CLAIM : iss")) {
            try await harness.admin(AccountsUpdateRequest(localId: signedUp.localId, customAttributes: #"{"iss":"evil","role":"admin"}"#))
        }
        await #expect(throws: server("INVALID_CLAIMS")) {
            try await harness.admin(AccountsUpdateRequest(localId: signedUp.localId, customAttributes: "[1]"))
        }
        _ = try await harness.admin(AccountsUpdateRequest(localId: signedUp.localId, customAttributes: #"{"role":"admin","email":"x@y.z"}"#))
        let token = claims(of: try await harness.refresh(signedUp.refreshToken).idToken)
        #expect(token["role"] as? String == "admin")
        #expect(token["email"] as? String == "max@example.com")
    }

    /// The claims are written by hand (`JSONWriter`): names with quotes, controls and non-ASCII, and
    /// nested custom claims, must come back from the token exactly.
    @Test func claimsWithAwkwardStringsReadBackExactly() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        let signedUp = try await harness.signUp("ann@example.com")
        let name = "Ann \"the\" O\\Brien\n\t\u{1}\u{1F} ünï 漢字 👩‍👩‍👧 \u{2028}</script>"
        let picture = "https://example.com/a b/\"p\".png?x=1&y=ü"
        _ = try await harness.admin(AccountsUpdateRequest(localId: signedUp.localId, displayName: name, photoUrl: picture,
                                                          customAttributes: #"{"z":{"b":[1,2.5,null,true],"a":"q\"\u0001"},"role":"ädmin"}"#))
        let token = claims(of: try await harness.refresh(signedUp.refreshToken).idToken)
        #expect(token["name"] as? String == name)
        #expect(token["picture"] as? String == picture)
        #expect(token["role"] as? String == "ädmin")
        let nested = try #require(token["z"] as? [String: Any])
        #expect(nested["a"] as? String == "q\"\u{1}")
        #expect((nested["b"] as? [Any])?.count == 4)
        #expect(token["email"] as? String == "ann@example.com")
        #expect(token["email_verified"] as? Bool == false)
        let firebase = try #require(token["firebase"] as? [String: Any])
        #expect(firebase["identities"] as? [String: [String]] == ["email": ["ann@example.com"]])
        #expect(firebase["sign_in_provider"] as? String == "password")
    }
}
