import Foundation
import IdentityEmulator
import IdentityTestSupport
import IdentityToolkit
import NIOHTTP1
import Testing

/// A tenant's own API key on a shared serve: what a visitor's console in that tenant holds instead of
/// the admin token. It reads and empties its tenant's outbox, is answered in its tenant only, and
/// reaches nothing else: no other tenant, nothing of the project's own, no administrator path.
@Suite("Tenant API keys", .timeLimit(.minutes(2)))
struct TenantAPIKeyTests {
    static let adminToken = "tenant-key-admin-token-0123"
    static let admin = ["Content-Type": "application/json", "Authorization": "Bearer \(adminToken)"]
    static let json = ["Content-Type": "application/json"]

    static var shared: EmbeddedBackendConfiguration {
        var configuration = EmbeddedBackendConfiguration()
        configuration.adminToken = adminToken
        return configuration
    }

    /// A tenant of `project` made by the administrator, every method on; its id.
    static func makeTenant(_ served: TestBackend, project: String? = nil, headers: [String: String] = admin) async throws -> String {
        let path = "/identitytoolkit.googleapis.com/v2/projects/\(project ?? served.backend.projectId)/tenants"
        let created = try await served.raw(.POST, path, json: #"{"allowPasswordSignup":true,"enableAnonymousUser":true,"enableEmailLinkSignin":true}"#,
                                           headers: headers)
        return try #require(created.json?["tenantId"] as? String, "\(created.errorMessage ?? "")")
    }

    static func keyPath(_ served: TestBackend, _ tenant: String, project: String? = nil) -> String {
        "/emulator/v1/projects/\(project ?? served.backend.projectId)/tenants/\(tenant)/apiKey"
    }

    static func key(_ served: TestBackend, _ tenant: String, project: String? = nil, headers: [String: String] = admin) async throws -> String {
        let answer = try await served.raw(.GET, keyPath(served, tenant, project: project), headers: headers)
        return try #require(answer.json?["apiKey"] as? String, "\(answer.errorMessage ?? "")")
    }

