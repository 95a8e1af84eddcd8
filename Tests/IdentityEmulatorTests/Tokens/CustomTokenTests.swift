import Foundation
import IdentityToolkit
import JWTKit
import Testing
@testable import IdentityEmulator

/// What the Admin SDKs put in a custom token (`create_custom_token`).
struct CustomTokenPayload: JWTPayload {
    var iss: String
    var sub: String
    var aud: String
    var iat: Int
    var exp: Int
    var uid: String
    var claims: [String: String]?

    func verify(using algorithm: some JWTAlgorithm) async throws {}
}

extension Harness {
    /// The service-account JSON `serve` writes, parsed as the Admin SDK reads it.
    func serviceAccountJSON() throws -> [String: Any] {
        let url = try backend.prepareServiceAccount()
        return try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
    }

    /// A custom token signed (RS256) with a PEM private key, as the Admin SDK signs with a service account.
    func signedCustomToken(uid: String, claims: [String: String]? = nil, privateKeyPEM: String? = nil, email: String? = nil,
                           issuedAt: Int? = nil, lifetime: Int = 3600,
                           audience: String = EmbeddedBackend.customTokenAudience) async throws -> String {
        let account = try serviceAccountJSON()
        let pem = try privateKeyPEM ?? #require(account["private_key"] as? String)
        let clientEmail = try email ?? #require(account["client_email"] as? String)
        let keys = JWTKeyCollection()
        await keys.add(rsa: try Insecure.RSA.PrivateKey(pem: pem), digestAlgorithm: .sha256,
                       kid: JWKIdentifier(string: account["private_key_id"] as? String ?? "k"))
        let iat = issuedAt ?? clock.seconds
        return try await keys.sign(CustomTokenPayload(iss: clientEmail, sub: clientEmail, aud: audience, iat: iat, exp: iat + lifetime,
                                                      uid: uid, claims: claims),
                                   kid: JWKIdentifier(string: account["private_key_id"] as? String ?? "k"))
    }

    func customTokenSignIn(_ token: String) async -> WireResponse {
        await raw(SignInWithCustomTokenRequest.endpoint.emulatorPath, body: String(decoding: try! JSONSerialization.data(withJSONObject: ["token": token]), as: UTF8.self))
    }
}

/// An unsigned JWT (`alg: none`), what the Admin SDK makes when pointed at an emulator.
func unsignedJWT(_ payload: [String: Any]) throws -> String {
    func part(_ object: [String: Any]) throws -> String {
        try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }
    return try part(["alg": "none", "typ": "JWT"]) + "." + part(payload) + "."
}

@Suite("signInWithCustomToken")
struct CustomTokenTests {
    static let audience = EmbeddedBackend.customTokenAudience

    @Test func onALoopbackBackendUnsignedTokensSignInAndTheirClaimsStayInEveryIdToken() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        let token = try unsignedJWT(["aud": Self.audience, "uid": "custom-1", "claims": ["role": "editor", "level": 3]])
        let first = try await harness.api.call(SignInWithCustomTokenRequest(token: token))
        #expect(first.isNewUser == true)
        #expect(first.expiresIn == "3600")
        let idClaims = claims(of: first.idToken)
        #expect(idClaims["sub"] as? String == "custom-1")
        #expect(idClaims["role"] as? String == "editor")
        #expect(int(idClaims["level"]) == 3)
        #expect(idClaims["provider_id"] == nil)
        #expect((idClaims["firebase"] as? [String: Any])?["sign_in_provider"] as? String == "custom")
        #expect(header(of: first.idToken)["alg"] as? String == "RS256")

        // The claims belong to the session: a refreshed ID token has them too.
        harness.clock.advance(60)
        let refreshed = try await harness.refresh(first.refreshToken)
        #expect(claims(of: refreshed.idToken)["role"] as? String == "editor")

