import Foundation
import IdentityEmulator
import IdentityTestSupport
import IdentityToolkit
import NIOHTTP1
import Testing

/// Several projects on one served backend, each a sandbox: its own accounts, numbers, addresses and
/// outbox, reached with its own API key.
@Suite("Projects on one served backend", .timeLimit(.minutes(3)))
struct ProjectIsolationTests {
    static let adminToken = "s3cret-admin-token-0123"
    static let json = ["Content-Type": "application/json"]
    static let admin = ["Content-Type": "application/json", "Authorization": "Bearer \(adminToken)"]

    static var shared: EmbeddedBackendConfiguration {
        var configuration = EmbeddedBackendConfiguration()
        configuration.adminToken = adminToken
        return configuration
    }

    private static func key(_ served: TestBackend, _ project: String) throws -> String {
        try #require(served.projects).project(project).apiKey()
    }

    private static func path(_ endpoint: Endpoint, key: String) -> String {
        endpoint.emulatorPath + "?key=" + key
    }

    @Test func theSameEmailAndPhoneNumberInTwoProjectsAreTwoAccounts() async throws {
        try await withTestBackend(.http) { served in
            var uids: [String] = []
            for project in ["room-alpha", "room-bravo"] {
                let key = try Self.key(served, project)
                let signUp = try await served.raw(.POST, Self.path(SignUpRequest.endpoint, key: key),
                                                  json: #"{"email":"same@example.com","password":"hunter22","returnSecureToken":true}"#)
                #expect(signUp.status == 200, "\(project): \(signUp.errorMessage ?? "")")
                let token = try #require(signUp.json?["idToken"] as? String)
                let claims = try #require(Self.claims(of: token))
                #expect(claims["aud"] as? String == project)
                #expect(claims["iss"] as? String == "https://securetoken.google.com/\(project)")
                uids.append(try #require(signUp.json?["localId"] as? String))

                let sent = try await served.raw(.POST, Self.path(SendVerificationCodeRequest.endpoint, key: key), json: #"{"phoneNumber":"+15555550101"}"#)
                let sessionInfo = try #require(sent.json?["sessionInfo"] as? String)
                let codes = try await served.raw(.GET, "/emulator/v1/projects/\(project)/verificationCodes", headers: [:])
                let entries = try #require(codes.json?["verificationCodes"] as? [[String: Any]])
                #expect(entries.count == 1, "\(project) sees only its own code")
                let code = try #require(entries.first?["code"] as? String)
                let phone = try await served.raw(.POST, Self.path(SignInWithPhoneNumberRequest.endpoint, key: key),
                                                 json: #"{"sessionInfo":"\#(sessionInfo)","code":"\#(code)"}"#)
                #expect(phone.status == 200, "\(project): \(phone.errorMessage ?? "")")
                #expect(phone.json?["isNewUser"] as? Bool == true)
                uids.append(try #require(phone.json?["localId"] as? String))
            }
            #expect(Set(uids).count == 4)
            // The data directory's own project never saw any of it.
            #expect(try served.backend.accountCount() == 0)
        }
    }

    @Test func aProjectsTokensAreRefusedByAnother() async throws {
        try await withTestBackend(.http) { served in
            let alpha = try Self.key(served, "room-alpha"), bravo = try Self.key(served, "room-bravo")
            let signUp = try await served.raw(.POST, Self.path(SignUpRequest.endpoint, key: alpha), json: #"{"returnSecureToken":true}"#)
            let idToken = try #require(signUp.json?["idToken"] as? String)
            let refreshToken = try #require(signUp.json?["refreshToken"] as? String)

            let here = try await served.raw(.POST, Self.path(AccountsLookupRequest.endpoint, key: alpha), json: #"{"idToken":"\#(idToken)"}"#)
            #expect(here.status == 200)
            let there = try await served.raw(.POST, Self.path(AccountsLookupRequest.endpoint, key: bravo), json: #"{"idToken":"\#(idToken)"}"#)
            #expect(there.errorMessage == "INVALID_ID_TOKEN")
            let unscoped = try await served.raw(.POST, AccountsLookupRequest.endpoint.withKey, json: #"{"idToken":"\#(idToken)"}"#)
            #expect(unscoped.errorMessage == "INVALID_ID_TOKEN")

            let form = ["Content-Type": "application/x-www-form-urlencoded"]
            let refreshed = try await served.raw(.POST, Self.path(SecureTokenRequest.endpoint, key: alpha),
                                                 json: "grant_type=refresh_token&refresh_token=\(refreshToken)", headers: form)
            #expect(refreshed.status == 200)
            let elsewhere = try await served.raw(.POST, Self.path(SecureTokenRequest.endpoint, key: bravo),
                                                 json: "grant_type=refresh_token&refresh_token=\(refreshToken)", headers: form)
            #expect(elsewhere.errorMessage == "INVALID_REFRESH_TOKEN")
        }
    }

    @Test func anOutboxListsOnlyItsOwnProjectsMessagesAndLinksComeBackToIt() async throws {
        try await withTestBackend(.http) { served in
            for project in ["room-alpha", "room-bravo"] {
                let key = try Self.key(served, project)
                let sent = try await served.raw(.POST, Self.path(SendOobCodeRequest.endpoint, key: key),
                                                json: #"{"requestType":"EMAIL_SIGNIN","email":"\#(project)@example.com","continueUrl":"https://example.com"}"#)
                #expect(sent.status == 200, "\(sent.errorMessage ?? "")")
            }
            for project in ["room-alpha", "room-bravo"] {
                let outbox = try await served.raw(.GET, "/emulator/v1/projects/\(project)/oobCodes", headers: [:])
                let codes = try #require(outbox.json?["oobCodes"] as? [[String: Any]])
                #expect(codes.map { $0["email"] as? String } == ["\(project)@example.com"])
                // The link carries the project's key, so opening it reaches the project that sent it.
                let link = try #require(codes.first?["oobLink"] as? String)
                #expect(link.contains("apiKey=\(try Self.key(served, project))"))
                let opened = try await served.raw(.GET, String(link.drop { $0 != "/" }.dropFirst(2).drop { $0 != "/" }), headers: [:])
                #expect(opened.status == 200, "\(opened.errorMessage ?? "")")
            }
            let own = try await served.raw(.GET, "/emulator/v1/projects/\(served.backend.projectId)/oobCodes", headers: [:])
            #expect((own.json?["oobCodes"] as? [[String: Any]])?.isEmpty == true)
        }
    }

    @Test func onASharedServerAProjectKeyReachesItsProjectOnly() async throws {
        try await withTestBackend(.http, configuration: Self.shared) { served in
            let alpha = try Self.key(served, "room-alpha"), bravo = try Self.key(served, "room-bravo")
            let signUp = try await served.raw(.POST, Self.path(SignUpRequest.endpoint, key: bravo),
                                              json: #"{"email":"b@example.com","password":"hunter22"}"#)
            let bravoUid = try #require(signUp.json?["localId"] as? String)

            // Its own outbox, without the admin token.
            let own = try await served.raw(.GET, "/emulator/v1/projects/room-alpha/oobCodes?key=\(alpha)", headers: [:])
            #expect(own.status == 200)
            // Everything of another project, the default one included, is refused: each emulator and administrator path.
            let paths: [(HTTPMethod, String)] = [
                (.GET, "/emulator/v1/projects/room-bravo/oobCodes"), (.GET, "/emulator/v1/projects/room-bravo/verificationCodes"),
                (.GET, "/emulator/v1/projects/room-bravo/config"), (.DELETE, "/emulator/v1/projects/room-bravo/accounts"),
                (.POST, "/identitytoolkit.googleapis.com/v1/projects/room-bravo/accounts:lookup"),
                (.POST, "/identitytoolkit.googleapis.com/v1/projects/room-bravo/accounts:update"),
                (.POST, "/identitytoolkit.googleapis.com/v1/projects/room-bravo/accounts:delete"),
                (.POST, "/identitytoolkit.googleapis.com/v1/projects/room-bravo/accounts:query"),
                (.GET, "/identitytoolkit.googleapis.com/v1/projects/room-bravo/accounts:batchGet"),
                (.POST, "/identitytoolkit.googleapis.com/v1/projects/room-bravo/accounts"),
                (.GET, "/identitytoolkit.googleapis.com/v2/projects/room-bravo/config"),
                (.GET, "/emulator/v1/projects/\(served.backend.projectId)/oobCodes"),
                (.POST, "/identitytoolkit.googleapis.com/v1/projects/\(served.backend.projectId)/accounts:lookup"),
            ]
            for (method, path) in paths {
                for headers in [Self.json, ["Content-Type": "application/json", "X-Goog-Api-Key": alpha]] {
                    let answer = try await served.raw(method, path + "?key=\(alpha)", json: #"{"localId":["\#(bravoUid)"]}"#, headers: headers)
                    #expect(answer.status == 403, "\(method) \(path)")
                    #expect(answer.errorMessage?.hasPrefix("PERMISSION_DENIED") == true, "\(method) \(path)")
                }
            }
            // A client call with a project's key goes to that project whatever else it names.
            let target = try await served.raw(.POST, Self.path(AccountsLookupRequest.endpoint, key: alpha),
                                              json: #"{"localId":["\#(bravoUid)"],"targetProjectId":"room-bravo"}"#)
            #expect(target.status == 400)
            // Without a project's key, a caller of a shared server reaches the default project only.
            for key in ["any-key", "AIzaSyUnscoped"] {
                let other = try await served.raw(.GET, "/emulator/v1/projects/room-bravo/oobCodes?key=\(key)", headers: [:])
                #expect(other.status == 403)
                let signUp = try await served.raw(.POST, SignUpRequest.endpoint.emulatorPath + "?key=\(key)", json: "{}")
                let token = try #require(signUp.json?["idToken"] as? String)
                #expect(Self.claims(of: token)?["aud"] as? String == served.backend.projectId)
            }
            // The administrator reaches every project.
            let lookup = try await served.raw(.POST, "/identitytoolkit.googleapis.com/v1/projects/room-bravo/accounts:lookup",
                                              json: #"{"localId":["\#(bravoUid)"]}"#, headers: Self.admin)
            #expect((lookup.json?["users"] as? [[String: Any]])?.first?["email"] as? String == "b@example.com")
        }
    }

    /// The list of lock-outs is an administrator's, per project: each project's own key or the admin
    /// token sees that project's only, another project's key and no credential are refused as the
    /// other emulator paths refuse them.
    @Test func eachProjectListsAndClearsItsOwnLockoutsOnly() async throws {
        try await withTestBackend(.http, configuration: Self.shared) { served in
            let alpha = try Self.key(served, "room-alpha"), bravo = try Self.key(served, "room-bravo")
            for (key, email) in [(alpha, "alpha-guess@example.com"), (bravo, "bravo-guess@example.com")] {
                for _ in 0..<5 {
                    let wrong = try await served.raw(.POST, Self.path(SignInWithPasswordRequest.endpoint, key: key),
                                                     json: #"{"email":"\#(email)","password":"wrong-password"}"#)
                    #expect(wrong.status == 400)
                }
            }
            let all = #"{"all":true}"#
            for (project, key, email) in [("room-alpha", alpha, "alpha-guess@example.com"), ("room-bravo", bravo, "bravo-guess@example.com")] {
                for headers in [Self.admin, ["Content-Type": "application/json", "X-Goog-Api-Key": key]] {
                    let list = try await served.raw(.POST, "/emulator/v1/projects/\(project)/lockouts:query", json: all, headers: headers)
                    #expect(list.status == 200)
                    let emails = (list.json?["lockouts"] as? [[String: Any]])?.compactMap { $0["email"] as? String }
                    #expect(emails == [email], "\(project)")
                }
            }
            let config = try await served.raw(.GET, "/emulator/v1/projects/room-bravo/config?key=\(alpha)", headers: [:])
            for path in ["lockouts:query", "lockouts:clear"] {
                let other = try await served.raw(.POST, "/emulator/v1/projects/room-bravo/\(path)?key=\(alpha)", json: all)
                #expect(other.status == config.status && other.errorMessage == config.errorMessage, "\(path)")
                let anonymous = try await served.raw(.POST, "/emulator/v1/projects/room-bravo/\(path)", json: all, headers: Self.json)
                #expect(anonymous.status == 403, "\(path)")
            }
            let cleared = try await served.raw(.POST, "/emulator/v1/projects/room-alpha/lockouts:clear", json: all, headers: Self.admin)
            #expect((cleared.json?["lockouts"] as? [[String: Any]])?.count == 1)
            let bravoList = try await served.raw(.POST, "/emulator/v1/projects/room-bravo/lockouts:query", json: all, headers: Self.admin)
            #expect((bravoList.json?["lockouts"] as? [[String: Any]])?.count == 1)
            // The projects listing counts them, so that a console need not ask every project.
            let listing = try await served.raw(.GET, "/emulator/v1/projects", headers: Self.admin)
            let counts = Dictionary(uniqueKeysWithValues: ((listing.json?["projects"] as? [[String: Any]]) ?? []).compactMap { project in
                (project["projectId"] as? String).map { ($0, project["lockouts"] as? Int) }
            })
            #expect(counts == [served.backend.projectId: 0, "room-alpha": 0, "room-bravo": 1])
        }
    }

    @Test func badProjectIdsAndKeysAreClearErrors() async throws {
        try await withTestBackend(.http) { served in
            let alpha = try Self.key(served, "room-alpha")
            for id in ["ab", "Upper-case", "has_underscore", "-leading", "trailing-", String(repeating: "a", count: 31), "..", "a%2F..%2Fb"] {
                let answer = try await served.raw(.POST, "/emulator/v1/projects/\(id)/accounts", json: "{}")
                #expect(answer.status == 400 || answer.status == 404, "\(id)")
            }
            let invalid = try await served.raw(.GET, "/emulator/v1/projects/Not_Valid/oobCodes", headers: [:])
            #expect(invalid.errorMessage?.hasPrefix("INVALID_ARGUMENT : Invalid project id 'Not_Valid'") == true)
            for forged in [alpha.dropLast(2) + "AA", "adk-room-alpha", "adk-", "adk-room-bravo-" + alpha.suffix(22)] {
                let answer = try await served.raw(.POST, SignUpRequest.endpoint.emulatorPath + "?key=\(forged)", json: "{}")
                #expect(answer.status == 400, "\(forged)")
                #expect(answer.errorMessage == "API key not valid. Please pass a valid API key.")
            }
            let unknown = try await served.raw(.GET, "/emulator/v1/projects/never-made/oobCodes", headers: [:])
            #expect(unknown.status == 404)
            #expect(unknown.errorMessage == "PROJECT_NOT_FOUND : No project never-made on this server, which is configured for \(served.backend.projectId) by default.")
            #expect(try #require(served.projects).projectIds() == ["room-alpha"])
        }
    }

    @Test func removingAProjectLeavesNothingOfIt() async throws {
        try await withTestBackend(.http) { served in
            let projects = try #require(served.projects)
            let key = try Self.key(served, "room-alpha")
            _ = try await served.raw(.POST, Self.path(SignUpRequest.endpoint, key: key), json: #"{"email":"a@example.com","password":"hunter22"}"#)
            _ = try await served.raw(.POST, Self.path(SendVerificationCodeRequest.endpoint, key: key), json: #"{"phoneNumber":"+15555550101"}"#)
            #expect(try projects.project("room-alpha").accountCount() == 1)
            let directory = projects.projectDirectory("room-alpha")
            #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("identity.sqlite").path))

            try projects.removeProject("room-alpha")
            #expect(!FileManager.default.fileExists(atPath: directory.path))
            #expect(projects.projectIds() == [])
            #expect(!projects.exists("room-alpha"))
            // Used again, it starts empty.
            #expect(try projects.project("room-alpha").accountCount() == 0)
            let outbox = try await served.raw(.GET, "/emulator/v1/projects/room-alpha/verificationCodes", headers: [:])
            #expect((outbox.json?["verificationCodes"] as? [[String: Any]])?.isEmpty == true)
            #expect(throws: (any Error).self) { try projects.removeProject(served.backend.projectId) }
        }
    }

    @Test func projectsAreBoundedWithAClearError() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("authdeck-test-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let backend = try EmbeddedBackend(dataDirectory: root)
        let projects = BackendProjects(defaultProject: backend, dataDirectory: root, maximumProjects: 2)
        for id in ["room-alpha", "room-bravo"] { _ = try projects.project(id) }
        let third = await projects.handle(WireRequest(method: "POST", path: "/emulator/v1/projects/room-charlie/accounts",
                                                      headers: ["Authorization": "Bearer owner"], body: Data("{}".utf8)))
        #expect(third.status == 429)
        #expect(String(decoding: third.body, as: UTF8.self).contains("limit of 2 projects"))
        #expect(projects.projectIds() == ["room-alpha", "room-bravo"])
        try projects.close()
    }

    @Test func aPreparedProjectHasItsKeyAtOnceAndItsDatabaseAtItsFirstRequest() async throws {
        try await withTestBackend(.http, configuration: Self.shared) { served in
            let projects = try #require(served.projects)
            try projects.prepare("room-alpha")
            let database = projects.projectDirectory("room-alpha").appendingPathComponent("identity.sqlite").path
            #expect(projects.projectIds() == ["room-alpha"])
            #expect(!FileManager.default.fileExists(atPath: database))
            // Counting and listing do not make it either.
            #expect(try projects.accountCount(of: "room-alpha") == 0)
            let listing = try await served.raw(.GET, "/emulator/v1/projects", headers: Self.admin)
            let listed = try #require((listing.json?["projects"] as? [[String: Any]])?.first { $0["projectId"] as? String == "room-alpha" })
            #expect(listed["accounts"] as? Int == 0 && listed["lockouts"] as? Int == 0)
            #expect(!FileManager.default.fileExists(atPath: database))

            let key = try projects.apiKey(of: "room-alpha")
            let signUp = try await served.raw(.POST, Self.path(SignUpRequest.endpoint, key: key), json: #"{"returnSecureToken":true}"#)
            #expect(signUp.status == 200, "\(signUp.errorMessage ?? "")")
            #expect(FileManager.default.fileExists(atPath: database))
            #expect(try projects.accountCount(of: "room-alpha") == 1)
            #expect(try projects.project("room-alpha").apiKey() == key)
        }
    }

    @Test func projectsMadeAtOnceFromManyThreadsAreEachMadeOnce() async throws {
        try await withTestBackend(.http) { served in
            let projects = try #require(served.projects)
            let ids = (0..<8).map { "room-\($0)" }
            let made = try await withThrowingTaskGroup(of: (String, ObjectIdentifier).self) { group in
                for id in ids + ids {
                    group.addTask { (id, ObjectIdentifier(try projects.project(id))) }
                }
                return try await group.reduce(into: [String: Set<ObjectIdentifier>]()) { $0[$1.0, default: []].insert($1.1) }
            }
            #expect(made.count == 8)
            #expect(made.values.allSatisfy { $0.count == 1 }, "each project is opened once, whoever asks first")
            #expect(projects.projectIds() == ids.sorted())
        }
    }

    private static func claims(of token: String) -> [String: Any]? {
        let parts = token.split(separator: ".")
        guard parts.count == 3 else { return nil }
        var payload = String(parts[1]).replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while payload.count % 4 != 0 { payload += "=" }
        return Data(base64Encoded: payload).flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] }
    }
}
