import Foundation
import IdentityToolkit
import JWTKit
import Testing
@testable import IdentityEmulator

/// The claims the tests read back through JWTKit; the signature check is the point.
private struct FirebaseIdClaims: JWTPayload {
    let iss: String
    let aud: String
    let sub: String
    let iat: Int
    let exp: Int
    func verify(using algorithm: some JWTAlgorithm) async throws {}
}

@Suite struct SignUpAndSignInTests {
    @Test func anonymousSignUpMintsAVerifiableAnonymousToken() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        let response = try await harness.api.call(SignUpRequest())
        #expect(response.email == nil)
        #expect(response.expiresIn == "3600")

        let token = claims(of: response.idToken)
        #expect(token["provider_id"] as? String == "anonymous")
        #expect((token["firebase"] as? [String: Any])?["sign_in_provider"] as? String == "anonymous")
        #expect(token["iss"] as? String == "https://securetoken.google.com/authdeck-local")
        #expect(token["aud"] as? String == "authdeck-local")
        #expect(token["sub"] as? String == response.localId)
        #expect(token["user_id"] as? String == response.localId)
        #expect(int(token["iat"]) == harness.clock.seconds)
        #expect(int(token["exp"]) == harness.clock.seconds + 3600)
        #expect(int(token["auth_time"]) == harness.clock.seconds)
        #expect(token["email"] == nil)
        #expect(header(of: response.idToken)["alg"] as? String == "RS256")
        let kid = try #require(header(of: response.idToken)["kid"] as? String)
        #expect(!kid.isEmpty)

        let keys = JWTKeyCollection()
        try await keys.add(jwksJSON: String(decoding: harness.backend.publicKeysJWKS(), as: UTF8.self))
        let verified = try await keys.verify(try #require(response.idToken), as: FirebaseIdClaims.self)
        #expect(verified.sub == response.localId)

        let user = try #require(try await harness.lookup(response.idToken))
        #expect(user.providerUserInfo == nil)
        #expect(user.email == nil)
        #expect(user.passwordHash == nil)
    }