        // Plain JSON, the emulator's shortcut; the same uid is the same (existing) user.
        let again = try await harness.api.call(SignInWithCustomTokenRequest(token: #"{"uid":"custom-1"}"#))
        #expect(again.isNewUser == false)
        #expect(claims(of: again.idToken)["role"] == nil)
        let user = try #require(try await harness.lookup(again.idToken))
        #expect(user.localId == "custom-1")
        #expect(user.providerUserInfo == nil)
        #expect(user.lastRefreshAt != nil)
    }

    @Test func developerClaimsOverrideCustomClaimsButNeverReservedOnes() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        _ = try await harness.api.call(SignInWithCustomTokenRequest(token: #"{"uid":"c2"}"#))
        _ = try await harness.send("POST", harness.projectPath + "/accounts:update", ["localId": "c2", "customAttributes": #"{"role":"admin","team":"a"}"#])
        let signedIn = try await harness.api.call(SignInWithCustomTokenRequest(token: #"{"uid":"c2","claims":{"role":"viewer"}}"#))
        let idClaims = claims(of: signedIn.idToken)
        #expect(idClaims["role"] as? String == "viewer")
        #expect(idClaims["team"] as? String == "a")

        for (token, message) in [
            (#"{"uid":"c2","claims":{"firebase":1}}"#, "FORBIDDEN_CLAIM : firebase"),
            (#"{"uid":"c2","claims":{"auth_time":1}}"#, "FORBIDDEN_CLAIM : auth_time"),
            (#"{"uid":"c2","claims":[1]}"#, "INVALID_CLAIMS"),
            (#"{"claims":{}}"#, "MISSING_IDENTIFIER"),
            (#"{"uid":"#, "INVALID_CUSTOM_TOKEN : ((Auth Emulator only accepts strict JSON or JWTs as fake custom tokens.))"),
            ("not-a-jwt", "INVALID_CUSTOM_TOKEN : Invalid assertion format"),
            (try unsignedJWT(["aud": "my-project", "uid": "x"]),
             "INVALID_CUSTOM_TOKEN : ((Invalid aud (audience): my-project Note: Firebase ID Tokens / third-party tokens cannot be used with signInWithCustomToken.))"),
            (try unsignedJWT(["aud": Self.audience]), "MISSING_IDENTIFIER"),
        ] {
            #expect(errorMessage(await harness.customTokenSignIn(token)) == message, "\(token)")
        }
        #expect(errorMessage(await harness.raw(SignInWithCustomTokenRequest.endpoint.emulatorPath, body: "{}")) == "MISSING_CUSTOM_TOKEN")
        // A number is a uid too, in the emulator's reading.
        #expect((await harness.customTokenSignIn(#"{"user_id": 42}"#)).status == 200)
    }

    @Test func aDisabledUserCannotSignInWithACustomTokenAndCustomUsersAreNotAnonymous() async throws {
        let harness = try Harness(configuration: .init(anonymousAccountLifetime: 60))
        defer { harness.remove() }
        _ = try await harness.api.call(SignInWithCustomTokenRequest(token: #"{"uid":"c3"}"#))
        harness.clock.advance(3600)
        #expect(try harness.backend.purgeExpiredAnonymousUsers() == 0)
        _ = try await harness.send("POST", harness.projectPath + "/accounts:update", ["localId": "c3", "disableUser": true])
        #expect(errorMessage(await harness.customTokenSignIn(#"{"uid":"c3"}"#)) == "USER_DISABLED")
    }

    @Test func aSharedBackendAcceptsOnlyTokensSignedByTheProjectsServiceAccount() async throws {
        let harness = try Harness(configuration: .init(adminToken: "0123456789abcdef-admin"))
        defer { harness.remove() }
        let unsigned = "INVALID_CUSTOM_TOKEN : This server is shared: custom tokens must be signed (RS256) with the project's service account."
        #expect(errorMessage(await harness.customTokenSignIn(#"{"uid":"intruder"}"#)) == unsigned)
        #expect(errorMessage(await harness.customTokenSignIn(try unsignedJWT(["aud": Self.audience, "uid": "intruder"]))) == unsigned)
        #expect(try harness.stored("intruder") == nil)

        let signed = try await harness.signedCustomToken(uid: "alice", claims: ["plan": "pro"])
        let response = try WireCoding.decode(SignInWithCustomTokenResponse.self, from: await harness.customTokenSignIn(signed))
        #expect(response.isNewUser == true)
        #expect(claims(of: response.idToken)["plan"] as? String == "pro")

        // Another key (a service account of some other project) does not pass.
        let elsewhere = try Harness()
        defer { elsewhere.remove() }
        let otherKey = try #require(try elsewhere.serviceAccountJSON()["private_key"] as? String)
        let forged = try await harness.signedCustomToken(uid: "alice", privateKeyPEM: otherKey)
        #expect(errorMessage(await harness.customTokenSignIn(forged))
            == "INVALID_CUSTOM_TOKEN : The custom token is not signed by the project's service account.")
        // Signed, but naming another account, expired, or living over an hour.
        let mismatch = try await harness.signedCustomToken(uid: "alice", email: "someone@other.iam.gserviceaccount.com")
        #expect(errorMessage(await harness.customTokenSignIn(mismatch)) == "CREDENTIAL_MISMATCH")
        let expired = try await harness.signedCustomToken(uid: "alice", issuedAt: harness.clock.seconds - 7200)
        #expect(errorMessage(await harness.customTokenSignIn(expired)) == "INVALID_CUSTOM_TOKEN : The custom token has expired or is not yet valid.")
        let tooLong = try await harness.signedCustomToken(uid: "alice", lifetime: 7200)
        #expect(errorMessage(await harness.customTokenSignIn(tooLong)) == "INVALID_CUSTOM_TOKEN : The custom token has expired or is not yet valid.")
        let wrongAudience = try await harness.signedCustomToken(uid: "alice", audience: "authdeck-local")
        #expect(errorMessage(await harness.customTokenSignIn(wrongAudience))?.hasPrefix("INVALID_CUSTOM_TOKEN : ((Invalid aud (audience): authdeck-local") == true)
    }

    @Test func theServiceAccountFileIsGooglesFormatPrivateAndStable() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        let account = try harness.serviceAccountJSON()
        #expect(account["type"] as? String == "service_account")
        #expect(account["project_id"] as? String == "authdeck-local")
        #expect(account["client_email"] as? String == "firebase-adminsdk-authdeck@authdeck-local.iam.gserviceaccount.com")
        #expect((account["private_key"] as? String)?.hasPrefix("-----BEGIN PRIVATE KEY-----\n") == true)
        for key in ["private_key_id", "client_id", "auth_uri", "token_uri", "auth_provider_x509_cert_url", "client_x509_cert_url"] {
            #expect((account[key] as? String)?.isEmpty == false, "\(key)")
        }
        let path = harness.directory.appendingPathComponent("service-account.json").path
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber
        #expect(mode?.intValue == 0o600)

        // The next start reads the same key; a file of another project is refused, untouched.
        let reopened = try harness.reopened()
        #expect(try reopened.serviceAccountJSON()["private_key_id"] as? String == account["private_key_id"] as? String)
        let other = try harness.reopened(configuration: .init(projectId: "other-project"))
        #expect(throws: EmbeddedBackendError.serviceAccountOfAnotherProject(path, "authdeck-local")) { try other.backend.prepareServiceAccount() }
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        try Data("junk".utf8).write(to: URL(fileURLWithPath: path))
        #expect(throws: EmbeddedBackendError.unreadableServiceAccount(path)) { try harness.reopened().backend.prepareServiceAccount() }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data("junk".utf8))
        #expect(before != Data("junk".utf8))
    }
}
