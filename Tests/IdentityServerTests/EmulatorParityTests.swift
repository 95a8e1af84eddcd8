import AsyncHTTPClient
import Foundation
import IdentityEmulator
import IdentityTestSupport
import IdentityToolkit
import JWTKit
import NIOHTTP1
import Testing

private struct CustomTokenClaims: JWTPayload {
    var iss: String
    var sub: String
    var aud: String
    var iat: Int
    var exp: Int
    var uid: String
    var claims: [String: String]

    func verify(using algorithm: some JWTAlgorithm) async throws {}
}

private let json = ["Content-Type": "application/json"]

// Generous: the whole test run shares a few cores, and a call may wait its turn.
@Suite("authdeck serve answers as the Firebase Auth Emulator", .timeLimit(.minutes(5)))
struct EmulatorParityTests {
    @Test func basicAuthorizationIsNoCredentialSoWithoutAKeyIt403s() async throws {
        try await withTestBackend(.http) { served in
            let noKey = try await served.raw(.POST, AccountsLookupRequest.endpoint.emulatorPath, json: #"{"localId":["x"]}"#,
                                             headers: ["Authorization": "Basic YWJjOmRlZg==", "Content-Type": "application/json"])
            #expect(noKey.status == 403)
            #expect((noKey.json?["error"] as? [String: Any])?["status"] as? String == "PERMISSION_DENIED")
            // With a key it is an app's call: no administrator lookup by uid.
            let withKey = try await served.raw(.POST, AccountsLookupRequest.endpoint.withKey, json: #"{"localId":["x"]}"#,
                                               headers: ["Authorization": "Basic YWJjOmRlZg==", "Content-Type": "application/json"])
            #expect(withKey.errorMessage == "MISSING_ID_TOKEN")
        }
    }

