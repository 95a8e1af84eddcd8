import Foundation
import IdentityToolkit
import Testing
@testable import IdentityEmulator

/// Linking providers with `idToken`, the conflicts (with the provider's tokens echoed), and reauthentication.
@Suite struct FederatedLinkingTests {
    @Test func anAnonymousAccountLinksAppleAndKeepsItsUid() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        let anonymous = try await harness.api.call(SignUpRequest())
        let identity = try await harness.addIdentity("apple.com", "Ada Lovelace", "ada@example.com")
        let credential = try await harness.appleCredential(identity.subject, rawNonce: "link-nonce", hideEmail: true)
        let linked = try await harness.signInWithIdp(postBody("apple.com", idToken: credential.idToken, nonce: "link-nonce", user: credential.user),
                                                     idToken: anonymous.idToken)
        #expect(linked.localId == anonymous.localId)
        #expect(linked.isNewUser == false)
        let token = claims(of: linked.idToken)
        #expect(token["provider_id"] == nil)
        #expect((token["firebase"] as? [String: Any])?["sign_in_provider"] as? String == "apple.com")
        let account = try #require(try await harness.lookup(linked.idToken))
        #expect(account.email?.hasSuffix("@privaterelay.appleid.com") == true)
        #expect(account.displayName == "Ada Lovelace")
        #expect(account.providerUserInfo?.map(\.providerId) == ["apple.com"])

