import Foundation
import IdentityToolkit
import Testing
@testable import IdentityEmulator

/// Google, Microsoft and Facebook as the simulated providers issue and the backend verifies them.
@Suite struct FederatedProviderTests {
    @Test func googleIdAndAccessTokens() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        let identity = try await harness.addIdentity("google.com", "Alan Turing", "alan@gmail.com")
        #expect(identity.subject.range(of: #"^1\d{20}$"#, options: .regularExpression) != nil)
        let answer = try await harness.authorize("google.com", identity.subject, scopes: ["openid", "email", "profile"])
        let token = claims(of: answer.idToken)
        #expect(token["iss"] as? String == "https://accounts.google.com")
        let clientId = try #require(token["aud"] as? String)
        #expect(clientId.hasSuffix("-authdeck-local.apps.googleusercontent.com"))
        #expect(token["azp"] as? String == clientId)
        #expect(token["email_verified"] as? Bool == true)
        #expect(token["given_name"] as? String == "Alan")
        #expect(token["nonce"] == nil)
        let accessToken = try #require(answer.accessToken)
        #expect(answer.scope == "openid email profile")

        let signedIn = try await harness.signInWithIdp(postBody("google.com", idToken: answer.idToken, accessToken: accessToken))
        #expect(signedIn.isNewUser == true)
        #expect(signedIn.federatedId == "https://accounts.google.com/\(identity.subject)")
        #expect(signedIn.emailVerified == true)
        #expect(signedIn.photoUrl?.hasPrefix("https://lh3.googleusercontent.com/") == true)
        #expect(signedIn.oauthAccessToken == accessToken)
        let profile = object(signedIn.rawUserInfo)
        #expect(profile["id"] as? String == identity.subject)
        #expect(profile["verified_email"] as? Bool == true)
        #expect(profile["granted_scopes"] as? String == "openid email profile")