    @Test func enumsAreReadByNumberAndMissingFieldsNamed() async throws {
        try await withTestBackend(.http) { served in
            let reset = try await served.raw(.POST, SendOobCodeRequest.endpoint.withKey, json: #"{"requestType":1,"email":"nobody@example.com"}"#)
            #expect(reset.status == 200)
            #expect(reset.json?["email"] as? String == "nobody@example.com")
            let signIn = try await served.raw(.POST, SendOobCodeRequest.endpoint.withKey, json: #"{"requestType":6,"email":"link@example.com"}"#)
            #expect(signIn.status == 200)
            let outbox = try await served.raw(.GET, "/emulator/v1/projects/\(served.backend.projectId)/oobCodes", headers: [:])
            #expect(((outbox.json?["oobCodes"] as? [[String: Any]])?.last?["requestType"] as? String) == "EMAIL_SIGNIN")
            let unknown = try await served.raw(.POST, SendOobCodeRequest.endpoint.withKey, json: #"{"requestType":99,"email":"a@example.com"}"#)
            #expect(unknown.errorMessage == "INVALID_ARGUMENT : Invalid value at 'requestType'")
            let unspecified = try await served.raw(.POST, SendOobCodeRequest.endpoint.withKey, json: #"{"requestType":0}"#)
            #expect(unspecified.errorMessage == "MISSING_REQ_TYPE")
            let missingEmail = try await served.raw(.POST, SignInWithPasswordRequest.endpoint.withKey, json: #"{"password":"x"}"#)
            #expect(missingEmail.errorMessage == "MISSING_EMAIL")
            let anonymous = try await served.makeTransport().call(SignUpRequest())
            let deleted = try await served.raw(.POST, AccountsUpdateRequest.endpoint.withKey,
                                               json: #"{"idToken":"\#(anonymous.idToken ?? "")","displayName":"N","deleteAttribute":[2]}"#)
            #expect(deleted.status == 200)
            #expect(deleted.json?["displayName"] == nil)
        }
    }

    @Test func recaptchaParamsAndTheV2ProjectConfigAreServed() async throws {
        try await withTestBackend(.http) { served in
            for path in ["/identitytoolkit.googleapis.com/v1/recaptchaParams?key=k",
                         "/www.googleapis.com/identitytoolkit/v3/relyingparty/getRecaptchaParam?key=k"] {
                let answer = try await served.raw(.GET, path, headers: [:])
                #expect(answer.status == 200, "\(path)")
                #expect(answer.json?["recaptchaSiteKey"] as? String == "Fake-key__Do-not-send-this-to-Recaptcha_")
            }
            #expect(try await served.raw(.GET, "/identitytoolkit.googleapis.com/v1/recaptchaParams", headers: [:]).status == 403)

            let config = "/identitytoolkit.googleapis.com/v2/projects/\(served.backend.projectId)/config"
            let initial = try await served.raw(.GET, config + "?key=k", headers: [:])
            #expect(initial.json?["signIn"] as? [String: Bool] == ["allowDuplicateEmails": false])
            #expect(initial.json?["emailPrivacyConfig"] as? [String: Bool] == ["enableImprovedEmailPrivacy": true])
            #expect((initial.json?["blockingFunctions"] as? [String: Any])?.isEmpty == true)

            let owner = ["Authorization": "Bearer owner", "Content-Type": "application/json"]
            let byApp = try await served.raw(.PATCH, config + "?key=k", json: #"{"emailPrivacyConfig":{"enableImprovedEmailPrivacy":false}}"#)
            #expect(byApp.errorMessage == "INSUFFICIENT_PERMISSION : Only authenticated requests can specify target_project_id.")
            // A full update: what is left out takes the emulator's default (protection off).
            let full = try await served.raw(.PATCH, config, json: "{}", headers: owner)
            #expect(full.json?["emailPrivacyConfig"] as? [String: Bool] == ["enableImprovedEmailPrivacy": false])
            let masked = try await served.raw(.PATCH, config + "?updateMask=emailPrivacyConfig.enableImprovedEmailPrivacy",
                                              json: #"{"emailPrivacyConfig":{"enableImprovedEmailPrivacy":true}}"#, headers: owner)
            #expect(masked.json?["emailPrivacyConfig"] as? [String: Bool] == ["enableImprovedEmailPrivacy": true])
            let untouched = try await served.raw(.PATCH, config + "?updateMask=signIn.allowDuplicateEmails", json: "{}", headers: owner)
            #expect(untouched.json?["emailPrivacyConfig"] as? [String: Bool] == ["enableImprovedEmailPrivacy": true])
            let duplicates = try await served.raw(.PATCH, config, json: #"{"signIn":{"allowDuplicateEmails":true}}"#, headers: owner)
            #expect(duplicates.status == 400)
            // A project the server has never held: named, with the one it serves by default.
            let other = try await served.raw(.GET, "/identitytoolkit.googleapis.com/v2/projects/someproject/config?key=k", headers: [:])
            #expect(other.status == 404)
            #expect(other.errorMessage?.contains("configured for \(served.backend.projectId)") == true)
        }
    }

    @Test func aSharedServerTakesOnlyCustomTokensSignedWithItsServiceAccount() async throws {
        var configuration = EmbeddedBackendConfiguration()
        configuration.adminToken = "s3cret-admin-token-0123"
        try await withTestBackend(.http, configuration: configuration) { served in
            let path = SignInWithCustomTokenRequest.endpoint.withKey
            let unsigned = try await served.raw(.POST, path, json: #"{"token":"{\"uid\":\"someone\"}"}"#)
            #expect(unsigned.errorMessage
                == "INVALID_CUSTOM_TOKEN : This server is shared: custom tokens must be signed (RS256) with the project's service account.")

            let file = try served.backend.prepareServiceAccount()
            let account = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
            let email = try #require(account["client_email"] as? String)
            let kid = JWKIdentifier(string: try #require(account["private_key_id"] as? String))
            let keys = JWTKeyCollection()
            await keys.add(rsa: try Insecure.RSA.PrivateKey(pem: try #require(account["private_key"] as? String)), digestAlgorithm: .sha256, kid: kid)
            let now = Int(Date().timeIntervalSince1970)
            let token = try await keys.sign(CustomTokenClaims(
                iss: email, sub: email, aud: "https://identitytoolkit.googleapis.com/google.identity.identitytoolkit.v1.IdentityToolkit",
                iat: now, exp: now + 3600, uid: "signed-user", claims: ["role": "owner"]), kid: kid)
            let signed = try await served.raw(.POST, path, json: #"{"token":"\#(token)"}"#)
            #expect(signed.status == 200)
            let idToken = try #require(signed.json?["idToken"] as? String)
            let payload = try #require(Data(base64Encoded: base64(idToken.split(separator: ".")[1])))
            let claims = try #require(try JSONSerialization.jsonObject(with: payload) as? [String: Any])
            #expect(claims["role"] as? String == "owner")
            #expect(claims["sub"] as? String == "signed-user")
        }
    }
}

private func base64(_ part: Substring) -> String {
    var text = part.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
    text += String(repeating: "=", count: (4 - text.count % 4) % 4)
    return text
}
