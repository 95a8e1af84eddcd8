import Foundation
import IdentityToolkit
import Testing
@testable import IdentityEmulator

/// Small answers of the Firebase Auth Emulator: an administrator's delete, a verification email
/// without a token, and the legacy v3 account export and import.
@Suite struct SmallAnswersParityTests {
    static let legacy = "/www.googleapis.com/identitytoolkit/v3/relyingparty/"

    @Test func anAdministratorsDeleteNeedsTheLocalIdEvenWithAnIdToken() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        let alice = try await harness.signUp("alice@example.com", "notasecret")
        let path = AccountsDeleteRequest.endpoint.emulatorPath
        let refused = try await harness.send("POST", path, ["idToken": alice.idToken ?? ""])
        #expect(refused.status == 400)
        #expect(errorMessage(refused) == "MISSING_LOCAL_ID")
        #expect(try harness.stored(alice.localId) != nil)
        #expect(try await harness.send("POST", path, ["localId": alice.localId]).status == 200)
        #expect(try harness.stored(alice.localId) == nil)
    }

    @Test func aVerificationEmailWithoutATokenIsAnInvalidOne() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        let path = SendOobCodeRequest.endpoint.emulatorPath
        for body in [#"{"requestType":"VERIFY_EMAIL"}"#, #"{"requestType":"VERIFY_EMAIL","email":"a@example.com"}"#,
                     #"{"requestType":"VERIFY_EMAIL","idToken":""}"#] {
            #expect(errorMessage(await harness.raw(path, body: body)) == "INVALID_ID_TOKEN", "\(body)")
        }
        #expect(errorMessage(await harness.raw(path, body: #"{"requestType":"VERIFY_AND_CHANGE_EMAIL","newEmail":"b@example.com"}"#))
            == "MISSING_ID_TOKEN")
        #expect(try await harness.oobCodes().isEmpty)
    }

    @Test func theLegacyExportAndImportAnswerAsBatchGetAndBatchCreate() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        let project = harness.backend.projectId
        let uploaded = try await harness.send("POST", Self.legacy + "uploadAccount", [
            "target_project_id": project,
            "users": [["local_id": "legacy-1", "email": "one@example.com", "display_name": "One"], ["localId": "legacy-2"]],
        ])
        #expect(uploaded.status == 200, "\(errorMessage(uploaded) ?? "")")
        #expect(try harness.stored("legacy-1")?.displayName == "One")
        #expect(try harness.stored("legacy-2") != nil)

        let firstPage = try await harness.send("POST", Self.legacy + "downloadAccount", ["targetProjectId": project, "max_results": 1])
        let page = try WireCoding.decode(DownloadAccountResponse.self, from: firstPage)
        #expect(page.users?.map(\.localId) == ["legacy-1"])
        #expect(page.users?.first?.email == "one@example.com")
        let rest = try await harness.send("POST", Self.legacy + "downloadAccount",
                                          ["targetProjectId": project, "maxResults": 10, "nextPageToken": page.nextPageToken ?? ""])
        #expect(try WireCoding.decode(DownloadAccountResponse.self, from: rest).users?.map(\.localId) == ["legacy-2"])

        // Production's answer without the project; only an administrator may call them, and only on this project.
        for name in ["downloadAccount", "uploadAccount"] {
            #expect(errorMessage(try await harness.send("POST", Self.legacy + name, ["maxResults": 1])) == "INSUFFICIENT_PERMISSION")
            let byApp = try await harness.send("POST", Self.legacy + name, ["targetProjectId": project, "users": [[String: Any]]()],
                                               headers: ["x-goog-api-key": "test-key"])
            #expect(byApp.status != 200)
            let elsewhere = try await harness.send("POST", Self.legacy + name, ["targetProjectId": "elsewhere", "users": [[String: Any]]()])
            #expect(errorMessage(elsewhere)?.contains("single project mode") == true, "\(name)")
        }
    }
}
