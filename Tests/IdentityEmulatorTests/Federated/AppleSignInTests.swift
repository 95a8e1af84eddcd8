import Foundation
import IdentityToolkit
import Testing
@testable import IdentityEmulator

/// Sign in with Apple against the simulated Apple: nonce, Hide My Email, the name shared once, single use.
@Suite struct AppleSignInTests {
    @Test func theFirstAuthorizationSharesTheNameAndHidesTheEmailIfAsked() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        let identity = try await harness.addIdentity("apple.com", "Ada Lovelace", "Ada@iCloud.com")
        #expect(identity.email == "ada@icloud.com")
        #expect(identity.subject.range(of: #"^\d{6}\.[0-9a-f]{32}\.\d{4}$"#, options: .regularExpression) != nil)
        #expect(!identity.authorized)

        let raw = "0aB-._xyz0123456789ABCDEFGHIJKLM"
        let first = try await harness.authorize("apple.com", identity.subject, scopes: ["email", "name"], nonce: sha256Hex(raw), hideEmail: true)
        let token = claims(of: first.idToken)
        #expect(token["iss"] as? String == "https://appleid.apple.com")
        #expect(token["aud"] as? String == "dev.authdeck.authdeck-local")
        #expect(token["sub"] as? String == identity.subject)
        #expect(token["nonce"] as? String == sha256Hex(raw))
        #expect(int(token["exp"]) == harness.clock.seconds + 600)
        let relay = try #require(token["email"] as? String)
        #expect(relay.hasSuffix("@privaterelay.appleid.com"))
        #expect(token["email_verified"] as? String == "true")
        #expect(token["is_private_email"] as? String == "true")
        #expect(token["name"] == nil)
        #expect(header(of: first.idToken)["alg"] as? String == "RS256")
        #expect(first.accessToken == nil)
        #expect(object(first.user)["name"] as? [String: String] == ["firstName": "Ada", "lastName": "Lovelace"])
        #expect(object(first.user)["email"] as? String == relay)

