@testable import AuthClient
import Foundation
import IdentityEmulator
import IdentityTestSupport
import IdentityToolkit
import Testing

/// Hands out fixed bytes, to see the nonce's rejection sampling at work.
struct ScriptedBytes: RandomNumberGenerator {
    var bytes: [UInt8]
    mutating func next() -> UInt64 {
        UInt64(bytes.isEmpty ? 0 : bytes.removeFirst())
    }
}

extension Harness {
    var providers: SimulatedIdentityProviders { SimulatedIdentityProviders(backend: served.makeTransport()) }

    /// A person at the provider and a fresh consent, as the consent screen produces it.
    func consent(_ provider: OAuthProvider, name: String, email: String, hideEmail: Bool? = nil,
                 nonce: String = OAuthProvider.randomNonce()) async throws -> ProviderAuthorization {
        var identity = try await providers.directory(for: provider.providerID).identities.first { $0.email == email }
        if identity == nil {
            identity = try await providers.addIdentity(providerID: provider.providerID, displayName: name, email: email)
        }
        guard let identity else { throw AuthError(.internalError) }
        return try await providers.authorize(provider, subject: identity.subject, rawNonce: nonce, hideEmail: hideEmail)
    }
}

let apple = OAuthProvider(providerID: "apple.com", scopes: ["email", "name"])
let google = OAuthProvider(providerID: "google.com", scopes: ["openid", "email", "profile"])
let microsoft = OAuthProvider(providerID: "microsoft.com", scopes: ["openid", "email", "profile", "mail.read"],
                              customParameters: ["tenant": "common", "prompt": "select_account"])
let facebook = OAuthProvider(providerID: "facebook.com", scopes: ["email", "public_profile"])

@Suite("Federated sign-in, linking and conflicts against the embedded backend, in process and over HTTP", .timeLimit(.minutes(3)))
struct FederatedAuthTests {
    @Test func theNonceIsDrawnByRejectionSampling() {
        // 194 is the last byte kept (3 × 65 − 1); 195…255 are thrown away.
        var generator = ScriptedBytes(bytes: [0, 195, 64, 255, 65, 194, 9, 200, 10])
        #expect(OAuthProvider.randomNonce(length: 6, using: &generator) == "0_0_9A")
        #expect(OAuthProvider.nonceCharacters.count == 65)
        let nonces = (0..<50).map { _ in OAuthProvider.randomNonce() }
        #expect(Set(nonces).count == 50)
        #expect(nonces.allSatisfy { $0.count == 32 && $0.allSatisfy(OAuthProvider.nonceCharacters.contains) })
        #expect(OAuthProvider.sha256("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    @Test(arguments: BackendTransport.allCases)
    func reservedParametersAreRefusedBeforeAnythingIsSent(_ transport: BackendTransport) async throws {
        try await withHarness(transport) { harness in
            let providers = harness.providers
            let before = await providers.backend.exchanges.entries.count
            for reserved in OAuthProvider.reservedParameters {
                var provider = microsoft
                provider.customParameters[reserved] = "x"
                await #expect(throws: OAuthProviderError.reservedParameter(reserved)) {
                    _ = try await providers.authorize(provider, subject: "00000000-0000-0000-0000-000000000000", rawNonce: "n")
                }
            }
            #expect(await providers.backend.exchanges.entries.count == before)
        }
    }

    @Test(arguments: BackendTransport.allCases)
    func anonymousUpgradeWithAppleThenSignInAgain(_ transport: BackendTransport) async throws {
        try await withHarness(transport) { harness in
            let auth = harness.auth()
            let anonymous = try await auth.signInAnonymously().user
            let consent = try await harness.consent(apple, name: "Ada Lovelace", email: "ada@example.com", hideEmail: true)
            #expect(consent.hashedNonce == consent.rawNonce.map(OAuthProvider.sha256))
            #expect(consent.idTokenClaims?["nonce"]?.stringValue == consent.hashedNonce)
            guard case let .oauth(credential) = consent.credential else { Issue.record("not an OAuth credential"); return }
            #expect(credential.fullName == OAuthCredential.FullName(givenName: "Ada", familyName: "Lovelace"))
            #expect(credential.rawNonce?.count == 32)

            let linked = try await auth.link(with: consent.credential)
            #expect(linked.user.uid == anonymous.uid)
            #expect(!linked.user.isAnonymous)
            #expect(linked.user.displayName == "Ada Lovelace")
            #expect(linked.user.email?.hasSuffix("@privaterelay.appleid.com") == true)
            #expect(linked.user.photoURL == nil)
            #expect(linked.user.providerData.map(\.providerID) == ["apple.com"])
            #expect(linked.additionalUserInfo?.providerID == "apple.com")
            #expect(linked.additionalUserInfo?.profile?["is_private_email"] == .string("true"))
            #expect(try await auth.idTokenResult().signInProvider == "apple.com")

            await auth.signOut()
            let again = try await harness.consent(apple, name: "Ada Lovelace", email: "ada@example.com", hideEmail: false)
            let signedIn = try await auth.signIn(with: again.credential)
            #expect(signedIn.user.uid == anonymous.uid)
            #expect(signedIn.user.email == linked.user.email)
            #expect(signedIn.additionalUserInfo?.isNewUser == false)
            // The same Apple credential a second time is a replay.
            await auth.signOut()
            await expectAuthError(.missingOrInvalidNonce) { _ = try await auth.signIn(with: again.credential) }
        }
    }

