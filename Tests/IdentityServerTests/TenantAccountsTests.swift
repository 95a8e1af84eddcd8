import Foundation
import IdentityEmulator
import IdentityTestSupport
import IdentityToolkit
import Testing

/// A tenant's accounts: a database of their own, reached by a client's `tenantId` or an
/// administrator's tenant path, with tokens that belong to the tenant and the emulator's answers.
@Suite("Tenant accounts", .timeLimit(.minutes(2)))
struct TenantAccountsTests {
    static let owner = ["Content-Type": "application/json", "Authorization": "Bearer owner"]

    private static func tenantsPath(_ served: TestBackend) -> String {
        "/identitytoolkit.googleapis.com/v2/projects/\(served.backend.projectId)/tenants"
    }

    /// A tenant made by an administrator with `settings`; its id.
    private static func makeTenant(_ served: TestBackend, _ settings: String = #"{"allowPasswordSignup":true,"enableAnonymousUser":true}"#)
        async throws -> String {
        let created = try await served.raw(.POST, tenantsPath(served), json: settings, headers: owner)
        return try #require(created.json?["tenantId"] as? String, "\(created.errorMessage ?? "")")
    }

    private static func signUp(_ served: TestBackend, _ email: String, _ password: String, tenant: String?,
                               path: String = SignUpRequest.endpoint.withKey) async throws -> RawAnswer {
        let tenantField = tenant.map { #","tenantId":"\#($0)""# } ?? ""
        return try await served.raw(.POST, path,
                                    json: #"{"email":"\#(email)","password":"\#(password)","returnSecureToken":true\#(tenantField)}"#)
    }

    private static func claims(of token: String?) -> [String: Any]? {
        guard let parts = token?.split(separator: "."), parts.count == 3 else { return nil }
        var payload = String(parts[1]).replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while payload.count % 4 != 0 { payload += "=" }
        return Data(base64Encoded: payload).flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] }
    }

    @Test func theSameEmailLivesInTwoTenantsAndTheProjectApart() async throws {
        try await withTestBackend(.http) { served in
            let (first, second) = (try await Self.makeTenant(served), try await Self.makeTenant(served))
            let inFirst = try await Self.signUp(served, "same@example.com", "first-secret", tenant: first)
            let inSecond = try await Self.signUp(served, "same@example.com", "second-secret", tenant: second)
            let inProject = try await Self.signUp(served, "same@example.com", "project-secret", tenant: nil)
            #expect([inFirst.status, inSecond.status, inProject.status] == [Int](repeating: 200, count: 3), "\(inFirst.errorMessage ?? "")")
            let firebase = Self.claims(of: inFirst.json?["idToken"] as? String)?["firebase"] as? [String: Any]
            #expect(firebase?["tenant"] as? String == first)
            #expect((Self.claims(of: inProject.json?["idToken"] as? String)?["firebase"] as? [String: Any])?["tenant"] == nil)
            #expect(try served.backend.accountCount() == 1)
            let database = served.directory.appendingPathComponent("tenants/\(first)/identity.sqlite").path
            #expect(FileManager.default.fileExists(atPath: database))

            // Each password opens its own tenant's account only.
            let crossed = try await served.raw(.POST, SignInWithPasswordRequest.endpoint.withKey,
                                               json: #"{"email":"same@example.com","password":"second-secret","tenantId":"\#(first)"}"#)
            #expect(crossed.errorMessage == "INVALID_LOGIN_CREDENTIALS")
            let own = try await served.raw(.POST, SignInWithPasswordRequest.endpoint.withKey,
                                           json: #"{"email":"same@example.com","password":"second-secret","tenantId":"\#(second)"}"#)
            #expect(own.json?["localId"] as? String == inSecond.json?["localId"] as? String)
        }
    }

    @Test func tokensBelongToTheirTenant() async throws {
        try await withTestBackend(.http) { served in
            let (first, second) = (try await Self.makeTenant(served), try await Self.makeTenant(served))
            let signedUp = try await Self.signUp(served, "t@example.com", "secret-1", tenant: first)
            let idToken = try #require(signedUp.json?["idToken"] as? String)
            let refreshToken = try #require(signedUp.json?["refreshToken"] as? String)

            // Without a tenant in the body the token says whose it is; with another tenant it is refused.
            let looked = try await served.raw(.POST, AccountsLookupRequest.endpoint.withKey, json: #"{"idToken":"\#(idToken)"}"#)
            #expect((looked.json?["users"] as? [[String: Any]])?.first?["email"] as? String == "t@example.com")
            let elsewhere = try await served.raw(.POST, AccountsLookupRequest.endpoint.withKey,
                                                 json: #"{"idToken":"\#(idToken)","tenantId":"\#(second)"}"#)
            #expect(elsewhere.errorMessage == "TENANT_ID_MISMATCH")

            let refreshed = try await served.raw(.POST, SecureTokenRequest.endpoint.withKey,
                                                 json: #"{"grant_type":"refresh_token","refresh_token":"\#(refreshToken)"}"#)
            #expect(refreshed.status == 200, "\(refreshed.errorMessage ?? "")")
            let refreshedFirebase = Self.claims(of: refreshed.json?["id_token"] as? String)?["firebase"] as? [String: Any]
            #expect(refreshedFirebase?["tenant"] as? String == first)
            let refreshedElsewhere = try await served.raw(.POST, SecureTokenRequest.endpoint.withKey,
                                                          json: #"{"grant_type":"refresh_token","refresh_token":"\#(refreshToken)","tenantId":"\#(second)"}"#)
            #expect(refreshedElsewhere.errorMessage == "TENANT_ID_MISMATCH")

            // A custom token made for one tenant signs in there only.
            let custom = #"{\"uid\":\"u-1\",\"tenant_id\":\"\#(first)\"}"#
            let customElsewhere = try await served.raw(.POST, SignInWithCustomTokenRequest.endpoint.withKey,
                                                       json: #"{"token":"\#(custom)","tenantId":"\#(second)"}"#)
            #expect(customElsewhere.errorMessage == "TENANT_ID_MISMATCH")
            let customHere = try await served.raw(.POST, SignInWithCustomTokenRequest.endpoint.withKey,
                                                  json: #"{"token":"\#(custom)","tenantId":"\#(first)"}"#)
            #expect(customHere.status == 200, "\(customHere.errorMessage ?? "")")
            let project = "/identitytoolkit.googleapis.com/v1/projects/\(served.backend.projectId)"
            let cookie = try await served.raw(.POST, project + "/tenants/\(first):createSessionCookie", json: #"{"idToken":"\#(idToken)"}"#,
                                              headers: Self.owner)
            #expect((Self.claims(of: cookie.json?["sessionCookie"] as? String)?["firebase"] as? [String: Any])?["tenant"] as? String == first)
            let cookieElsewhere = try await served.raw(.POST, project + "/tenants/\(second):createSessionCookie",
                                                       json: #"{"idToken":"\#(idToken)"}"#, headers: Self.owner)
            #expect(cookieElsewhere.errorMessage == "TENANT_ID_MISMATCH")
            #expect(try served.backend.accountCount() == 0, "nothing reached the project's accounts")
        }
    }

    @Test func aTenantsSettingsDecideWhatItsAppsMayDo() async throws {
        try await withTestBackend(.http) { served in
            let closed = try await Self.makeTenant(served, "{}")
            let password = try await Self.signUp(served, "c@example.com", "secret-1", tenant: closed)
            #expect(password.errorMessage == "OPERATION_NOT_ALLOWED")
            let anonymous = try await served.raw(.POST, SignUpRequest.endpoint.withKey, json: #"{"tenantId":"\#(closed)"}"#)
            #expect(anonymous.errorMessage == "ADMIN_ONLY_OPERATION")
            let signIn = try await served.raw(.POST, SignInWithPasswordRequest.endpoint.withKey,
                                              json: #"{"email":"c@example.com","password":"secret-1","tenantId":"\#(closed)"}"#)
            #expect(signIn.errorMessage == "PASSWORD_LOGIN_DISABLED")
            let link = try await served.raw(.POST, SendOobCodeRequest.endpoint.withKey,
                                            json: #"{"requestType":"EMAIL_SIGNIN","email":"c@example.com","tenantId":"\#(closed)"}"#)
            #expect(link.errorMessage == "OPERATION_NOT_ALLOWED")
            // An administrator still creates accounts in it.
            let created = try await served.raw(.POST, "/identitytoolkit.googleapis.com/v1/projects/\(served.backend.projectId)/tenants/\(closed)/accounts",
                                               json: #"{"email":"c@example.com","password":"secret-1"}"#, headers: Self.owner)
            #expect(created.status == 200, "\(created.errorMessage ?? "")")

            let signedUp = try await served.raw(.POST, SignUpRequest.endpoint.withKey, json: #"{"email":"c@example.com","password":"secret-1","tenantId":"\#(closed)"}"#)
            #expect(signedUp.errorMessage == "OPERATION_NOT_ALLOWED", "the account exists, but the app still may not sign up")
            let signedIn = try await served.raw(.POST, "/identitytoolkit.googleapis.com/v1/projects/\(served.backend.projectId)/tenants/\(closed)/accounts:lookup",
                                                json: #"{"email":["c@example.com"]}"#, headers: Self.owner)
            let localId = try #require((signedIn.json?["users"] as? [[String: Any]])?.first?["localId"] as? String)
            let custom = try await served.raw(.POST, SignInWithCustomTokenRequest.endpoint.withKey,
                                              json: #"{"token":"{\"uid\":\"\#(localId)\"}","tenantId":"\#(closed)"}"#)
            let idToken = try #require(custom.json?["idToken"] as? String, "\(custom.errorMessage ?? "")")
            let sms = try await served.raw(.POST, StartMfaEnrollmentRequest.endpoint.withKey,
                                           json: #"{"idToken":"\#(idToken)","phoneEnrollmentInfo":{"phoneNumber":"+15555550100"},"tenantId":"\#(closed)"}"#)
            #expect(sms.errorMessage == "OPERATION_NOT_ALLOWED : SMS based MFA not enabled.")

            _ = try await served.raw(.PATCH, Self.tenantsPath(served) + "/\(closed)?updateMask=disableAuth", json: #"{"disableAuth":true}"#,
                                     headers: Self.owner)
            let disabled = try await served.raw(.POST, AccountsLookupRequest.endpoint.withKey, json: #"{"idToken":"x","tenantId":"\#(closed)"}"#)
            #expect(disabled.errorMessage == "PROJECT_DISABLED")
        }
    }

    @Test func aMalformedTenantIsRefusedAndReachesNoAccounts() async throws {
        try await withTestBackend(.http) { served in
            let badId = try await Self.signUp(served, "m@example.com", "secret-1", tenant: "no_such/tenant")
            #expect(badId.status == 400)
            #expect(badId.errorMessage?.hasPrefix("INVALID_ARGUMENT : Invalid tenant id") == true)
            let number = try await served.raw(.POST, SignUpRequest.endpoint.withKey, json: #"{"email":"m@example.com","password":"secret-1","tenantId":5}"#)
            #expect(number.errorMessage == "INVALID_ARGUMENT : Invalid value at 'tenantId'")
            let escaped = try await served.raw(.POST, SignUpRequest.endpoint.withKey, json: #"{"tenan\u0074Id":"room-1"}"#)
            #expect(escaped.status == 200, "an escaped key names the tenant all the same")
            #expect(try served.backend.accountCount() == 0)
        }
    }

    @Test func anAdministratorManagesATenantsAccountsAndOutboxByItsPath() async throws {
        try await withTestBackend(.http) { served in
            let tenant = try await Self.makeTenant(served)
            let base = "/identitytoolkit.googleapis.com/v1/projects/\(served.backend.projectId)/tenants/\(tenant)"
            let imported = try await served.raw(.POST, base + "/accounts:batchCreate",
                                                json: #"{"users":[{"localId":"u-1","email":"i@example.com"},{"localId":"u-2"}]}"#, headers: Self.owner)
            #expect(imported.status == 200, "\(imported.errorMessage ?? "")")
            let counted = try await served.raw(.POST, base + "/accounts:query", json: #"{"returnUserInfo":false}"#, headers: Self.owner)
            #expect(counted.json?["recordsCount"] as? String == "2")
            let listed = try await served.raw(.GET, base + "/accounts:batchGet?maxResults=10", headers: Self.owner)
            #expect((listed.json?["users"] as? [[String: Any]])?.compactMap { $0["tenantId"] as? String } == [tenant, tenant])
            #expect(try served.backend.accountCount() == 0)

            let sent = try await served.raw(.POST, SendOobCodeRequest.endpoint.withKey,
                                            json: #"{"requestType":"PASSWORD_RESET","email":"i@example.com","tenantId":"\#(tenant)"}"#)
            #expect(sent.status == 200, "\(sent.errorMessage ?? "")")
            let outbox = "/emulator/v1/projects/\(served.backend.projectId)"
            let tenantCodes = try await served.raw(.GET, outbox + "/tenants/\(tenant)/oobCodes", headers: [:])
            let codes = try #require(tenantCodes.json?["oobCodes"] as? [[String: Any]])
            #expect(codes.count == 1)
            let link = try #require(URLComponents(string: codes.first?["oobLink"] as? String ?? ""))
            #expect(link.queryItems?.contains(URLQueryItem(name: "tenantId", value: tenant)) == true)
            // The link opens in the tenant's accounts; without its tenant the code is nobody's.
            let opened = try await served.raw(.GET, link.path + "?" + (link.percentEncodedQuery ?? ""), headers: [:])
            #expect(opened.status == 200, "\(opened.errorMessage ?? "")")
            var untenanted = link
            untenanted.queryItems = link.queryItems?.filter { $0.name != "tenantId" }
            let nobodys = try await served.raw(.GET, untenanted.path + "?" + (untenanted.percentEncodedQuery ?? ""), headers: [:])
            #expect(nobodys.errorMessage == "INVALID_OOB_CODE")
            let projectCodes = try await served.raw(.GET, outbox + "/oobCodes", headers: [:])
            #expect((projectCodes.json?["oobCodes"] as? [Any])?.isEmpty == true)

            // Deleted, the tenant's accounts go with it: a tenant of the same id starts empty.
            #expect(try await served.raw(.DELETE, Self.tenantsPath(served) + "/\(tenant)", headers: Self.owner).status == 200)
            #expect(!FileManager.default.fileExists(atPath: served.directory.appendingPathComponent("tenants/\(tenant)").path))
            let again = try await served.raw(.POST, base + "/accounts:query", json: #"{"returnUserInfo":false}"#, headers: Self.owner)
            #expect(again.json?["recordsCount"] as? String == "0")
        }
    }

    /// Production signs in by phone in a tenant (the emulator refuses it); the code goes to the tenant's outbox.
    @Test func aPhoneSignsInWithinItsTenant() async throws {
        try await withTestBackend(.http) { served in
            let tenant = try await Self.makeTenant(served)
            let sent = try await served.raw(.POST, SendVerificationCodeRequest.endpoint.withKey,
                                            json: #"{"phoneNumber":"+15555550123","tenantId":"\#(tenant)"}"#)
            let sessionInfo = try #require(sent.json?["sessionInfo"] as? String, "\(sent.errorMessage ?? "")")
            let outbox = "/emulator/v1/projects/\(served.backend.projectId)"
            let codes = try await served.raw(.GET, outbox + "/tenants/\(tenant)/verificationCodes", headers: [:])
            let code = try #require((codes.json?["verificationCodes"] as? [[String: Any]])?.first?["code"] as? String)
            let projectCodes = try await served.raw(.GET, outbox + "/verificationCodes", headers: [:])
            #expect((projectCodes.json?["verificationCodes"] as? [Any])?.isEmpty == true)

            let inProject = try await served.raw(.POST, SignInWithPhoneNumberRequest.endpoint.withKey,
                                                 json: #"{"sessionInfo":"\#(sessionInfo)","code":"\#(code)"}"#)
            #expect(inProject.errorMessage == "INVALID_SESSION_INFO", "a tenant's code is nothing in the project")
            let signedIn = try await served.raw(.POST, SignInWithPhoneNumberRequest.endpoint.withKey,
                                                json: #"{"sessionInfo":"\#(sessionInfo)","code":"\#(code)","tenantId":"\#(tenant)"}"#)
            #expect(signedIn.status == 200, "\(signedIn.errorMessage ?? "")")
            let firebase = Self.claims(of: signedIn.json?["idToken"] as? String)?["firebase"] as? [String: Any]
            #expect(firebase?["tenant"] as? String == tenant)
            #expect(try served.backend.accountCount() == 0)
        }
    }

    /// On a shared serve an app cannot make tenants by naming them (each would be a database on disk);
    /// the administrator can, as the emulator makes them.
    @Test func onASharedServeOnlyTheAdministratorMakesATenantByNamingIt() async throws {
        try await withTestBackend(.http, configuration: EmbeddedBackendConfiguration(adminToken: "tenant-test-token")) { served in
            let byApp = try await Self.signUp(served, "s@example.com", "secret-1", tenant: "room-9")
            #expect(byApp.errorMessage?.hasPrefix("API key not valid. Please pass a valid API key. : ") == true, "\(byApp.errorMessage ?? "")")
            #expect(!FileManager.default.fileExists(atPath: served.directory.appendingPathComponent("tenants/room-9").path))
            let administrator = ["Content-Type": "application/json", "Authorization": "Bearer tenant-test-token"]
            let byAdministrator = try await served.raw(
                .POST, "/identitytoolkit.googleapis.com/v1/projects/\(served.backend.projectId)/tenants/room-9/accounts",
                json: #"{"email":"s@example.com","password":"secret-1"}"#, headers: administrator)
            #expect(byAdministrator.status == 200, "\(byAdministrator.errorMessage ?? "")")
            let key = try await served.raw(.GET, "/emulator/v1/projects/\(served.backend.projectId)/tenants/room-9/apiKey", headers: administrator)
            let withKey = SignUpRequest.endpoint.emulatorPath + "?key=" + (key.json?["apiKey"] as? String ?? "")
            #expect(try await Self.signUp(served, "s2@example.com", "secret-1", tenant: "room-9", path: withKey).status == 200)
            #expect(try served.backend.accountCount() == 0)
        }
    }

    /// Sign-ups racing their tenant's deletion: each is answered, in the tenant or as not found, never
    /// with a 5xx; every deletion completes. A sign-up after it makes the tenant again, as naming an
    /// unknown tenant does on loopback: what is left on disk is exactly the tenants listed.
    @Test func signUpsRacingTheirTenantsDeletionAreNeverAServerError() async throws {
        try await withTestBackend(.http) { served in
            var ids: [String] = []
            for _ in 0..<20 { ids.append(try await Self.makeTenant(served)) }
            let statuses = try await withThrowingTaskGroup(of: (deletion: Bool, status: Int).self) { group in
                for id in ids {
                    group.addTask { (true, try await served.raw(.DELETE, Self.tenantsPath(served) + "/" + id, headers: Self.owner).status) }
                    for _ in 0..<2 {
                        group.addTask {
                            (false, try await served.raw(.POST, SignUpRequest.endpoint.withKey, json: #"{"tenantId":"\#(id)"}"#).status)
                        }
                    }
                }
                return try await group.reduce(into: [(deletion: Bool, status: Int)]()) { $0.append($1) }
            }
            #expect(statuses.filter(\.deletion).map(\.status) == [Int](repeating: 200, count: ids.count), "\(statuses)")
            #expect(statuses.filter { !$0.deletion }.allSatisfy { $0.status == 200 || $0.status == 400 }, "\(statuses)")
            let listed = try await served.raw(.GET, Self.tenantsPath(served) + "?pageSize=100", headers: Self.owner)
            let tenants = (listed.json?["tenants"] as? [[String: Any]] ?? []).compactMap { $0["tenantId"] as? String }
            let left = (try? FileManager.default.contentsOfDirectory(atPath: served.directory.appendingPathComponent("tenants").path)) ?? []
            #expect(Set(left) == Set(tenants) && Set(tenants).isSubset(of: ids), "\(left) \(tenants)")
        }
    }

    /// On a shared serve, a deletion by someone without the admin token is refused and fails none of
    /// the tenant's requests under way: its database stays open for them.
    @Test func aStrangersDeletionOfATenantFailsNoneOfItsRequests() async throws {
        let token = "tenant-test-token"
        let administrator = ["Content-Type": "application/json", "Authorization": "Bearer \(token)"]
        try await withTestBackend(.http, configuration: EmbeddedBackendConfiguration(adminToken: token)) { served in
            let created = try await served.raw(.POST, Self.tenantsPath(served), json: #"{"enableAnonymousUser":true}"#, headers: administrator)
            let id = try #require(created.json?["tenantId"] as? String, "\(created.errorMessage ?? "")")
            let key = try await served.raw(.GET, "/emulator/v1/projects/\(served.backend.projectId)/tenants/\(id)/apiKey", headers: administrator)
            let signUp = SignUpRequest.endpoint.emulatorPath + "?key=" + (try #require(key.json?["apiKey"] as? String))
            // Guests, not passwords: no hashing queue between the requests and the deletions they race.
            let statuses = try await withThrowingTaskGroup(of: (deletion: Bool, status: Int).self) { group in
                for _ in 0..<40 {
                    group.addTask { (true, try await served.raw(.DELETE, Self.tenantsPath(served) + "/" + id, headers: Self.owner).status) }
                    group.addTask {
                        (false, try await served.raw(.POST, signUp, json: #"{"returnSecureToken":true,"tenantId":"\#(id)"}"#).status)
                    }
                }
                return try await group.reduce(into: [(deletion: Bool, status: Int)]()) { $0.append($1) }
            }
            #expect(statuses.filter(\.deletion).allSatisfy { (400..<500).contains($0.status) }, "\(statuses)")
            #expect(statuses.filter { !$0.deletion }.map(\.status) == [Int](repeating: 200, count: 40), "\(statuses)")
            let stillThere = try await served.raw(.GET, Self.tenantsPath(served) + "/" + id, headers: administrator)
            #expect(stillThere.status == 200)
        }
    }
}
