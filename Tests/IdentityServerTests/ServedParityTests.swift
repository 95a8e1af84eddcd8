import Foundation
import IdentityEmulator
import IdentityTestSupport
import IdentityToolkit
import NIOHTTP1
import Testing

/// Over HTTP, what `authdeck serve` answers as the Firebase Auth Emulator does: its status check,
/// second factors given at sign-up, and the legacy account export.
@Suite("authdeck serve: status, sign-up factors and legacy export", .timeLimit(.minutes(5)))
struct ServedParityTests {
    static let owner = ["Authorization": "Bearer owner", "Content-Type": "application/json"]

    @Test func theStatusCheckAnswers200() async throws {
        try await withTestBackend(.http) { served in
            let status = try await served.raw(.GET, "/", headers: [:])
            #expect(status.status == 200)
            #expect((status.json?["authEmulator"] as? [String: Any])?["ready"] as? Bool == true)
        }
    }

    @Test func aSignUpWithSecondFactorsThenSignsInWithAPendingCredential() async throws {
        try await withTestBackend(.http) { served in
            let created = try await served.raw(.POST, SignUpRequest.endpoint.withKey, json: """
                {"email":"alice@example.com","password":"notasecret","mfaInfo":[{"displayName":"Cell Phone","phoneInfo":"+15555550100"}]}
                """)
            #expect(created.status == 200)
            #expect(created.json?["idToken"] is String)
            let signedIn = try await served.raw(.POST, SignInWithPasswordRequest.endpoint.withKey,
                                                json: #"{"email":"alice@example.com","password":"notasecret","returnSecureToken":true}"#)
            #expect(signedIn.status == 200)
            #expect(signedIn.json?["idToken"] == nil)
            #expect(signedIn.json?["mfaPendingCredential"] is String)
            let hints = signedIn.json?["mfaInfo"] as? [[String: Any]]
            #expect(hints?.map { $0["phoneInfo"] as? String } == ["+*******0100"])

            let update = "/identitytoolkit.googleapis.com/v1/projects/\(served.backend.projectId)/accounts:update"
            let notAList = try await served.raw(.POST, update, json: #"{"localId":"anything","mfa":{"enrollments":null}}"#, headers: Self.owner)
            #expect(notAList.status == 400)
            #expect(notAList.errorMessage == "Invalid JSON payload received. /mfa/enrollments must be array")
        }
    }

    @Test func aSharedServeRefusesSecondFactorsAtAnAppsSignUp() async throws {
        try await withTestBackend(.http, configuration: EmbeddedBackendConfiguration(adminToken: "admin-token-0123456789")) { served in
            let refused = try await served.raw(.POST, SignUpRequest.endpoint.withKey, json: """
                {"email":"alice@example.com","password":"notasecret","mfaInfo":[{"phoneInfo":"+15555550100"}]}
                """)
            #expect(refused.status == 400)
            #expect(refused.errorMessage?.hasPrefix("INSUFFICIENT_PERMISSION : ((only an administrator may set mfaInfo") == true)
        }
    }

    @Test func theLegacyExportIsTheProjectsBatchGet() async throws {
        try await withTestBackend(.http) { served in
            let project = served.backend.projectId
            let uploaded = try await served.raw(.POST, "/www.googleapis.com/identitytoolkit/v3/relyingparty/uploadAccount",
                                                json: #"{"targetProjectId":"\#(project)","users":[{"localId":"legacy-1","email":"one@example.com"}]}"#,
                                                headers: Self.owner)
            #expect(uploaded.status == 200)
            let downloaded = try await served.raw(.POST, "/www.googleapis.com/identitytoolkit/v3/relyingparty/downloadAccount",
                                                  json: #"{"target_project_id":"\#(project)","max_results":5}"#, headers: Self.owner)
            #expect(downloaded.status == 200)
            #expect((downloaded.json?["users"] as? [[String: Any]])?.map { $0["localId"] as? String } == ["legacy-1"])
            let unnamed = try await served.raw(.POST, "/www.googleapis.com/identitytoolkit/v3/relyingparty/downloadAccount",
                                               json: "{}", headers: Self.owner)
            #expect(unnamed.errorMessage == "INSUFFICIENT_PERMISSION")
        }
    }
}
