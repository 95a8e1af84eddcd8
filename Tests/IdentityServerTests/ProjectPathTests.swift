import Foundation
import IdentityEmulator
import IdentityTestSupport
import IdentityToolkit
import Testing

/// A request whose path names a project (`/v1/projects/{id}/accounts:…`, `/v2/projects/{id}/config`)
/// names a target, as the Firebase Auth Emulator reads it: an administrator's credential reaches any
/// project, an app's API key (the emulator's `fake-api-key`, or a project's own) none, and every
/// project answers the emulator's words alike.
@Suite("Paths that name a project", .timeLimit(.minutes(2)))
struct ProjectPathTests {
    static let emulatorAnswer = "INSUFFICIENT_PERMISSION : Only authenticated requests can specify target_project_id."
    static let json = ["Content-Type": "application/json"]
    static let owner = ["Content-Type": "application/json", "Authorization": "Bearer owner"]

    private static func lookup(_ project: String) -> String {
        "/identitytoolkit.googleapis.com/v1/projects/\(project)/accounts:lookup"
    }

    @Test func onLoopbackEveryProjectAnswersAnAppsKeyAsTheEmulatorDoes() async throws {
        try await withTestBackend(.http) { served in
            let second = "room-second"
            for project in [served.backend.projectId, second] {
                let created = try await served.raw(.POST, "/identitytoolkit.googleapis.com/v1/projects/\(project)/accounts",
                                                   json: #"{"email":"same@example.com"}"#, headers: Self.owner)
                #expect(created.status == 200, "\(project): \(created.errorMessage ?? "")")
                let localId = try #require(created.json?["localId"] as? String)
                for key in ["fake-api-key", try served.projects?.apiKey(of: project) ?? "fake-api-key"] {
                    let byApp = try await served.raw(.POST, Self.lookup(project) + "?key=\(key)", json: #"{"localId":["\#(localId)"]}"#)
                    #expect(byApp.status == 400, "\(project)")
                    #expect(byApp.errorMessage == Self.emulatorAnswer, "\(project)")
                }
                let config = try await served.raw(.PATCH, "/identitytoolkit.googleapis.com/v2/projects/\(project)/config?key=fake-api-key",
                                                  json: #"{"signIn":{"allowDuplicateEmails":false}}"#)
                #expect(config.errorMessage == Self.emulatorAnswer, "\(project)")
                let byOwner = try await served.raw(.POST, Self.lookup(project), json: #"{"localId":["\#(localId)"]}"#, headers: Self.owner)
                #expect((byOwner.json?["users"] as? [[String: Any]])?.first?["email"] as? String == "same@example.com", "\(project)")
            }
        }
    }

    @Test func onASharedServeAProjectsOwnKeyStillNamesNoTarget() async throws {
        let token = "shared-admin-token-0123456789"
        try await withTestBackend(.http, configuration: EmbeddedBackendConfiguration(adminToken: token)) { served in
            let project = "room-visitor"
            let admin = ["Content-Type": "application/json", "Authorization": "Bearer \(token)"]
            let created = try await served.raw(.POST, "/identitytoolkit.googleapis.com/v1/projects/\(project)/accounts", json: "{}", headers: admin)
            let localId = try #require(created.json?["localId"] as? String)
            let ownKey = try #require(try served.projects?.apiKey(of: project))
            let byOwnKey = try await served.raw(.POST, Self.lookup(project) + "?key=\(ownKey)", json: #"{"localId":["\#(localId)"]}"#)
            #expect(byOwnKey.errorMessage == Self.emulatorAnswer)
            // The placeholder key is the default project's: it opens no other.
            let byPlaceholder = try await served.raw(.POST, Self.lookup(project) + "?key=fake-api-key", json: #"{"localId":["\#(localId)"]}"#)
            #expect(byPlaceholder.status == 403)
            #expect(byPlaceholder.errorMessage == "PERMISSION_DENIED : The caller does not have permission on project \(project).")
            #expect(try await served.raw(.POST, Self.lookup(project), json: #"{"localId":["\#(localId)"]}"#, headers: Self.owner).status == 403)
        }
    }
}