        // The access token alone is a credential too (Google's userinfo answers for it).
        let again = try await harness.signInWithIdp(postBody("google.com", accessToken: accessToken))
        #expect(again.localId == signedIn.localId)
        #expect(again.isNewUser == false)
        harness.clock.advance(3601)
        await #expect(throws: server("INVALID_IDP_RESPONSE : google.com does not know this access token for this app, or it has expired.")) {
            _ = try await harness.signInWithIdp(postBody("google.com", accessToken: accessToken))
        }
    }

    @Test func aGoogleNonceIsCheckedWhenTheTokenHasOne() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        let identity = try await harness.addIdentity("google.com", "Alan", "alan@gmail.com")
        let answer = try await harness.authorize("google.com", identity.subject, nonce: sha256Hex("g-nonce"))
        await #expect(throws: server("MISSING_OR_INVALID_NONCE : Nonce is missing in the request.")) {
            _ = try await harness.signInWithIdp(postBody("google.com", idToken: answer.idToken))
        }
        _ = try await harness.signInWithIdp(postBody("google.com", idToken: answer.idToken, nonce: "g-nonce"))
        // Google's tokens are not single-use: the same one signs in again.
        _ = try await harness.signInWithIdp(postBody("google.com", idToken: answer.idToken, nonce: "g-nonce"))
    }

    @Test func anAccessTokenOfAnotherPersonDoesNotGoWithTheIdToken() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        let alan = try await harness.addIdentity("google.com", "Alan", "alan@gmail.com")
        let ada = try await harness.addIdentity("google.com", "Ada", "ada@gmail.com")
        let alanAnswer = try await harness.authorize("google.com", alan.subject)
        let adaAnswer = try await harness.authorize("google.com", ada.subject)
        await #expect(throws: server("INVALID_IDP_RESPONSE : The access token belongs to another google.com user than the ID token.")) {
            _ = try await harness.signInWithIdp(postBody("google.com", idToken: alanAnswer.idToken, accessToken: adaAnswer.accessToken))
        }
    }

    @Test func aVerifiedGoogleEmailJoinsTheAccountWithThatEmail() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        let created = try await harness.signUp("alan@gmail.com", "hunter22")
        let identity = try await harness.addIdentity("google.com", "Alan Turing", "alan@gmail.com")
        let answer = try await harness.authorize("google.com", identity.subject)
        let signedIn = try await harness.signInWithIdp(postBody("google.com", idToken: answer.idToken))
        #expect(signedIn.localId == created.localId)
        #expect(signedIn.isNewUser == false)
        // Its email was never verified, so whoever set the password may not own the address:
        // the password goes, and Google's profile replaces the account's.
        let account = try #require(try await harness.lookup(signedIn.idToken))
        #expect(account.providerUserInfo?.map(\.providerId) == ["google.com"])
        #expect(account.emailVerified == true)
        #expect(account.displayName == "Alan Turing")
        await #expect(throws: server("INVALID_LOGIN_CREDENTIALS")) { _ = try await harness.signIn("alan@gmail.com", "hunter22") }
        await #expect(throws: server("TOKEN_EXPIRED")) { _ = try await harness.refresh(created.refreshToken) }
    }

    @Test func microsoftTenantsAndPersonalAccounts() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        let personal = try await harness.addIdentity("microsoft.com", "Bill Gates", "bill@outlook.com")
        let work = try await harness.addIdentity("microsoft.com", "Carol Shaw", "carol@contoso.com")
        #expect(personal.accountType == "personal")
        #expect(personal.tenantId == "9188040d-6c67-4c5b-b112-36a304b66dad")
        #expect(personal.subject.range(of: #"^00000000-0000-0000-[0-9a-f]{4}-[0-9a-f]{12}$"#, options: .regularExpression) != nil)
        #expect(work.accountType == "work")
        let workTenant = try #require(work.tenantId)
        #expect(UUID(uuidString: workTenant) != nil)
        #expect(UUID(uuidString: work.subject) != nil)
        // A directory's initial onmicrosoft.com name and its custom domains are one tenant.
        let initialDomain = try await harness.addIdentity("microsoft.com", "Ada Lovelace", "ada@contoso.onmicrosoft.com")
        #expect(initialDomain.tenantId == workTenant)
        _ = try await harness.authorize("microsoft.com", initialDomain.subject, parameters: ["tenant": "contoso.com"])

        for (identity, tenant) in [(personal, "common"), (personal, "consumers"), (work, "common"), (work, "organizations"),
                                   (work, workTenant), (work, "contoso.com"), (work, "contoso.onmicrosoft.com"), (work, "eu.contoso.com"),
                                   (personal, personal.tenantId ?? "")] {
            _ = try await harness.authorize("microsoft.com", identity.subject, parameters: ["tenant": tenant])
        }
        await #expect(throws: server("INVALID_IDP_RESPONSE : AADSTS500200: User account 'bill@outlook.com' is a personal Microsoft account. Personal Microsoft accounts are not supported for the organizations endpoint.")) {
            _ = try await harness.authorize("microsoft.com", personal.subject, parameters: ["tenant": "organizations"])
        }
        for (identity, tenant) in [(work, "consumers"), (work, "fabrikam.com"), (work, "fabrikam.onmicrosoft.com"), (personal, "outlook.com"), (work, SimulatedProvider.microsoftConsumerTenant)] {
            await #expect(throws: server("INVALID_IDP_RESPONSE : AADSTS50020: User account '\(identity.email ?? "")' from identity provider does not exist in tenant '\(tenant)' and cannot access the application.")) {
                _ = try await harness.authorize("microsoft.com", identity.subject, parameters: ["tenant": tenant])
            }
        }
        await #expect(throws: server("INVALID_IDP_RESPONSE : AADSTS90002: Tenant 'nowhere' not found. Use common, organizations, consumers, a directory id or a domain.")) {
            _ = try await harness.authorize("microsoft.com", work.subject, parameters: ["tenant": "nowhere"])
        }
        await #expect(throws: server("INVALID_IDP_RESPONSE : AADSTS90023: Unsupported 'prompt' value 'always'. Use login, none, consent or select_account.")) {
            _ = try await harness.authorize("microsoft.com", work.subject, parameters: ["prompt": "always"])
        }
    }

    @Test func promptNoneNeedsAnEarlierConsent() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        let work = try await harness.addIdentity("microsoft.com", "Carol", "carol@contoso.com")
        await #expect(throws: server("INVALID_IDP_RESPONSE : interaction_required: AADSTS50058: prompt=none, and no one has signed in to this application with Microsoft yet; sign in once without prompt=none.")) {
            _ = try await harness.authorize("microsoft.com", work.subject, parameters: ["prompt": "none"])
        }
        _ = try await harness.authorize("microsoft.com", work.subject, parameters: ["prompt": "consent"])
        _ = try await harness.authorize("microsoft.com", work.subject, parameters: ["prompt": "none"])
    }

    @Test func reservedParametersAreRefusedByEveryProvider() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        for providerId in ["microsoft.com", "google.com", "apple.com", "facebook.com"] {
            let identity = try await harness.addIdentity(providerId, "Someone", "someone@example.com")
            for reserved in ["client_id", "response_type", "redirect_uri", "state", "scope", "response_mode"] {
                await #expect(throws: server("INVALID_ARGUMENT : '\(reserved)' is set by the SDK itself and cannot be a custom parameter.")) {
                    _ = try await harness.authorize(providerId, identity.subject, scopes: ["email"], parameters: [reserved: "x", "login_hint": "a@b.c"])
                }
            }
        }
    }

    @Test func microsoftSignInUsesTheOidAndGraphProfile() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        let personal = try await harness.addIdentity("microsoft.com", "Bill Gates", "bill@outlook.com")
        let raw = "ms-raw-nonce"
        let answer = try await harness.authorize("microsoft.com", personal.subject, scopes: ["openid", "email", "profile", "mail.read"],
                                                 parameters: ["tenant": "consumers", "prompt": "select_account", "login_hint": "bill@outlook.com"],
                                                 nonce: sha256Hex(raw))
        let token = claims(of: answer.idToken)
        #expect(token["iss"] as? String == "https://login.microsoftonline.com/9188040d-6c67-4c5b-b112-36a304b66dad/v2.0")
        #expect(token["tid"] as? String == "9188040d-6c67-4c5b-b112-36a304b66dad")
        #expect(token["oid"] as? String == personal.subject)
        #expect(token["sub"] as? String != personal.subject)
        #expect(token["ver"] as? String == "2.0")
        #expect(token["preferred_username"] as? String == "bill@outlook.com")
        #expect(UUID(uuidString: try #require(token["aud"] as? String)) != nil)
        #expect(answer.scope == "openid email profile mail.read")

        let signedIn = try await harness.signInWithIdp(postBody("microsoft.com", idToken: answer.idToken, accessToken: answer.accessToken, nonce: raw))
        #expect(signedIn.federatedId == personal.subject)
        #expect(signedIn.email == "bill@outlook.com")
        #expect(signedIn.emailVerified == false)
        #expect(signedIn.photoUrl == nil)
        #expect(signedIn.oauthIdToken == answer.idToken)
        #expect(signedIn.oauthAccessToken == answer.accessToken)
        let graph = object(signedIn.rawUserInfo)
        #expect(graph["displayName"] as? String == "Bill Gates")
        #expect(graph["mail"] as? String == "bill@outlook.com")
        #expect(graph["userPrincipalName"] as? String == "bill@outlook.com")
        #expect(graph["id"] as? String == personal.subject.replacingOccurrences(of: "-", with: "").suffix(16).description)
        let account = try #require(try await harness.lookup(signedIn.idToken))
        #expect(account.providerUserInfo?.first?.rawId == personal.subject)
        #expect(account.emailVerified == false)
        #expect(account.photoUrl == nil)

        // A token naming another directory than its issuer is not Microsoft's.
        var forged = token
        forged["tid"] = "72f988bf-86f1-41af-91ab-2d7cd011db47"
        let signer = try harness.providerSigner("microsoft.com")
        await #expect(throws: server("INVALID_IDP_RESPONSE : The ID token's issuer https://login.microsoftonline.com/9188040d-6c67-4c5b-b112-36a304b66dad/v2.0 is not https://login.microsoftonline.com/72f988bf-86f1-41af-91ab-2d7cd011db47/v2.0.")) {
            _ = try await harness.signInWithIdp(postBody("microsoft.com", idToken: try signer.sign(claims: forged), nonce: raw))
        }
    }

    @Test func anUnverifiedEmailOfAnExistingAccountNeedsConfirmation() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        let created = try await harness.signUp("carol@contoso.com", "hunter22")
        let work = try await harness.addIdentity("microsoft.com", "Carol Shaw", "carol@contoso.com")
        let answer = try await harness.authorize("microsoft.com", work.subject)
        let pending = try await harness.signInWithIdp(postBody("microsoft.com", idToken: answer.idToken, accessToken: answer.accessToken))
        #expect(pending.needConfirmation == true)
        #expect(pending.email == "carol@contoso.com")
        // As the emulator answers: the account's federated providers (none here) and its uid.
        #expect(pending.verifiedProvider == [])
        #expect(pending.idToken == nil)
        #expect(pending.localId == created.localId)
        #expect(pending.oauthIdToken == answer.idToken)
        let pendingToken = try #require(pending.pendingToken)

        // The owner signs in the way it knows, then links the pending credential: no second trip to Microsoft.
        let owner = try await harness.signIn("carol@contoso.com", "hunter22")
        let linked = try await harness.signInWithIdp(nil, idToken: owner.idToken, pendingToken: pendingToken)
        #expect(linked.localId == created.localId)
        let account = try #require(try await harness.lookup(linked.idToken))
        #expect(account.providerUserInfo?.map(\.providerId) == ["microsoft.com", "password"])
        await #expect(throws: server("INVALID_PENDING_TOKEN : The pending token is unknown or has expired.")) {
            _ = try await harness.signInWithIdp(nil, pendingToken: "not-a-pending-token")
        }
        harness.clock.advance(3601)
        await #expect(throws: server("INVALID_PENDING_TOKEN : The pending token is unknown or has expired.")) {
            _ = try await harness.signInWithIdp(nil, pendingToken: pendingToken)
        }
    }

    @Test func facebookSignsInWithAnAccessToken() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        let identity = try await harness.addIdentity("facebook.com", "Mark Z", "mark@example.com")
        let answer = try await harness.authorize("facebook.com", identity.subject, scopes: ["email", "public_profile"])
        #expect(answer.idToken == nil)
        let accessToken = try #require(answer.accessToken)
        let signedIn = try await harness.signInWithIdp(postBody("facebook.com", accessToken: accessToken))
        #expect(signedIn.isNewUser == true)
        #expect(signedIn.federatedId == identity.subject)
        #expect(signedIn.email == "mark@example.com")
        #expect(signedIn.emailVerified == false)
        #expect(signedIn.photoUrl == "https://graph.facebook.com/\(identity.subject)/picture")
        let profile = object(signedIn.rawUserInfo)
        #expect(profile["first_name"] as? String == "Mark")
        #expect(profile["email"] as? String == "mark@example.com")

        let withoutEmail = try await harness.authorize("facebook.com", identity.subject, scopes: ["public_profile"])
        let again = try await harness.signInWithIdp(postBody("facebook.com", accessToken: withoutEmail.accessToken))
        #expect(again.localId == signedIn.localId)
        #expect(again.email == nil)

        await #expect(throws: server("INVALID_IDP_RESPONSE : facebook.com credentials carry an access token, not an ID token.")) {
            _ = try await harness.signInWithIdp(postBody("facebook.com", idToken: "eyJ.a.b"))
        }
        await #expect(throws: server("INVALID_IDP_RESPONSE : facebook.com does not know this access token for this app, or it has expired.")) {
            _ = try await harness.signInWithIdp(postBody("facebook.com", accessToken: "EAAforged"))
        }
        harness.clock.advance(2 * 3600 + 1)
        await #expect(throws: server("INVALID_IDP_RESPONSE : facebook.com does not know this access token for this app, or it has expired.")) {
            _ = try await harness.signInWithIdp(postBody("facebook.com", accessToken: accessToken))
        }
    }

    @Test func badRequestsGetClearErrors() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        await #expect(throws: server("MISSING_REQUEST_URI")) {
            _ = try await harness.api.call(SignInWithIdpRequest(requestUri: "", postBody: "providerId=google.com&id_token=x"))
        }
        await #expect(throws: server("INVALID_PROVIDER_ID : Provider Id is not supported.")) {
            _ = try await harness.signInWithIdp("providerId=myspace.com&id_token=x")
        }
        await #expect(throws: server("INVALID_CREDENTIAL_OR_PROVIDER_ID : Invalid IdP response/credential: http://localhost?id_token=x")) {
            _ = try await harness.signInWithIdp("id_token=x")
        }
        await #expect(throws: server("INVALID_IDP_RESPONSE : The credential carries neither an id_token nor an access_token.")) {
            _ = try await harness.signInWithIdp("providerId=google.com&id_token=&nonce=%zz%")
        }
        await #expect(throws: server("INVALID_IDP_RESPONSE : The simulated providers do not exchange authorization codes; send the id_token or access_token.")) {
            _ = try await harness.signInWithIdp("providerId=apple.com&code=c0de")
        }
        await #expect(throws: server("INVALID_PROVIDER_ID : Provider Id is not supported.")) {
            _ = try await harness.api.call(SimulatedIdpListRequest(providerId: "yahoo.com"))
        }
        await #expect(throws: server("INVALID_EMAIL")) { _ = try await harness.addIdentity("google.com", "X", "not-an-email") }
        await #expect(throws: server("INVALID_ARGUMENT : A simulated identity needs a name of 1 to 100 printable characters.")) {
            _ = try await harness.addIdentity("google.com", "  ", "x@example.com")
        }
        _ = try await harness.addIdentity("google.com", "X", "x@example.com")
        await #expect(throws: server("INVALID_ARGUMENT : google.com already has an identity with the email x@example.com.")) {
            _ = try await harness.addIdentity("google.com", "Y", "X@example.com")
        }
        await #expect(throws: server("IDENTITY_NOT_FOUND : google.com knows no identity 42.")) {
            _ = try await harness.authorize("google.com", "42")
        }
        // The credential may also arrive in a redirect URL's fragment.
        let identity = try await harness.addIdentity("google.com", "Z", "z@example.com")
        let answer = try await harness.authorize("google.com", identity.subject)
        let viaFragment = try await harness.api.call(SignInWithIdpRequest(
            requestUri: "http://localhost/__/auth/handler#providerId=google.com&id_token=\(try #require(answer.idToken))"))
        #expect(viaFragment.isNewUser == true)
        let missingKey = await harness.raw(SignInWithIdpRequest.endpoint.emulatorPath, body: "{}", headers: [:])
        #expect(missingKey.status == 403)
    }

    @Test func providerKeysAreOwnerOnlyFilesThatSurviveARestart() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        let identity = try await harness.addIdentity("google.com", "Alan", "alan@gmail.com")
        let answer = try await harness.authorize("google.com", identity.subject)
        let root = harness.directory.path
        func mode(_ path: String) throws -> Int {
            try #require(FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber).intValue & 0o777
        }
        #expect(try mode(root + "/idp-keys") == 0o700)
        #expect(try mode(root + "/idp-keys/google.com.pem") == 0o600)
        #expect(try mode(root + "/idp-keys/google.com.crt") == 0o600)
        #expect(!FileManager.default.fileExists(atPath: root + "/idp-keys/apple.com.pem"))
        let reopened = try harness.reopened()
        let signedIn = try await reopened.signInWithIdp(postBody("google.com", idToken: answer.idToken))
        #expect(signedIn.isNewUser == true)
        #expect(try await reopened.api.call(SimulatedIdpListRequest(providerId: "google.com")).identities.map(\.subject) == [identity.subject])
    }
}