        let signedIn = try await harness.signInWithIdp(postBody("apple.com", idToken: first.idToken, nonce: raw, user: first.user))
        #expect(signedIn.isNewUser == true)
        #expect(signedIn.providerId == "apple.com")
        #expect(signedIn.federatedId == identity.subject)
        #expect(signedIn.email == relay)
        #expect(signedIn.emailVerified == true)
        #expect(signedIn.displayName == "Ada Lovelace")
        #expect(signedIn.photoUrl == nil)
        #expect(signedIn.oauthIdToken == first.idToken)
        #expect(object(signedIn.rawUserInfo)["is_private_email"] as? String == "true")
        let firebase = try #require(claims(of: signedIn.idToken)["firebase"] as? [String: Any])
        #expect(firebase["sign_in_provider"] as? String == "apple.com")
        #expect((firebase["identities"] as? [String: Any])?["apple.com"] as? [String] == [identity.subject])
        let account = try #require(try await harness.lookup(signedIn.idToken))
        #expect(account.email == relay)
        #expect(account.emailVerified == true)
        #expect(account.displayName == "Ada Lovelace")
        #expect(account.photoUrl == nil)
        #expect(account.providerUserInfo == [ProviderUserInfo(providerId: "apple.com", rawId: identity.subject, federatedId: identity.subject,
                                                              email: relay, displayName: "Ada Lovelace")])

        // Later authorizations keep the first email choice and never share the name again.
        harness.clock.advance(60)
        let listed = try await harness.api.call(SimulatedIdpListRequest(providerId: "apple.com")).identities
        #expect(listed.map(\.authorized) == [true])
        #expect(listed.map(\.emailHidden) == [true])
        let again = try await harness.authorize("apple.com", identity.subject, scopes: ["email", "name"], nonce: sha256Hex("second-nonce"), hideEmail: false)
        #expect(again.user == nil)
        #expect(claims(of: again.idToken)["email"] as? String == relay)
        let back = try await harness.signInWithIdp(postBody("apple.com", idToken: again.idToken, nonce: "second-nonce"))
        #expect(back.localId == signedIn.localId)
        #expect(back.isNewUser == false)
        // Apple says nothing of the name now; the account and its provider entry keep the first one.
        #expect(back.displayName == nil)
        let kept = try #require(try await harness.lookup(back.idToken))
        #expect(kept.displayName == "Ada Lovelace")
        #expect(kept.providerUserInfo?.first?.displayName == "Ada Lovelace")
    }

    @Test func sharingTheEmailGivesTheRealAddress() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        let identity = try await harness.addIdentity("apple.com", "Grace Hopper", "grace@example.com")
        let answer = try await harness.authorize("apple.com", identity.subject, scopes: ["email"], nonce: sha256Hex("n1"), hideEmail: false)
        #expect(claims(of: answer.idToken)["email"] as? String == "grace@example.com")
        #expect(claims(of: answer.idToken)["is_private_email"] as? String == "false")
        #expect(answer.user == nil)
        let signedIn = try await harness.signInWithIdp(postBody("apple.com", idToken: answer.idToken, nonce: "n1"))
        #expect(signedIn.email == "grace@example.com")
        #expect(signedIn.displayName == nil)
    }

    @Test func aWrongNonceIsRefused() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        let identity = try await harness.addIdentity("apple.com", "Ada", "ada@example.com")
        let credential = try await harness.appleCredential(identity.subject, rawNonce: "the-right-nonce")
        await #expect(throws: server("MISSING_OR_INVALID_NONCE : The nonce in ID Token \"\(sha256Hex("the-right-nonce"))\" does not match the SHA256 hash of the raw nonce \"a-wrong-nonce\" in the request.")) {
            _ = try await harness.signInWithIdp(postBody("apple.com", idToken: credential.idToken, nonce: "a-wrong-nonce"))
        }
        // The refused attempt did not use the token up.
        let signedIn = try await harness.signInWithIdp(postBody("apple.com", idToken: credential.idToken, nonce: "the-right-nonce"))
        #expect(signedIn.isNewUser == true)
    }

    @Test func aMissingNonceIsRefused() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        let identity = try await harness.addIdentity("apple.com", "Ada", "ada@example.com")
        let credential = try await harness.appleCredential(identity.subject)
        await #expect(throws: server("MISSING_OR_INVALID_NONCE : Nonce is missing in the request.")) {
            _ = try await harness.signInWithIdp(postBody("apple.com", idToken: credential.idToken))
        }
        // A token that was requested without any nonce cannot be bound to a request at all.
        let unbound = try await harness.authorize("apple.com", identity.subject, scopes: ["email"])
        #expect(claims(of: unbound.idToken)["nonce"] == nil)
        for nonce in [nil, "anything"] {
            await #expect(throws: server("MISSING_OR_INVALID_NONCE : The ID token carries no nonce, so it cannot be bound to this request.")) {
                _ = try await harness.signInWithIdp(postBody("apple.com", idToken: unbound.idToken, nonce: nonce))
            }
        }
    }

    @Test func anAppleIdTokenIsAcceptedOnlyOnce() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        let identity = try await harness.addIdentity("apple.com", "Ada", "ada@example.com")
        let credential = try await harness.appleCredential(identity.subject, rawNonce: "once")
        let first = try await harness.signInWithIdp(postBody("apple.com", idToken: credential.idToken, nonce: "once"))
        let duplicate = server("MISSING_OR_INVALID_NONCE : Duplicate credential received. Please try again with a new credential.")
        await #expect(throws: duplicate) {
            _ = try await harness.signInWithIdp(postBody("apple.com", idToken: credential.idToken, nonce: "once"))
        }
        // Not for linking either, and not after a restart.
        let other = try await harness.api.call(SignUpRequest())
        await #expect(throws: duplicate) {
            _ = try await harness.signInWithIdp(postBody("apple.com", idToken: credential.idToken, nonce: "once"), idToken: other.idToken)
        }
        await #expect(throws: duplicate) {
            _ = try await harness.reopened().signInWithIdp(postBody("apple.com", idToken: credential.idToken, nonce: "once"))
        }
        let fresh = try await harness.appleCredential(identity.subject, rawNonce: "twice")
        #expect(try await harness.signInWithIdp(postBody("apple.com", idToken: fresh.idToken, nonce: "twice")).localId == first.localId)
    }

    @Test func anExpiredTokenIsRefused() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        let identity = try await harness.addIdentity("apple.com", "Ada", "ada@example.com")
        let credential = try await harness.appleCredential(identity.subject, rawNonce: "late")
        harness.clock.advance(601)
        await #expect(throws: server("INVALID_IDP_RESPONSE : The ID token has expired.")) {
            _ = try await harness.signInWithIdp(postBody("apple.com", idToken: credential.idToken, nonce: "late"))
        }
    }

    @Test func aTokenSignedByAnotherKeyIsRefused() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        let identity = try await harness.addIdentity("apple.com", "Ada", "ada@example.com")
        let genuine = claims(of: try await harness.appleCredential(identity.subject, rawNonce: "n").idToken)
        let strangerKey = try TokenSigner(keyPath: harness.directory.appendingPathComponent("stranger.pem").path,
                                          certificatePath: harness.directory.appendingPathComponent("stranger.crt").path)
        let refused = server("INVALID_IDP_RESPONSE : The ID token is not signed by apple.com's key.")
        for signer in [strangerKey, try harness.providerSigner("google.com")] {
            let forged = try signer.sign(claims: genuine)
            await #expect(throws: refused) { _ = try await harness.signInWithIdp(postBody("apple.com", idToken: forged, nonce: "n")) }
        }
        // The provider's key with a tampered payload fails too.
        let apple = try harness.providerSigner("apple.com")
        let parts = try apple.sign(claims: genuine).split(separator: ".")
        var tampered = genuine
        tampered["sub"] = "000000.attacker.0000"
        let swapped = String(parts[0]) + "." + (try JSONSerialization.data(withJSONObject: tampered)).base64URLEncodedString() + "." + String(parts[2])
        await #expect(throws: refused) { _ = try await harness.signInWithIdp(postBody("apple.com", idToken: swapped, nonce: "n")) }
        // The Firebase Auth Emulator's fake-IdP convention (plain JSON claims) is not a credential here.
        await #expect(throws: refused) {
            _ = try await harness.signInWithIdp(postBody("apple.com", idToken: #"{"sub":"123","email":"x@example.com"}"#))
        }
    }

    @Test func theIssuerAndAudienceMustBeApples() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        let identity = try await harness.addIdentity("apple.com", "Ada", "ada@example.com")
        let genuine = claims(of: try await harness.appleCredential(identity.subject, rawNonce: "n").idToken)
        let apple = try harness.providerSigner("apple.com")
        var wrongIssuer = genuine
        wrongIssuer["iss"] = "https://appleid.apple.com.evil.example"
        await #expect(throws: server("INVALID_IDP_RESPONSE : The ID token's issuer https://appleid.apple.com.evil.example is not https://appleid.apple.com.")) {
            _ = try await harness.signInWithIdp(postBody("apple.com", idToken: try apple.sign(claims: wrongIssuer), nonce: "n"))
        }
        var wrongAudience = genuine
        wrongAudience["aud"] = "com.someone.else"
        await #expect(throws: server("INVALID_IDP_RESPONSE : The audience in ID Token [com.someone.else] does not match the expected audience dev.authdeck.authdeck-local.")) {
            _ = try await harness.signInWithIdp(postBody("apple.com", idToken: try apple.sign(claims: wrongAudience), nonce: "n"))
        }
    }

    @Test func appleAcceptsOnlyItsTwoScopes() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        let identity = try await harness.addIdentity("apple.com", "Ada", "ada@example.com")
        await #expect(throws: server("INVALID_IDP_RESPONSE : invalid_scope: Apple knows only the scopes name and email, not 'profile'.")) {
            _ = try await harness.authorize("apple.com", identity.subject, scopes: ["email", "profile"])
        }
    }
}