        // Signing in with Apple later finds the same account.
        let back = try await harness.signInWithIdp(postBody("apple.com", idToken: try await harness.appleCredential(identity.subject, rawNonce: "n2").idToken, nonce: "n2"))
        #expect(back.localId == anonymous.localId)
    }

    @Test func linkingAnIdentityOfAnotherAccountEchoesTheProvidersTokens() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        let first = try await harness.api.call(SignUpRequest())
        let second = try await harness.signUp("bob@example.com")
        let carol = try await harness.addIdentity("microsoft.com", "Carol Shaw", "carol@contoso.com")
        let toSecond = try await harness.authorize("microsoft.com", carol.subject, nonce: sha256Hex("n-second"))
        let linkedToSecond = try await harness.signInWithIdp(postBody("microsoft.com", idToken: toSecond.idToken, accessToken: toSecond.accessToken, nonce: "n-second"),
                                                             idToken: second.idToken)
        #expect(linkedToSecond.localId == second.localId)

        let toFirst = try await harness.authorize("microsoft.com", carol.subject, nonce: sha256Hex("n-first"))
        let body = postBody("microsoft.com", idToken: toFirst.idToken, accessToken: toFirst.accessToken, nonce: "n-first")
        let conflict = try await harness.signInWithIdp(body, idToken: first.idToken)
        #expect(conflict.errorMessage == "FEDERATED_USER_ID_ALREADY_LINKED")
        #expect(conflict.oauthIdToken == toFirst.idToken)
        #expect(conflict.oauthAccessToken == toFirst.accessToken)
        #expect(conflict.providerId == "microsoft.com")
        #expect(conflict.federatedId == carol.subject)
        #expect(conflict.email == "carol@contoso.com")
        #expect(conflict.idToken == nil)
        #expect(conflict.refreshToken == nil)
        #expect(conflict.localId == nil)
        let pendingToken = try #require(conflict.pendingToken)
        // Without returnIdpCredential it is a plain error.
        await #expect(throws: server("FEDERATED_USER_ID_ALREADY_LINKED")) {
            _ = try await harness.signInWithIdp(body, idToken: first.idToken, returnIdpCredential: false)
        }
        // Nothing changed on the first account.
        #expect(try await harness.lookup(first.idToken)?.providerUserInfo == nil)

        // The updated credential signs in to the account that owns the identity, without the provider.
        let viaPending = try await harness.signInWithIdp(nil, pendingToken: pendingToken)
        #expect(viaPending.localId == second.localId)
        let viaEcho = try await harness.signInWithIdp(body)
        #expect(viaEcho.localId == second.localId)
    }

    @Test func linkingAProviderWhoseEmailBelongsToAnotherAccountIsRefused() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        _ = try await harness.signUp("alan@gmail.com")
        let anonymous = try await harness.api.call(SignUpRequest())
        let identity = try await harness.addIdentity("google.com", "Alan", "alan@gmail.com")
        let answer = try await harness.authorize("google.com", identity.subject)
        let refused = try await harness.signInWithIdp(postBody("google.com", idToken: answer.idToken, accessToken: answer.accessToken),
                                                      idToken: anonymous.idToken)
        #expect(refused.errorMessage == "EMAIL_EXISTS")
        #expect(refused.email == "alan@gmail.com")
        #expect(refused.oauthIdToken == answer.idToken)
        #expect(refused.oauthAccessToken == answer.accessToken)
        #expect(refused.pendingToken != nil)
        #expect(refused.idToken == nil)
        await #expect(throws: server("EMAIL_EXISTS")) {
            _ = try await harness.signInWithIdp(postBody("google.com", idToken: answer.idToken), idToken: anonymous.idToken, returnIdpCredential: false)
        }
    }

    @Test func linkingTwiceAndASecondIdentityOfTheSameProvider() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        let account = try await harness.signUp("ada@example.com")
        let one = try await harness.addIdentity("google.com", "Ada", "ada.one@gmail.com")
        let two = try await harness.addIdentity("google.com", "Ada", "ada.two@gmail.com")
        let linked = try await harness.signInWithIdp(postBody("google.com", idToken: try await harness.authorize("google.com", one.subject).idToken),
                                                     idToken: account.idToken)
        // The same identity again is already linked, as the emulator answers; another Google identity
        // on the same account is not allowed either.
        let relinked = try await harness.signInWithIdp(postBody("google.com", idToken: try await harness.authorize("google.com", one.subject).idToken),
                                                       idToken: linked.idToken)
        #expect(relinked.errorMessage == "FEDERATED_USER_ID_ALREADY_LINKED")
        #expect(relinked.idToken == nil)
        let again = linked
        await #expect(throws: server("PROVIDER_ALREADY_LINKED")) {
            _ = try await harness.signInWithIdp(postBody("google.com", idToken: try await harness.authorize("google.com", two.subject).idToken),
                                                idToken: again.idToken)
        }
        let info = try #require(try await harness.lookup(again.idToken))
        #expect(info.email == "ada@example.com")
        #expect(info.providerUserInfo?.map(\.providerId) == ["google.com", "password"])
    }

    @Test func reauthenticationFindsButNeverCreates() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        let identity = try await harness.addIdentity("google.com", "Alan", "alan@gmail.com")
        await #expect(throws: server("USER_NOT_FOUND")) {
            _ = try await harness.signInWithIdp(postBody("google.com", idToken: try await harness.authorize("google.com", identity.subject).idToken), autoCreate: false)
        }
        #expect(try await harness.admin(AccountsLookupRequest(email: ["alan@gmail.com"])).users == nil)
        let created = try await harness.signInWithIdp(postBody("google.com", idToken: try await harness.authorize("google.com", identity.subject).idToken))
        harness.clock.advance(600)
        let again = try await harness.signInWithIdp(postBody("google.com", idToken: try await harness.authorize("google.com", identity.subject).idToken), autoCreate: false)
        #expect(again.localId == created.localId)
        #expect(int(claims(of: again.idToken)["auth_time"]) == harness.clock.seconds)
    }

    @Test func aDisabledAccountCannotSignInWithItsProvider() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        let identity = try await harness.addIdentity("google.com", "Alan", "alan@gmail.com")
        let created = try await harness.signInWithIdp(postBody("google.com", idToken: try await harness.authorize("google.com", identity.subject).idToken))
        _ = try await harness.admin(AccountsUpdateRequest(localId: created.localId, disableUser: true))
        await #expect(throws: server("USER_DISABLED")) {
            _ = try await harness.signInWithIdp(postBody("google.com", idToken: try await harness.authorize("google.com", identity.subject).idToken))
        }
    }
}
