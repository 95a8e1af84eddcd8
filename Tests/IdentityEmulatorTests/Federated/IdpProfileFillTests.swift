import Foundation
import IdentityToolkit
import Testing
@testable import IdentityEmulator

/// An IdP sign-in that links to an existing account brings the provider's name and photo where the
/// account has none, also when the account then waits for its second factor.
@Suite struct IdpProfileFillTests {
    @Test func linkingByAVerifiedEmailFillsTheEmptyProfileOfAMultiFactorUser() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        let account = try await harness.verifiedUser("foo@gmail.com")
        _ = try await harness.enrollPhone(try await harness.signIn("foo@gmail.com").idToken, "+15555550100")
        let identity = try await harness.addIdentity("google.com", "Foo Bar", "foo@gmail.com")
        let answer = try await harness.signInWithIdp(postBody("google.com", idToken: try await harness.authorize("google.com", identity.subject).idToken))
        #expect(answer.localId == account.localId)
        #expect(answer.idToken == nil)
        #expect(answer.mfaPendingCredential != nil)
        let stored = try #require(try harness.stored(account.localId))
        #expect(stored.displayName == "Foo Bar")
        #expect(stored.photoUrl == answer.photoUrl)
        let providers = try await harness.adminLookup(["localId": [account.localId]]).first?.providerUserInfo?.map(\.providerId)
        #expect(providers == ["google.com", "password"])

        // Signing in by the linked identity again fills a name removed meanwhile, before the second factor too.
        _ = try await harness.send("POST", harness.projectPath + "/accounts:update", ["localId": account.localId, "deleteAttribute": ["DISPLAY_NAME"]])
        let again = try await harness.signInWithIdp(postBody("google.com", idToken: try await harness.authorize("google.com", identity.subject).idToken))
        #expect(again.mfaPendingCredential != nil)
        #expect(try harness.stored(account.localId)?.displayName == "Foo Bar")
    }

    @Test func aNameTheAccountHasIsKept() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        let account = try await harness.verifiedUser("gil@gmail.com")
        _ = try await harness.api.call(AccountsUpdateRequest(idToken: try await harness.signIn("gil@gmail.com").idToken, displayName: "Gil"))
        let identity = try await harness.addIdentity("google.com", "Gilbert Grape", "gil@gmail.com")
        let answer = try await harness.signInWithIdp(postBody("google.com", idToken: try await harness.authorize("google.com", identity.subject).idToken))
        #expect(answer.localId == account.localId)
        #expect(answer.idToken != nil)
        let stored = try #require(try harness.stored(account.localId))
        #expect(stored.displayName == "Gil")
        #expect(stored.photoUrl == answer.photoUrl)
    }
}
