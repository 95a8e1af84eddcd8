import Foundation
import IdentityToolkit
import Testing
@testable import IdentityEmulator

/// Which profile fields an app's sign-up keeps, and a second email/password for an account that
/// has one, as the Firebase Auth Emulator answers them.
@Suite struct SignUpProfileTests {
    static let signUpPath = SignUpRequest.endpoint.emulatorPath

    private func answer(_ response: WireResponse) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: Any])
    }

    @Test func anAnonymousSignUpIgnoresTheNameAndPhotoAndAPasswordOneThePhoto() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        let anonymous = try answer(await harness.raw(Self.signUpPath, body: #"{"displayName":"Me","photoUrl":"http://localhost/my-profile.png"}"#))
        #expect(anonymous["displayName"] == nil)
        #expect(anonymous["photoUrl"] == nil)
        let anonymousInfo = try #require(try await harness.lookup(anonymous["idToken"] as? String))
        #expect(anonymousInfo.displayName == nil)
        #expect(anonymousInfo.photoUrl == nil)

        let password = try answer(await harness.raw(Self.signUpPath, body: """
            {"email":"me@example.com","password":"notasecret","displayName":"Me","photoUrl":"http://localhost/my-profile.png"}
            """))
        #expect(password["displayName"] as? String == "Me")
        #expect(password["photoUrl"] == nil)
        let passwordInfo = try #require(try await harness.lookup(password["idToken"] as? String))
        #expect(passwordInfo.displayName == "Me")
        #expect(passwordInfo.photoUrl == nil)
    }

    @Test func signingUpWithTheTokenOfAPasswordAccountReplacesItsEmailAndPassword() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        try await harness.disableEnumerationProtection()
        let alice = try await harness.signUp("alice@example.com", "notasecret")
        let other = try await harness.signIn("alice@example.com", "notasecret")
        harness.clock.advance(1)
        let replaced = await harness.raw(Self.signUpPath, body: #"{"idToken":"\#(alice.idToken ?? "")","email":"bob@example.com","password":"notasecret2"}"#)
        #expect(replaced.status == 200, "\(errorMessage(replaced) ?? "")")
        let body = try answer(replaced)
        #expect(body["localId"] as? String == alice.localId)
        #expect(body["email"] as? String == "bob@example.com")
        let identities = firebaseClaims(of: body["idToken"] as? String)["identities"] as? [String: [String]]
        #expect(identities == ["email": ["bob@example.com"]])

        let info = try #require(try await harness.lookup(body["idToken"] as? String))
        #expect(info.providerUserInfo?.map(\.rawId) == ["bob@example.com"])
        #expect(try await harness.signIn("bob@example.com", "notasecret2").localId == alice.localId)
        #expect(try await harness.api.call(CreateAuthUriRequest(identifier: "alice@example.com")).signinMethods == [])
        // A change of both credentials: the other sessions end.
        #expect(await errorMessageOf { try await harness.lookup(other.idToken) } == "TOKEN_EXPIRED")

        // It is sensitive, as a password change is: an old sign-in must sign in again.
        harness.clock.advance(3600)
        let fresh = try await harness.signIn("bob@example.com", "notasecret2")
        harness.clock.advance(301)
        let stale = await harness.raw(Self.signUpPath, body: #"{"idToken":"\#(fresh.idToken ?? "")","email":"carol@example.com","password":"notasecret3"}"#)
        #expect(errorMessage(stale) == "CREDENTIAL_TOO_OLD_LOGIN_AGAIN")
    }
}
