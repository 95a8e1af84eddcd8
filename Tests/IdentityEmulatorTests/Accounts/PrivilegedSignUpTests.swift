import Foundation
import IdentityToolkit
import Testing
@testable import IdentityEmulator

@Suite("Privileged signUp")
struct PrivilegedSignUpTests {
    static let signUpPath = SignUpRequest.endpoint.emulatorPath

    @Test func anAdministratorsSignUpCreatesTheAccountAsGivenWithoutTokens() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        let response = try await harness.send("POST", Self.signUpPath, [
            "localId": "chosen-id", "email": "Given@Example.com", "password": "secret-1", "displayName": "Given",
            "phoneNumber": "+15555550111", "emailVerified": true, "disabled": true,
            "mfaInfo": [["phoneInfo": "+15555550122", "displayName": "work"]],
        ])
        #expect(response.status == 200)
        let created = try WireCoding.decode(SignUpResponse.self, from: response)
        #expect(created.localId == "chosen-id")
        #expect(created.email == "given@example.com")
        #expect(created.displayName == "Given")
        #expect(created.idToken == nil)
        #expect(created.refreshToken == nil)
        let user = try #require(try await harness.adminLookup(["localId": ["chosen-id"]]).first)
        #expect(user.phoneNumber == "+15555550111")
        #expect(user.emailVerified == true)
        #expect(user.disabled == true)
        #expect(user.mfaInfo?.first?.phoneInfo == "+15555550122")

        for (body, message) in [
            (["localId": "chosen-id"], "DUPLICATE_LOCAL_ID"),
            (["phoneNumber": "555"], "INVALID_PHONE_NUMBER : Invalid format."),
            (["phoneNumber": "+15555550111"], "PHONE_NUMBER_EXISTS"),
            (["mfaInfo": [["phoneInfo": "nope"]]], "INVALID_MFA_PHONE_NUMBER : Invalid format."),
            (["email": "given@example.com"], "EMAIL_EXISTS"),
            (["localId": "x", "idToken": "t"], "UNEXPECTED_PARAMETER : User ID"),
        ] as [([String: Any], String)] {
            #expect(errorMessage(try await harness.send("POST", Self.signUpPath, body)) == message, "\(body)")
        }
    }

    @Test func anAppMayNotChooseTheUidNorATargetProject() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        let app = ["x-goog-api-key": "k"]
        #expect(errorMessage(try await harness.send("POST", Self.signUpPath, ["localId": "mine"], headers: app)) == "UNEXPECTED_PARAMETER : User ID")
        #expect(errorMessage(try await harness.send("POST", Self.signUpPath, ["targetProjectId": "authdeck-local"], headers: app))
            == "INSUFFICIENT_PERMISSION : Only authenticated requests can specify target_project_id.")
        // An administrator may name this project, and no other.
        #expect(try await harness.send("POST", Self.signUpPath, ["targetProjectId": "authdeck-local"]).status == 200)
        #expect(errorMessage(try await harness.send("POST", Self.signUpPath, ["targetProjectId": "elsewhere"]))?.contains("single project mode") == true)
        #expect(try harness.stored("mine") == nil)
        // Spelt with JSON escapes the key is the same key (bodies without it are not decoded twice).
        let escaped = await harness.raw(Self.signUpPath, body: #"{"t\u0061rgetProjectId":"authdeck-local"}"#, headers: app)
        #expect(errorMessage(escaped) == "INSUFFICIENT_PERMISSION : Only authenticated requests can specify target_project_id.")
    }
}
