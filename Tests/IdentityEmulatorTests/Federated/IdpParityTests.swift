import Foundation
import IdentityToolkit
import Testing
@testable import IdentityEmulator

@Suite("signInWithIdp answers as the emulator")
struct IdpParityTests {
    @Test func relinkingAnIdentityTheUserAlreadyHasIsAlreadyLinked() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        let identity = try await harness.addIdentity("google.com", "Gail Grey", "gail@gmail.com")
        let first = try await harness.authorize("google.com", identity.subject)
        let signedIn = try await harness.signInWithIdp(postBody("google.com", idToken: first.idToken))
        let again = try await harness.authorize("google.com", identity.subject)
        let relinked = try await harness.signInWithIdp(postBody("google.com", idToken: again.idToken), idToken: signedIn.idToken)
        #expect(relinked.errorMessage == "FEDERATED_USER_ID_ALREADY_LINKED")
        #expect(relinked.idToken == nil)
        #expect(relinked.fullName == "Gail Grey")
    }

    @Test func aVerifiedProviderEmailThatIsTheAccountsOwnVerifiesIt() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        let created = try await harness.signUp("gus@gmail.com")
        #expect(try harness.stored(created.localId)?.emailVerified == false)
        let identity = try await harness.addIdentity("google.com", "Gus", "gus@gmail.com")
        let answer = try await harness.authorize("google.com", identity.subject)
        let linked = try await harness.signInWithIdp(postBody("google.com", idToken: answer.idToken), idToken: created.idToken)
        #expect(linked.idToken != nil)
        #expect(try harness.stored(created.localId)?.emailVerified == true)
        // The provider's name filled the empty one.
        #expect(try harness.stored(created.localId)?.displayName == "Gus")
    }

    @Test func theProvidersNameAndPhotoFillEmptyFieldsAtSignIn() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        let identity = try await harness.addIdentity("google.com", "Gwen Ng", "gwen@gmail.com")
        let first = try await harness.signInWithIdp(postBody("google.com", idToken: try await harness.authorize("google.com", identity.subject).idToken))
        let localId = try #require(first.localId)
        _ = try await harness.send("POST", harness.projectPath + "/accounts:update", ["localId": localId, "deleteAttribute": ["DISPLAY_NAME"]])
        #expect(try harness.stored(localId)?.displayName == nil)
        _ = try await harness.signInWithIdp(postBody("google.com", idToken: try await harness.authorize("google.com", identity.subject).idToken))
        #expect(try harness.stored(localId)?.displayName == "Gwen Ng")
    }

    @Test func aMissingProviderIdAndABadRequestUriGetTheEmulatorsErrors() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        let path = SignInWithIdpRequest.endpoint.emulatorPath
        #expect(errorMessage(await harness.raw(path, body: #"{"requestUri":"http://localhost","postBody":"id_token=abc"}"#))
            == "INVALID_CREDENTIAL_OR_PROVIDER_ID : Invalid IdP response/credential: http://localhost?id_token=abc")
        #expect(errorMessage(await harness.raw(path, body: #"{"requestUri":"not a uri","postBody":"providerId=google.com"}"#)) == "INVALID_REQUEST_URI")
        #expect(errorMessage(await harness.raw(path, body: #"{"postBody":"providerId=google.com"}"#)) == "MISSING_REQUEST_URI")
    }
}
