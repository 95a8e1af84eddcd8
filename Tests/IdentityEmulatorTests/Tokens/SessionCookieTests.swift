import Foundation
import IdentityToolkit
import JWTKit
import Testing
@testable import IdentityEmulator

private struct SessionCookieClaims: JWTPayload {
    let iss: String
    let aud: String
    let sub: String
    let iat: Int
    let exp: Int
    let auth_time: Int
    func verify(using algorithm: some JWTAlgorithm) async throws {}
}

@Suite struct SessionCookieTests {
    @Test func aSessionCookieCarriesTheIdTokensClaimsUnderTheSessionIssuer() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        let signedUp = try await harness.signUp("pia@example.com")
        _ = try await harness.adminCall("/accounts:update", ["localId": signedUp.localId, "customAttributes": #"{"role":"editor"}"#],
                                        as: AccountsUpdateResponse.self)
        let idToken = try await harness.signIn("pia@example.com").idToken
        harness.clock.advance(30)
        let response = try await harness.adminCall(":createSessionCookie", ["idToken": try #require(idToken), "validDuration": "3600"],
                                                   as: CreateSessionCookieResponse.self)
        let keys = JWTKeyCollection()
        try await keys.add(jwksJSON: String(decoding: harness.backend.publicKeysJWKS(), as: UTF8.self))
        let cookie = try await keys.verify(response.sessionCookie, as: SessionCookieClaims.self)
        #expect(cookie.iss == "https://session.firebase.google.com/authdeck-local")
        #expect(cookie.aud == "authdeck-local")
        #expect(cookie.sub == signedUp.localId)
        #expect(cookie.iat == harness.clock.seconds)
        #expect(cookie.exp == harness.clock.seconds + 3600)
        #expect(cookie.auth_time == harness.clock.seconds - 30)
        #expect(claims(of: response.sessionCookie)["role"] as? String == "editor")
        #expect(claims(of: response.sessionCookie)["email"] as? String == "pia@example.com")

        let twoWeeks = try await harness.adminCall(":createSessionCookie", ["idToken": try #require(idToken)], as: CreateSessionCookieResponse.self)
        #expect(int(claims(of: twoWeeks.sessionCookie)["exp"]) == harness.clock.seconds + 14 * 24 * 3600)
    }

    @Test func theDurationAndTheIdTokenAreChecked() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        let signedUp = try await harness.signUp("quin@example.com")
        let path = harness.projectPath + ":createSessionCookie"
        let idToken = try #require(signedUp.idToken)
        #expect(errorMessage(try await harness.send("POST", path, ["idToken": idToken, "validDuration": 299])) == "INVALID_DURATION")
        #expect(errorMessage(try await harness.send("POST", path, ["idToken": idToken, "validDuration": 14 * 24 * 3600 + 1])) == "INVALID_DURATION")
        #expect(errorMessage(try await harness.send("POST", path, ["validDuration": 300])) == "MISSING_ID_TOKEN")
        #expect(errorMessage(try await harness.send("POST", path, ["idToken": "not.a.token", "validDuration": 300])) == "INVALID_ID_TOKEN")
        _ = try await harness.adminCall("/accounts:update", ["localId": signedUp.localId, "disableUser": true], as: AccountsUpdateResponse.self)
        #expect(errorMessage(try await harness.send("POST", path, ["idToken": idToken, "validDuration": 300])) == "USER_DISABLED")
        #expect(try await harness.send("POST", path, ["idToken": idToken], headers: ["x-goog-api-key": "key"]).status == 400)
    }
}