    @Test(arguments: BackendTransport.allCases)
    func microsoftSignInGivesTheGraphProfileAndTheProvidersTokens(_ transport: BackendTransport) async throws {
        try await withHarness(transport) { harness in
            let auth = harness.auth()
            let consent = try await harness.consent(microsoft, name: "Carol Shaw", email: "carol@contoso.com")
            let result = try await auth.signIn(with: consent.credential)
            #expect(result.additionalUserInfo?.isNewUser == true)
            #expect(result.additionalUserInfo?.providerID == "microsoft.com")
            #expect(result.additionalUserInfo?.profile?["displayName"] == .string("Carol Shaw"))
            #expect(result.additionalUserInfo?.profile?["userPrincipalName"] == .string("carol@contoso.com"))
            guard case let .oauth(sent) = consent.credential else { Issue.record("not an OAuth credential"); return }
            #expect(result.credential?.idToken == sent.idToken)
            #expect(result.credential?.accessToken == sent.accessToken)
            #expect(result.user.photoURL == nil)
            #expect(result.user.providerData.first?.uid == consent.idTokenClaims?["oid"]?.stringValue)
            #expect(consent.grantedScopes == ["openid", "email", "profile", "mail.read"])
        }
    }

    @Test(arguments: BackendTransport.allCases)
    func googleAndFacebookCredentials(_ transport: BackendTransport) async throws {
        try await withHarness(transport) { harness in
            let auth = harness.auth()
            let googleConsent = try await harness.consent(google, name: "Alan Turing", email: "alan@gmail.com")
            let viaGoogle = try await auth.signIn(with: googleConsent.credential)
            #expect(viaGoogle.user.emailVerified)
            #expect(viaGoogle.user.photoURL != nil)
            guard case let .oauth(googleCredential) = googleConsent.credential else { Issue.record("not OAuth"); return }
            await auth.signOut()
            let viaAccessToken = try await auth.signIn(with: GoogleAuthProvider.credential(withIDToken: try #require(googleCredential.idToken),
                                                                                           accessToken: googleCredential.accessToken,
                                                                                           rawNonce: googleCredential.rawNonce))
            #expect(viaAccessToken.user.uid == viaGoogle.user.uid)

            let facebookConsent = try await harness.consent(facebook, name: "Mark Z", email: "mark@example.com")
            guard case let .oauth(facebookCredential) = facebookConsent.credential else { Issue.record("not OAuth"); return }
            #expect(facebookCredential.idToken == nil)
            #expect(facebookCredential.rawNonce == nil)
            #expect(facebookConsent.idTokenClaims == nil)
            let viaFacebook = try await auth.signIn(with: FacebookAuthProvider.credential(withAccessToken: try #require(facebookCredential.accessToken)))
            #expect(viaFacebook.user.uid != viaGoogle.user.uid)
            #expect(viaFacebook.user.email == "mark@example.com")
            #expect(!viaFacebook.user.emailVerified)
        }
    }

    @Test(arguments: BackendTransport.allCases)
    func linkingAnIdentityOfAnotherAccountGivesAnUpdatedCredential(_ transport: BackendTransport) async throws {
        try await withHarness(transport) { harness in
            let first = harness.auth(session: "first.json")
            let second = harness.auth(session: "second.json")
            let firstUser = try await first.signInAnonymously().user
            let secondUser = try await second.createUser(email: "bob@example.com", password: "hunter22").user
            _ = try await second.link(with: try await harness.consent(microsoft, name: "Carol Shaw", email: "carol@contoso.com").credential)

            let conflicting = try await harness.consent(microsoft, name: "Carol Shaw", email: "carol@contoso.com")
            var updated: AuthCredential?
            do {
                _ = try await first.link(with: conflicting.credential)
                Issue.record("expected credentialAlreadyInUse")
            } catch let error as AuthError {
                #expect(error.code == .credentialAlreadyInUse)
                #expect(error.email == "carol@contoso.com")
                #expect(error.serverMessage == "FEDERATED_USER_ID_ALREADY_LINKED")
                updated = error.updatedCredential
            }
            guard case let .oauth(echoed)? = updated, case let .oauth(sent) = conflicting.credential else { Issue.record("no updated credential"); return }
            #expect(echoed.providerID == "microsoft.com")
            #expect(echoed.idToken == sent.idToken)
            #expect(echoed.accessToken == sent.accessToken)
            #expect(echoed.pendingToken != nil)
            #expect(await first.currentUser?.uid == firstUser.uid)
            #expect(await first.currentUser?.providerData.isEmpty == true)

            // Signing in with it reaches the other account without a second trip to the provider.
            let other = try await first.signIn(with: .oauth(echoed))
            #expect(other.user.uid == secondUser.uid)
            let exchange = try #require(await first.backend.exchanges.entries.last { $0.path.hasSuffix("accounts:signInWithIdp") })
            let body = try JSONDecoder().decode([String: JSONValue].self, from: exchange.requestBody)
            #expect(body["pendingToken"]?.stringValue == echoed.pendingToken)
            #expect(body["postBody"] == nil)
            #expect(Set(other.user.providerData.map(\.providerID)) == ["microsoft.com", "password"])
        }
    }

    @Test(arguments: BackendTransport.allCases)
    func anUnverifiedEmailOfAnExistingAccountAsksToSignInThatWayFirst(_ transport: BackendTransport) async throws {
        try await withHarness(transport) { harness in
            let auth = harness.auth()
            let owner = try await auth.createUser(email: "mark@example.com", password: "hunter22").user
            await auth.signOut()
            var pending: AuthCredential?
            do {
                _ = try await auth.signIn(with: try await harness.consent(facebook, name: "Mark Z", email: "mark@example.com").credential)
                Issue.record("expected accountExistsWithDifferentCredential")
            } catch let error as AuthError {
                #expect(error.code == .accountExistsWithDifferentCredential)
                #expect(error.email == "mark@example.com")
                pending = error.updatedCredential
            }
            #expect(await auth.currentUser == nil)
            _ = try await auth.signIn(email: "mark@example.com", password: "hunter22")
            let linked = try await auth.link(with: try #require(pending))
            #expect(linked.user.uid == owner.uid)
            #expect(Set(linked.user.providerData.map(\.providerID)) == ["facebook.com", "password"])
        }
    }

    @Test(arguments: BackendTransport.allCases)
    func linkingAProviderWhoseEmailIsTakenSaysWhich(_ transport: BackendTransport) async throws {
        try await withHarness(transport) { harness in
            let auth = harness.auth()
            _ = try await auth.createUser(email: "alan@gmail.com", password: "hunter22")
            await auth.signOut()
            _ = try await auth.signInAnonymously()
            do {
                _ = try await auth.link(with: try await harness.consent(google, name: "Alan", email: "alan@gmail.com").credential)
                Issue.record("expected emailAlreadyInUse")
            } catch let error as AuthError {
                #expect(error.code == .emailAlreadyInUse)
                #expect(error.email == "alan@gmail.com")
                #expect(error.updatedCredential != nil)
            }
            await expectAuthError(.providerAlreadyLinked) {
                let user = try await auth.link(with: try await harness.consent(facebook, name: "A", email: "a@example.com").credential)
                #expect(user.user.providerData.map(\.providerID) == ["facebook.com"])
                _ = try await auth.link(with: try await harness.consent(facebook, name: "A", email: "a@example.com").credential)
            }
        }
    }

    @Test(arguments: BackendTransport.allCases)
    func reauthenticationWithALinkedProvider(_ transport: BackendTransport) async throws {
        try await withHarness(transport) { harness in
            let auth = harness.auth()
            let user = try await auth.signIn(with: try await harness.consent(google, name: "Alan", email: "alan@gmail.com").credential).user
            harness.clock.advance(6 * 60)
            await expectAuthError(.requiresRecentLogin) { try await auth.delete() }
            // Someone else's Google account, or one nobody signed up with, is not this user.
            let other = harness.auth(session: "other.json")
            _ = try await other.signIn(with: try await harness.consent(google, name: "Grace", email: "grace@gmail.com").credential)
            await expectAuthError(.userMismatch) {
                _ = try await auth.reauthenticate(with: try await harness.consent(google, name: "Grace", email: "grace@gmail.com").credential)
            }
            await expectAuthError(.userMismatch) {
                _ = try await auth.reauthenticate(with: try await harness.consent(google, name: "Nobody", email: "nobody@gmail.com").credential)
            }
            let nobody = try await harness.providers.directory(for: "google.com").identities.first { $0.email == "nobody@gmail.com" }
            #expect(nobody != nil)
            #expect(await auth.currentUser?.uid == user.uid)
            let again = try await auth.reauthenticate(with: try await harness.consent(google, name: "Alan", email: "alan@gmail.com").credential)
            #expect(again.user.uid == user.uid)
            try await auth.delete()
            #expect(await auth.currentUser == nil)
        }
    }

    @Test(arguments: BackendTransport.allCases)
    func unlinkingAFederatedProvider(_ transport: BackendTransport) async throws {
        try await withHarness(transport) { harness in
            let auth = harness.auth()
            _ = try await auth.createUser(email: "ada@example.com", password: "hunter22")
            _ = try await auth.link(with: try await harness.consent(apple, name: "Ada", email: "ada@icloud.com").credential)
            #expect(await auth.currentUser?.providerData.map(\.providerID).sorted() == ["apple.com", "password"])
            let user = try await auth.unlink(fromProvider: "apple.com")
            #expect(user.providerData.map(\.providerID) == ["password"])
            #expect(user.email == "ada@example.com")
            await expectAuthError(.noSuchProvider) { try await auth.unlink(fromProvider: "apple.com") }
        }
    }
}