    @Test func anEmptyBodyIsAnAnonymousSignUp() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        let response = await harness.raw(SignUpRequest.endpoint.emulatorPath, body: "")
        #expect(response.status == 200)
        let decoded = try WireCoding.decode(SignUpResponse.self, from: response)
        #expect(claims(of: decoded.idToken)["provider_id"] as? String == "anonymous")
    }

    @Test func emailSignUpThenSignIn() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        let created = try await harness.api.call(SignUpRequest(email: "  Alice@Example.COM ", password: "secret-1", displayName: "Alice"))
        #expect(created.email == "alice@example.com")
        #expect(created.displayName == "Alice")

        harness.clock.advance(10)
        let signedIn = try await harness.signIn("ALICE@example.com")
        #expect(signedIn.localId == created.localId)
        #expect(signedIn.registered == true)
        let token = claims(of: signedIn.idToken)
        let firebase = try #require(token["firebase"] as? [String: Any])
        #expect(firebase["sign_in_provider"] as? String == "password")
        #expect((firebase["identities"] as? [String: Any])?["email"] as? [String] == ["alice@example.com"])
        #expect(token["email"] as? String == "alice@example.com")
        #expect(token["email_verified"] as? Bool == false)
        #expect(token["name"] as? String == "Alice")
        #expect(token["provider_id"] == nil)

        let user = try #require(try await harness.lookup(signedIn.idToken))
        #expect(user.passwordHash == "UkVEQUNURUQ=")
        #expect(user.salt == nil)
        #expect(user.providerUserInfo == [ProviderUserInfo(providerId: "password", rawId: "alice@example.com",
                                                           federatedId: "alice@example.com", email: "alice@example.com")])
        let createdMs = Int64(harness.clock.seconds - 10) * 1000
        #expect(user.createdAt == String(createdMs))
        #expect(user.lastLoginAt == String(createdMs + 10_000))
        #expect(user.passwordUpdatedAt == Double(createdMs))
        #expect(user.validSince == String(harness.clock.seconds - 10))

        let asAdmin = try await harness.admin(AccountsLookupRequest(localId: [created.localId]))
        #expect(asAdmin.users?.first?.passwordHash != "UkVEQUNURUQ=")
        #expect(asAdmin.users?.first?.salt != nil)
    }

    @Test func linkingEmailPasswordUpgradesTheAnonymousUserInPlace() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        let anonymous = try await harness.api.call(SignUpRequest())
        let upgraded = try await harness.api.call(SignUpRequest(email: "bob@example.com", password: "secret-1", idToken: anonymous.idToken))
        #expect(upgraded.localId == anonymous.localId)
        #expect(upgraded.email == "bob@example.com")
        let token = claims(of: upgraded.idToken)
        #expect(token["provider_id"] == nil)
        #expect((token["firebase"] as? [String: Any])?["sign_in_provider"] as? String == "password")
        #expect(try await harness.signIn("bob@example.com").localId == anonymous.localId)
        let user = try #require(try await harness.lookup(upgraded.idToken))
        #expect(user.providerUserInfo?.map(\.providerId) == ["password"])
    }

    @Test func signUpRejectsBadInput() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        await #expect(throws: server("WEAK_PASSWORD : Password should be at least 6 characters")) {
            try await harness.signUp("carol@example.com", "12345")
        }
        await #expect(throws: server("MISSING_PASSWORD")) {
            try await harness.api.call(SignUpRequest(email: "carol@example.com"))
        }
        await #expect(throws: server("MISSING_EMAIL")) {
            try await harness.api.call(SignUpRequest(password: "secret-1"))
        }
        for malformed in ["carol", "carol@example", "carol @example.com", "carol@exa mple.com", "@example.com", "carol@example.com\u{7}x", "a@@b.com",
                          // Bytes that were not UTF-8, as a decoder replaces them (pasted over SSH, say).
                          "ca\u{FFFD}\u{FFFD}rol@example.com"] {
            await #expect(throws: server("INVALID_EMAIL"), "\(malformed)") {
                try await harness.signUp(malformed)
            }
        }
        _ = try await harness.signUp("carol@example.com")
        await #expect(throws: server("EMAIL_EXISTS")) {
            try await harness.signUp("Carol@Example.com", "another-1")
        }
        let anonymous = try await harness.api.call(SignUpRequest())
        await #expect(throws: server("EMAIL_EXISTS")) {
            try await harness.api.call(SignUpRequest(email: "carol@example.com", password: "secret-1", idToken: anonymous.idToken))
        }
    }

    @Test func failedSignInsDoNotRevealEmailsWhenProtected() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        _ = try await harness.signUp("dave@example.com")
        await #expect(throws: server("INVALID_LOGIN_CREDENTIALS")) { try await harness.signIn("dave@example.com", "wrong-password") }
        await #expect(throws: server("INVALID_LOGIN_CREDENTIALS")) { try await harness.signIn("nobody@example.com") }
        await #expect(throws: server("MISSING_PASSWORD")) { try await harness.signIn("dave@example.com", "") }
        await #expect(throws: server("INVALID_EMAIL")) { try await harness.signIn("dave", "secret-1") }
    }

    @Test func failedSignInsNameTheProblemWithoutProtection() async throws {
        let harness = try Harness(configuration: .init(emailEnumerationProtection: false))
        defer { harness.remove() }
        _ = try await harness.signUp("erin@example.com")
        await #expect(throws: server("INVALID_PASSWORD")) { try await harness.signIn("erin@example.com", "wrong-password") }
        await #expect(throws: server("EMAIL_NOT_FOUND")) { try await harness.signIn("nobody@example.com") }
    }

    @Test func repeatedWrongPasswordsLockTheAccountUntilTheLockoutEnds() async throws {
        let harness = try Harness(configuration: .init(maxFailedPasswordAttempts: 3, lockoutDuration: 900))
        defer { harness.remove() }
        _ = try await harness.signUp("fay@example.com")

        // A success in between resets the count.
        for _ in 0..<2 { _ = try? await harness.signIn("fay@example.com", "wrong-password") }
        _ = try await harness.signIn("fay@example.com")
        for _ in 0..<2 { _ = try? await harness.signIn("fay@example.com", "wrong-password") }
        _ = try await harness.signIn("fay@example.com")

        for _ in 0..<3 {
            await #expect(throws: server("INVALID_LOGIN_CREDENTIALS")) { try await harness.signIn("fay@example.com", "wrong-password") }
        }
        let tooMany = server(BackendFailure.tooManyAttempts.message)
        #expect(tooMany.serverCode == "TOO_MANY_ATTEMPTS_TRY_LATER")
        await #expect(throws: tooMany) { try await harness.signIn("fay@example.com") }
        harness.clock.advance(899)
        await #expect(throws: tooMany) { try await harness.signIn("fay@example.com") }
        harness.clock.advance(2)
        _ = try await harness.signIn("fay@example.com")
    }

    /// An administrator sees an address's lock-out (an account's, or an address no account has) and lifts it.
    @Test func anAdministratorSeesALockoutAndClearsIt() async throws {
        let harness = try Harness(configuration: .init(maxFailedPasswordAttempts: 3, lockoutDuration: 900))
        defer { harness.remove() }
        _ = try await harness.signUp("fay@example.com")
        let project = harness.backend.projectId
        #expect(try await harness.api.call(QueryLockoutRequest(projectId: project, email: "fay@example.com"))
            == LockoutResponse(email: "fay@example.com", failures: 0, lockedUntil: nil))
        for email in ["fay@example.com", "presenter@example.com"] {
            for _ in 0..<3 { _ = try? await harness.signIn(email, "wrong-password") }
        }
        let until = String(Int64(harness.clock.now.timeIntervalSince1970 + 900) * 1000)
        for email in ["Fay@Example.com", "presenter@example.com"] {
            let locked = try await harness.api.call(QueryLockoutRequest(projectId: project, email: email))
            #expect(locked.failures == 3)
            #expect(locked.lockedUntil == until)
        }
        await #expect(throws: server(BackendFailure.tooManyAttempts.message)) { try await harness.signIn("fay@example.com") }

        let cleared = try await harness.api.call(ClearLockoutRequest(projectId: project, email: "fay@example.com"))
        #expect(cleared == LockoutResponse(email: "fay@example.com", failures: 0, lockedUntil: nil))
        _ = try await harness.signIn("fay@example.com")
        // The other address stays locked until it is cleared too.
        #expect(try await harness.api.call(QueryLockoutRequest(projectId: project, email: "presenter@example.com")).lockedUntil == until)
        _ = try await harness.api.call(ClearLockoutRequest(projectId: project, email: "presenter@example.com"))
        #expect(try await harness.api.call(QueryLockoutRequest(projectId: project, email: "presenter@example.com")).lockedUntil == nil)
        await #expect(throws: server("INVALID_EMAIL")) { try await harness.api.call(QueryLockoutRequest(projectId: project, email: "not an address")) }
    }

    /// Wrong passwords for an address with no account lock it as they lock an account's: the answers
    /// are the Firebase Auth Emulator's (EMAIL_NOT_FOUND) until the lock, then the same as for an account.
    @Test func anAddressWithNoAccountLocksAsAnAccountDoes() async throws {
        let harness = try Harness(configuration: .init(emailEnumerationProtection: false, maxFailedPasswordAttempts: 3, lockoutDuration: 900))
        defer { harness.remove() }
        _ = try await harness.signUp("fay@example.com")
        for _ in 0..<3 {
            await #expect(throws: server("EMAIL_NOT_FOUND")) { try await harness.signIn("nobody@example.com", "wrong-password") }
            await #expect(throws: server("INVALID_PASSWORD")) { try await harness.signIn("fay@example.com", "wrong-password") }
        }
        var answers: [IdentityToolkitError] = []
        for email in ["nobody@example.com", "Fay@Example.com"] {
            do {
                _ = try await harness.signIn(email, "wrong-password")
            } catch let error as IdentityToolkitError {
                answers.append(error)
            }
        }
        #expect(answers.count == 2 && answers[0] == answers[1] && answers[0].serverCode == "TOO_MANY_ATTEMPTS_TRY_LATER")
        let project = harness.backend.projectId
        let until = String(Int64((harness.clock.now.timeIntervalSince1970 + 900) * 1000))
        // Both listed, with their address; the filter of accounts finds the account's only.
        #expect(try await harness.api.call(ListLockoutsRequest(projectId: project)).lockouts
            == [LockoutResponse(email: "fay@example.com", failures: 3, lockedUntil: until), LockoutResponse(email: "nobody@example.com", failures: 3, lockedUntil: until)])
        let locked = try await harness.backend.administratorTransport().call(QueryAccountsRequest(projectId: project, authdeckFilter: .init(locked: true)))
        #expect(locked.userInfo?.map(\.email) == ["fay@example.com"])
        let count = try await harness.backend.administratorTransport().call(QueryAccountsRequest(projectId: project, returnUserInfo: false, authdeckFilter: .init(locked: true)))
        #expect(count.recordsCount == "1")
        // Clearing them all answers the addresses lifted and lets both try again.
        let cleared = try await harness.api.call(ClearAllLockoutsRequest(projectId: project))
        #expect(Set(cleared.lockouts.map(\.email)) == ["fay@example.com", "nobody@example.com"])
        #expect(try await harness.api.call(ListLockoutsRequest(projectId: project)).lockouts.isEmpty)
        await #expect(throws: server("EMAIL_NOT_FOUND")) { try await harness.signIn("nobody@example.com", "wrong-password") }
        _ = try await harness.signIn("fay@example.com")
        // A lock that has ended is no longer listed, and its account no longer matches.
        for _ in 0..<3 { _ = try? await harness.signIn("nobody@example.com", "wrong-password") }
        #expect(try await harness.api.call(ListLockoutsRequest(projectId: project)).lockouts.count == 1)
        harness.clock.advance(901)
        #expect(try await harness.api.call(ListLockoutsRequest(projectId: project)).lockouts.isEmpty)
    }

    @Test func disabledUsersCannotSignInOrRefresh() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        let created = try await harness.signUp("gus@example.com")
        _ = try await harness.admin(AccountsUpdateRequest(localId: created.localId, disableUser: true))
        await #expect(throws: server("USER_DISABLED")) { try await harness.signIn("gus@example.com") }
        await #expect(throws: server("USER_DISABLED")) { try await harness.lookup(created.idToken) }
        await #expect(throws: server("USER_DISABLED")) { try await harness.refresh(created.refreshToken) }
        // A wrong password still says nothing about the account's state.
        await #expect(throws: server("INVALID_LOGIN_CREDENTIALS")) { try await harness.signIn("gus@example.com", "wrong-password") }
    }
}