    /// An account with a password reset waiting in its tenant's outbox, and a text to a phone.
    private static func fillOutbox(_ served: TestBackend, tenant: String, key: String, email: String) async throws {
        let signedUp = try await served.raw(.POST, SignUpRequest.endpoint.emulatorPath + "?key=\(key)",
                                            json: #"{"email":"\#(email)","password":"secret-1","tenantId":"\#(tenant)"}"#)
        #expect(signedUp.status == 200, "\(signedUp.errorMessage ?? "")")
        let reset = try await served.raw(.POST, SendOobCodeRequest.endpoint.emulatorPath + "?key=\(key)",
                                         json: #"{"requestType":"PASSWORD_RESET","email":"\#(email)","tenantId":"\#(tenant)"}"#)
        #expect(reset.status == 200, "\(reset.errorMessage ?? "")")
        let text = try await served.raw(.POST, SendVerificationCodeRequest.endpoint.emulatorPath + "?key=\(key)",
                                        json: #"{"phoneNumber":"+15555550142","tenantId":"\#(tenant)"}"#)
        #expect(text.status == 200, "\(text.errorMessage ?? "")")
    }

    static func codes(_ answer: RawAnswer) -> [[String: Any]]? {
        (answer.json?["oobCodes"] ?? answer.json?["verificationCodes"]) as? [[String: Any]]
    }

    @Test func aTenantsKeyReadsItsOwnOutboxAndNoOneElses() async throws {
        try await withTestBackend(.http, configuration: Self.shared) { served in
            let (mine, theirs) = (try await Self.makeTenant(served), try await Self.makeTenant(served))
            let key = try await Self.key(served, mine)
            #expect(key.hasPrefix("adk-\(served.backend.projectId).\(mine)-"))
            try await Self.fillOutbox(served, tenant: mine, key: key, email: "me@example.com")
            try await Self.fillOutbox(served, tenant: theirs, key: try await Self.key(served, theirs), email: "them@example.com")
            _ = try await served.raw(.POST, SendOobCodeRequest.endpoint.emulatorPath + "?key=any-key",
                                     json: #"{"requestType":"EMAIL_SIGNIN","email":"project@example.com"}"#)
            let outbox = "/emulator/v1/projects/\(served.backend.projectId)"

            for path in ["/tenants/\(mine)/oobCodes", "/tenants/\(mine)/verificationCodes"] {
                let own = try await served.raw(.GET, outbox + path + "?key=\(key)", headers: [:])
                #expect(own.status == 200 && Self.codes(own)?.count == 1, "\(path): \(own.errorMessage ?? "")")
            }
            let byHeader = try await served.raw(.GET, outbox + "/tenants/\(mine)/oobCodes", headers: ["X-Goog-Api-Key": key])
            #expect((Self.codes(byHeader)?.first?["email"] as? String) == "me@example.com")
            let config = try await served.raw(.GET, outbox + "/tenants/\(mine)/config?key=\(key)", headers: [:])
            #expect(config.status == 200, "\(config.errorMessage ?? "")")
            let lockouts = try await served.raw(.POST, outbox + "/tenants/\(mine)/lockouts:query?key=\(key)", json: #"{"all":true}"#)
            #expect(lockouts.status == 200, "\(lockouts.errorMessage ?? "")")

            // Another tenant's outbox, the project's, and the outbox without a key or with the
            // default project's key: refused, with nothing of their codes in the answer.
            let refusals: [(String, [String: String])] = [
                (outbox + "/tenants/\(theirs)/oobCodes?key=\(key)", [:]),
                (outbox + "/tenants/\(theirs)/verificationCodes?key=\(key)", [:]),
                (outbox + "/oobCodes?key=\(key)", [:]),
                (outbox + "/verificationCodes?key=\(key)", [:]),
                (outbox + "/tenants/\(mine)/oobCodes", [:]),
                (outbox + "/tenants/\(mine)/oobCodes?key=any-key", [:]),
                (outbox + "/tenants/\(mine)/oobCodes?key=\(try served.backend.apiKey())", [:]),
                (outbox + "/tenants/\(theirs)/oobCodes?key=\(try served.backend.apiKey())", [:]),
            ]
            for (path, headers) in refusals {
                let answer = try await served.raw(.GET, path, headers: headers)
                #expect((400..<500).contains(answer.status) && Self.codes(answer) == nil, "\(path): \(answer.status)")
                #expect(!String(decoding: answer.body, as: UTF8.self).contains("them@example.com"))
            }
            let elsewhere = try await served.raw(.GET, outbox + "/tenants/\(theirs)/oobCodes?key=\(key)", headers: [:])
            #expect(elsewhere.errorMessage == "TENANT_ID_MISMATCH : This API key belongs to tenant \(mine) of project \(served.backend.projectId), and reaches nothing else.")
            let theirCodes = try await served.raw(.GET, outbox + "/tenants/\(theirs)/oobCodes", headers: Self.admin)
            #expect(Self.codes(theirCodes)?.count == 1, "the administrator still reads every outbox")
        }
    }

    @Test func aTenantsKeyIsAnsweredInItsTenantOnly() async throws {
        try await withTestBackend(.http, configuration: Self.shared) { served in
            let (mine, theirs) = (try await Self.makeTenant(served), try await Self.makeTenant(served))
            let key = try await Self.key(served, mine)
            let signUp = SignUpRequest.endpoint.emulatorPath + "?key=\(key)"

            let named = try await served.raw(.POST, signUp, json: #"{"email":"a@example.com","password":"secret-1","returnSecureToken":true,"tenantId":"\#(mine)"}"#)
            let refreshToken = try #require(named.json?["refreshToken"] as? String, "\(named.errorMessage ?? "")")
            let other = try await served.raw(.POST, signUp, json: #"{"email":"b@example.com","password":"secret-1","tenantId":"\#(theirs)"}"#)
            #expect(other.status == 400)
            #expect(other.errorMessage?.hasPrefix("TENANT_ID_MISMATCH : This API key belongs to tenant \(mine)") == true)
            // A request that names no tenant is its key's tenant's, as a project's key names its project.
            let unnamed = try await served.raw(.POST, signUp, json: #"{"email":"c@example.com","password":"secret-1"}"#)
            #expect(unnamed.status == 200, "\(unnamed.errorMessage ?? "")")

            // The token endpoint names no tenant: the key's tenant's refresh tokens are exchanged, no one else's.
            let token = SecureTokenRequest.endpoint.emulatorPath
            let refreshed = try await served.raw(.POST, token + "?key=\(key)", json: #"{"grant_type":"refresh_token","refresh_token":"\#(refreshToken)"}"#)
            #expect(refreshed.status == 200, "\(refreshed.errorMessage ?? "")")
            let inProject = try await served.raw(.POST, SignUpRequest.endpoint.emulatorPath + "?key=any-key", json: #"{"returnSecureToken":true}"#)
            let projectToken = try #require(inProject.json?["refreshToken"] as? String)
            let crossed = try await served.raw(.POST, token + "?key=\(key)", json: #"{"grant_type":"refresh_token","refresh_token":"\#(projectToken)"}"#)
            #expect(crossed.errorMessage == "TENANT_ID_MISMATCH")

            let counted = try await served.raw(.POST, "/identitytoolkit.googleapis.com/v1/projects/\(served.backend.projectId)/tenants/\(mine)/accounts:query",
                                               json: #"{"returnUserInfo":false}"#, headers: Self.admin)
            #expect(counted.json?["recordsCount"] as? String == "2")
            let theirsCounted = try await served.raw(.POST, "/identitytoolkit.googleapis.com/v1/projects/\(served.backend.projectId)/tenants/\(theirs)/accounts:query",
                                                     json: #"{"returnUserInfo":false}"#, headers: Self.admin)
            #expect(theirsCounted.json?["recordsCount"] as? String == "0")
            #expect(try served.backend.accountCount() == 1, "the guest signed up with another key only")
        }
    }

    @Test func aTenantsKeyOpensNoAdministratorPath() async throws {
        try await withTestBackend(.http, configuration: Self.shared) { served in
            let mine = try await Self.makeTenant(served)
            let key = try await Self.key(served, mine)
            let project = served.backend.projectId
            let attempts: [(HTTPMethod, String, String?)] = [
                (.POST, "/identitytoolkit.googleapis.com/v1/projects/\(project)/tenants/\(mine)/accounts:query", #"{"returnUserInfo":false}"#),
                (.POST, "/identitytoolkit.googleapis.com/v1/projects/\(project)/tenants/\(mine)/accounts", #"{"email":"x@example.com"}"#),
                (.POST, "/identitytoolkit.googleapis.com/v1/projects/\(project)/accounts:query", #"{"returnUserInfo":false}"#),
                (.GET, "/identitytoolkit.googleapis.com/v2/projects/\(project)/tenants", nil),
                (.GET, "/identitytoolkit.googleapis.com/v2/projects/\(project)/tenants/\(mine)", nil),
                (.DELETE, "/identitytoolkit.googleapis.com/v2/projects/\(project)/tenants/\(mine)", nil),
                (.PATCH, "/identitytoolkit.googleapis.com/v2/projects/\(project)/config", #"{"signIn":{"allowDuplicateEmails":false}}"#),
                (.GET, "/emulator/v1/projects", nil),
                (.GET, Self.keyPath(served, mine), nil),
                (.DELETE, "/emulator/v1/projects/\(project)/accounts", nil),
            ]
            for (method, path, body) in attempts {
                let answer = try await served.raw(method, path + "?key=\(key)", body: body.map { Data($0.utf8) }, headers: Self.json)
                #expect((400..<500).contains(answer.status), "\(method) \(path): \(answer.status)")
            }
            #expect(try await served.raw(.GET, "/identitytoolkit.googleapis.com/v2/projects/\(project)/tenants/\(mine)", headers: Self.admin).status == 200)
        }
    }

    @Test func aForgedOrAlteredKeyIsAClearRefusal() async throws {
        try await withTestBackend(.http, configuration: Self.shared) { served in
            let (mine, theirs) = (try await Self.makeTenant(served), try await Self.makeTenant(served))
            let key = try await Self.key(served, mine)
            let project = served.backend.projectId
            let mac = String(key.suffix(22))
            let projectKey = try served.backend.apiKey()
            let forged = [
                String(key.dropLast(2)) + (key.hasSuffix("AA") ? "BB" : "AA"),
                "adk-\(project).\(theirs)-" + mac,
                "adk-\(project).\(mine)",
                "adk-\(project).-" + mac,
                "adk-.\(mine)-" + mac,
                "adk-\(project).\(mine).x-" + mac,
                String(projectKey.dropLast(23)) + ".\(mine)-" + projectKey.suffix(22),
                key + "A",
            ]
            for candidate in forged {
                for path in ["/emulator/v1/projects/\(project)/tenants/\(mine)/oobCodes?key=\(candidate)",
                             SignUpRequest.endpoint.emulatorPath + "?key=\(candidate)"] {
                    let answer = try await served.raw(path.hasPrefix("/emulator") ? .GET : .POST, path, body: Data(#"{"tenantId":"\#(mine)"}"#.utf8))
                    #expect(answer.status == 400, "\(candidate) at \(path): \(answer.status)")
                    #expect(answer.errorMessage == "API key not valid. Please pass a valid API key.", "\(candidate)")
                }
            }
        }
    }

    @Test func theKeyIsTheAdministratorsToHandOutAndOnlyForATenantThatExists() async throws {
        try await withTestBackend(.http, configuration: Self.shared) { served in
            let mine = try await Self.makeTenant(served)
            for headers in [[:], ["Authorization": "Bearer owner"], ["Authorization": "Bearer wrong"]] {
                let answer = try await served.raw(.GET, Self.keyPath(served, mine), headers: headers)
                #expect(answer.status == 401 && answer.json?["apiKey"] == nil, "\(headers)")
            }
            let missing = try await served.raw(.GET, Self.keyPath(served, "never-made"), headers: Self.admin)
            #expect(missing.status == 400 && missing.errorMessage == "TENANT_NOT_FOUND")
            #expect(!FileManager.default.fileExists(atPath: served.directory.appendingPathComponent("tenants/never-made").path))
            let badTenant = try await served.raw(.GET, Self.keyPath(served, "no_such"), headers: Self.admin)
            #expect(badTenant.errorMessage?.hasPrefix("INVALID_ARGUMENT : Invalid tenant id") == true)
            let otherProject = try await served.raw(.GET, Self.keyPath(served, mine, project: "room-never"), headers: Self.admin)
            #expect(otherProject.errorMessage == "TENANT_NOT_FOUND")
            let posted = try await served.raw(.POST, Self.keyPath(served, mine), json: "{}", headers: Self.admin)
            #expect(posted.status == 404)
            // The same key each time: it is derived, never stored.
            #expect(try await Self.key(served, mine) == Self.key(served, mine))
        }
    }

    @Test func onALoopbackServeTheKeyIsOpenToAskFor() async throws {
        try await withTestBackend(.http) { served in
            let mine = try await Self.makeTenant(served, headers: ["Content-Type": "application/json", "Authorization": "Bearer owner"])
            let key = try await Self.key(served, mine, headers: [:])
            let signedUp = try await served.raw(.POST, SignUpRequest.endpoint.emulatorPath + "?key=\(key)", json: #"{"tenantId":"\#(mine)"}"#)
            #expect(signedUp.status == 200, "\(signedUp.errorMessage ?? "")")
            let missing = try await served.raw(.GET, Self.keyPath(served, "never-made"), headers: [:])
            #expect(missing.errorMessage == "TENANT_NOT_FOUND")
        }
    }

    /// In a project other than the default, a tenant's email links carry the tenant's key, never the
    /// project's: whoever reads the tenant's outbox learns no key to more than the tenant.
    @Test func aTenantOfAnotherProjectIsReachedByItsKeyAlone() async throws {
        try await withTestBackend(.http, configuration: Self.shared) { served in
            let projects = try #require(served.projects)
            let projectKey = try projects.project("room-alpha").apiKey()
            let mine = try await Self.makeTenant(served, project: "room-alpha")
            let key = try await Self.key(served, mine, project: "room-alpha")
            #expect(key.hasPrefix("adk-room-alpha.\(mine)-"))
            let sent = try await served.raw(.POST, SendOobCodeRequest.endpoint.emulatorPath + "?key=\(key)",
                                            json: #"{"requestType":"EMAIL_SIGNIN","email":"link@example.com","tenantId":"\#(mine)"}"#)
            #expect(sent.status == 200, "\(sent.errorMessage ?? "")")
            let outbox = try await served.raw(.GET, "/emulator/v1/projects/room-alpha/tenants/\(mine)/oobCodes?key=\(key)", headers: [:])
            let link = try #require(URLComponents(string: Self.codes(outbox)?.first?["oobLink"] as? String ?? ""), "\(outbox.errorMessage ?? "")")
            #expect(link.queryItems?.first { $0.name == "apiKey" }?.value == key)
            #expect(!(link.string ?? "").contains(projectKey))
            // The project's key still reaches its tenants; the tenant's key not the project's own.
            let byProject = try await served.raw(.GET, "/emulator/v1/projects/room-alpha/tenants/\(mine)/oobCodes?key=\(projectKey)", headers: [:])
            #expect(Self.codes(byProject)?.count == 1)
            let projectOutbox = try await served.raw(.GET, "/emulator/v1/projects/room-alpha/oobCodes?key=\(key)", headers: [:])
            #expect(projectOutbox.errorMessage?.hasPrefix("TENANT_ID_MISMATCH") == true)
            let inTenant = try await served.raw(.POST, SignUpRequest.endpoint.emulatorPath + "?key=\(key)", json: #"{"tenantId":"\#(mine)"}"#)
            #expect(inTenant.status == 200, "\(inTenant.errorMessage ?? "")")
            let elsewhere = try await served.raw(.POST, "/identitytoolkit.googleapis.com/v1/projects/\(served.backend.projectId)/accounts:signUp?key=\(key)",
                                                 json: #"{"tenantId":"\#(mine)"}"#)
            #expect((400..<500).contains(elsewhere.status), "a path of another project")
        }
    }

    /// Emptying a tenant by its key (a presenter's reset of a visitor's sandbox) takes its accounts and
    /// its outbox; the project and other tenants keep theirs.
    @Test func emptyingATenantTakesItsAccountsAndOutbox() async throws {
        try await withTestBackend(.http, configuration: Self.shared) { served in
            let (mine, theirs) = (try await Self.makeTenant(served), try await Self.makeTenant(served))
            let key = try await Self.key(served, mine)
            try await Self.fillOutbox(served, tenant: mine, key: key, email: "me@example.com")
            try await Self.fillOutbox(served, tenant: theirs, key: try await Self.key(served, theirs), email: "them@example.com")
            let base = "/emulator/v1/projects/\(served.backend.projectId)/tenants/"
            let admin = "/identitytoolkit.googleapis.com/v1/projects/\(served.backend.projectId)/tenants/"

            let emptied = try await served.raw(.DELETE, base + "\(mine)/accounts?key=\(key)", headers: [:])
            #expect(emptied.status == 200, "\(emptied.errorMessage ?? "")")
            for (tenant, expected) in [(mine, 0), (theirs, 1)] {
                for path in ["/oobCodes", "/verificationCodes"] {
                    let codes = try await served.raw(.GET, base + tenant + path, headers: Self.admin)
                    #expect(Self.codes(codes)?.count == expected, "\(tenant)\(path)")
                }
                let counted = try await served.raw(.POST, admin + tenant + "/accounts:query", json: #"{"returnUserInfo":false}"#, headers: Self.admin)
                #expect(counted.json?["recordsCount"] as? String == "\(expected)", "\(tenant)")
            }
            let stranger = try await served.raw(.DELETE, base + "\(theirs)/accounts?key=\(key)", headers: [:])
            #expect(stranger.status == 400)
            let theirsLeft = try await served.raw(.POST, admin + theirs + "/accounts:query", json: #"{"returnUserInfo":false}"#, headers: Self.admin)
            #expect(theirsLeft.json?["recordsCount"] as? String == "1")
        }
    }

    /// A presenter's reset of a project empties its tenants too: none is left, on disk or listed.
    @Test func emptyingAProjectRemovesItsTenants() async throws {
        try await withTestBackend(.http, configuration: Self.shared) { served in
            let projects = try #require(served.projects)
            let mine = try await Self.makeTenant(served, project: "room-alpha")
            let key = try await Self.key(served, mine, project: "room-alpha")
            let signedUp = try await served.raw(.POST, SignUpRequest.endpoint.emulatorPath + "?key=\(key)", json: #"{"tenantId":"\#(mine)"}"#)
            #expect(signedUp.status == 200, "\(signedUp.errorMessage ?? "")")
            let tenants = projects.projectDirectory("room-alpha").appendingPathComponent("tenants")
            #expect(FileManager.default.fileExists(atPath: tenants.appendingPathComponent(mine).path))

            try projects.emptyProject("room-alpha")
            #expect(!FileManager.default.fileExists(atPath: tenants.path))
            let listed = try await served.raw(.GET, "/identitytoolkit.googleapis.com/v2/projects/room-alpha/tenants", headers: Self.admin)
            #expect((listed.json?["tenants"] as? [Any] ?? []).isEmpty, "\(listed.errorMessage ?? "")")
            let again = try await served.raw(.POST, SignUpRequest.endpoint.emulatorPath + "?key=\(key)", json: #"{"tenantId":"\#(mine)"}"#)
            #expect(again.errorMessage == "TENANT_NOT_FOUND")
            #expect(projects.exists("room-alpha"), "the project itself stays, emptied")
        }
    }
}
