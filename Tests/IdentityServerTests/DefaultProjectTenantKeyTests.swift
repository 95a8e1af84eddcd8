import Foundation
import IdentityEmulator
import IdentityTestSupport
import IdentityToolkit
import NIOHTTP1
import Testing

/// The served default project's tenants (the tenants `authdeck ssh --emulator` gives its visitors). On a
/// shared serve that project has no key of its own, so a request naming one of its tenants is served with
/// that tenant's key or the administrator's token only: tenant ids are not secret, and any key would
/// otherwise sign up, lock out, probe and mail the tenant's users. On loopback without a token every key
/// is served, as by the emulator.
@Suite("A default project's tenants and their keys", .timeLimit(.minutes(2)))
struct DefaultProjectTenantKeyTests {
    typealias Keys = TenantAPIKeyTests
    static let password = "victim-secret-1"

    /// The four client calls that name a tenant in their body, each answered 200 when served; the
    /// sign-up is `newcomer`'s.
    static func calls(_ tenant: String, email: String, password: String = password, newcomer: String = "new@example.com") -> [(Endpoint, String)] {
        [
            (SignUpRequest.endpoint, #"{"email":"\#(newcomer)","password":"secret-1","returnSecureToken":true,"tenantId":"\#(tenant)"}"#),
            (SignInWithPasswordRequest.endpoint, #"{"email":"\#(email)","password":"\#(password)","returnSecureToken":true,"tenantId":"\#(tenant)"}"#),
            (CreateAuthUriRequest.endpoint, #"{"identifier":"\#(email)","continueUri":"http://localhost/","tenantId":"\#(tenant)"}"#),
            (SendOobCodeRequest.endpoint, #"{"requestType":"PASSWORD_RESET","email":"\#(email)","tenantId":"\#(tenant)"}"#),
        ]
    }

    private static func victim(_ served: TestBackend, in tenant: String, key: String) async throws {
        let made = try await served.raw(.POST, SignUpRequest.endpoint.emulatorPath + "?key=\(key)",
                                        json: #"{"email":"victim@example.com","password":"\#(password)","tenantId":"\#(tenant)"}"#)
        #expect(made.status == 200, "\(made.errorMessage ?? "")")
    }

    @Test func onASharedServeAnyOtherKeyIsRefusedAndLeavesTheTenantAlone() async throws {
        try await withTestBackend(.http, configuration: Keys.shared) { served in
            let (mine, theirs) = (try await Keys.makeTenant(served), try await Keys.makeTenant(served))
            let key = try await Keys.key(served, mine)
            try await Self.victim(served, in: mine, key: key)
            let foreign: [(String, [String: String])] = [
                ("", ["Content-Type": "application/json", "X-Goog-Api-Key": "fake-api-key"]),
                ("?key=anything", Keys.json),
                ("?key=\(try served.backend.apiKey())", Keys.json),
                ("?key=\(try await Keys.key(served, theirs))", Keys.json),
            ]
            for (query, headers) in foreign {
                for (endpoint, body) in Self.calls(mine, email: "victim@example.com") {
                    let answer = try await served.raw(.POST, endpoint.emulatorPath + query, json: body, headers: headers)
                    #expect(answer.status == 400 && answer.json?["sessionId"] == nil && answer.json?["idToken"] == nil,
                            "\(endpoint.emulatorPath)\(query): \(answer.status)")
                    let message = answer.errorMessage ?? ""
                    #expect(message.hasPrefix("API key not valid. Please pass a valid API key. : A tenant of this shared server is reached with its own API key")
                            || message.hasPrefix("TENANT_ID_MISMATCH : This API key belongs to tenant \(theirs)"), "\(query): \(message)")
                }
            }
            // A tenant that does not exist is refused alike: the refusal tells nothing of which do.
            let unknown = try await served.raw(.POST, SignUpRequest.endpoint.emulatorPath + "?key=anything", json: #"{"tenantId":"never-made-1"}"#)
            #expect(unknown.errorMessage?.hasPrefix("API key not valid. Please pass a valid API key. : ") == true)

            // Twelve wrong passwords under another key lock no one out; the outbox got nothing, the tenant one account.
            for _ in 0..<12 {
                let (endpoint, body) = Self.calls(mine, email: "victim@example.com", password: "wrong-guess")[1]
                #expect(try await served.raw(.POST, endpoint.emulatorPath + "?key=fake-api-key", json: body).status == 400)
            }
            let (signIn, body) = Self.calls(mine, email: "victim@example.com")[1]
            let own = try await served.raw(.POST, signIn.emulatorPath + "?key=\(key)", json: body)
            #expect(own.status == 200, "\(own.errorMessage ?? "")")
            let outbox = try await served.raw(.GET, "/emulator/v1/projects/\(served.backend.projectId)/tenants/\(mine)/oobCodes", headers: Keys.admin)
            #expect(Keys.codes(outbox)?.isEmpty == true)
            let counted = try await served.raw(.POST, "/identitytoolkit.googleapis.com/v1/projects/\(served.backend.projectId)/tenants/\(mine)/accounts:query",
                                               json: #"{"returnUserInfo":false}"#, headers: Keys.admin)
            #expect(counted.json?["recordsCount"] as? String == "1")

            // Its emulator endpoints stay the key's or the administrator's.
            let base = "/emulator/v1/projects/\(served.backend.projectId)/tenants/\(mine)"
            for (method, path, body) in [(HTTPMethod.GET, "/oobCodes", nil), (.GET, "/config", nil), (.DELETE, "/accounts", nil),
                                         (.POST, "/lockouts:clear", #"{"all":true}"#)] as [(HTTPMethod, String, String?)] {
                let answer = try await served.raw(method, base + path + "?key=fake-api-key", body: body.map { Data($0.utf8) }, headers: Keys.json)
                #expect(answer.status == 401, "\(method) \(path): \(answer.status)")
            }
            #expect(try served.backend.accountCount() == 0)
        }
    }

    @Test func onASharedServeTheTenantsKeyOrTheAdministratorIsServed() async throws {
        try await withTestBackend(.http, configuration: Keys.shared) { served in
            let mine = try await Keys.makeTenant(served)
            let key = try await Keys.key(served, mine)
            try await Self.victim(served, in: mine, key: key)
            let administrator = Keys.admin.merging(["X-Goog-Api-Key": "fake-api-key"]) { $1 }
            for (query, headers, newcomer) in [("?key=\(key)", Keys.json, "keyed@example.com"), ("", administrator, "administered@example.com")] {
                for (endpoint, body) in Self.calls(mine, email: "victim@example.com", newcomer: newcomer) {
                    let answer = try await served.raw(.POST, endpoint.emulatorPath + query, json: body, headers: headers)
                    #expect(answer.status == 200, "\(endpoint.emulatorPath) \(newcomer): \(answer.errorMessage ?? "")")
                }
            }
            // A reset link in the tenant carries the tenant's key, which opens it.
            let outbox = try await served.raw(.GET, "/emulator/v1/projects/\(served.backend.projectId)/tenants/\(mine)/oobCodes?key=\(key)", headers: [:])
            let link = try #require(URLComponents(string: Keys.codes(outbox)?.first?["oobLink"] as? String ?? ""), "\(outbox.errorMessage ?? "")")
            #expect(link.queryItems?.first { $0.name == "apiKey" }?.value == key)
            let opened = try await served.raw(.GET, link.percentEncodedPath + "?" + (link.percentEncodedQuery ?? ""), headers: [:])
            let outcome = opened.json?["authEmulator"] as? [String: Any]
            #expect(opened.status == 200 && outcome?["email"] as? String == "victim@example.com", "\(opened.errorMessage ?? "")")

            // A tenant's refresh token is itself the credential: exchanged under any key, as production
            // takes any key of the project, and answered in its tenant.
            let (signIn, body) = Self.calls(mine, email: "victim@example.com")[1]
            let signedIn = try await served.raw(.POST, signIn.emulatorPath + "?key=\(key)", json: body)
            let refreshToken = try #require(signedIn.json?["refreshToken"] as? String)
            let refreshed = try await served.raw(.POST, SecureTokenRequest.endpoint.emulatorPath + "?key=fake-api-key",
                                                 json: #"{"grant_type":"refresh_token","refresh_token":"\#(refreshToken)"}"#)
            #expect(refreshed.status == 200 && refreshed.json?["user_id"] as? String == signedIn.json?["localId"] as? String,
                    "\(refreshed.errorMessage ?? "")")
        }
    }

    @Test func onALoopbackServeAnyKeyIsServedAsByTheEmulator() async throws {
        try await withTestBackend(.http) { served in
            let mine = try await Keys.makeTenant(served, headers: ["Content-Type": "application/json", "Authorization": "Bearer owner"])
            try await Self.victim(served, in: mine, key: "fake-api-key")
            for (endpoint, body) in Self.calls(mine, email: "victim@example.com") {
                let answer = try await served.raw(.POST, endpoint.emulatorPath + "?key=anything", json: body)
                #expect(answer.status == 200, "\(endpoint.emulatorPath): \(answer.errorMessage ?? "")")
            }
            let outbox = try await served.raw(.GET, "/emulator/v1/projects/\(served.backend.projectId)/tenants/\(mine)/oobCodes", headers: [:])
            let link = URLComponents(string: Keys.codes(outbox)?.first?["oobLink"] as? String ?? "")
            #expect(link?.queryItems?.first { $0.name == "apiKey" }?.value == "fake-api-key", "the emulator's placeholder, as its links carry")
        }
    }
}
