import Foundation
import IdentityToolkit
import Testing
@testable import IdentityEmulator

@Suite("Administrator import and update answer as the emulator")
struct AdminParityTests {
    @Test func importedRawPasswordsAreHashedAndSignIn() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        let answer = try await harness.adminCall("/accounts:batchCreate", [
            "users": [["localId": "raw-1", "email": "raw@example.com", "rawPassword": "plain-secret"]],
        ], as: UploadAccountResponse.self)
        #expect(answer.error?.isEmpty ?? true)
        let stored = try #require(try harness.stored("raw-1"))
        #expect(stored.passwordHash != nil)
        #expect(stored.passwordHash != Data("plain-secret".utf8))
        #expect(try await harness.signIn("raw@example.com", "plain-secret").localId == "raw-1")
    }

    @Test func aSanityCheckRefusesDuplicatesInsideThePayload() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        let emails = try await harness.send("POST", harness.projectPath + "/accounts:batchCreate", [
            "sanityCheck": true,
            "users": [["localId": "a", "email": "same@example.com"], ["localId": "b", "email": "same@example.com"]],
        ])
        #expect(errorMessage(emails) == "DUPLICATE_EMAIL : same@example.com")
        let rawIds = try await harness.send("POST", harness.projectPath + "/accounts:batchCreate", [
            "sanityCheck": true,
            "users": [["localId": "a", "providerUserInfo": [["providerId": "google.com", "rawId": "g1"]]],
                      ["localId": "b", "providerUserInfo": [["providerId": "google.com", "rawId": "g1"]]]],
        ])
        #expect(errorMessage(rawIds) == "DUPLICATE_RAW_ID : Provider id(google.com), Raw id(g1)")
        #expect(try harness.stored("a") == nil)
    }

    @Test func adminLookupShowsTheWholeSecondFactorNumber() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        _ = try await harness.adminCall("/accounts", ["localId": "m1", "email": "m1@example.com", "emailVerified": true,
                                                      "mfaInfo": [["phoneInfo": "+15555550142"]]], as: SignUpResponse.self)
        let factor = try #require(try await harness.adminLookup(["localId": ["m1"]]).first?.mfaInfo?.first)
        #expect(factor.phoneInfo == "+15555550142")
        #expect(factor.unobfuscatedPhoneInfo == "+15555550142")
    }

    @Test func updatingSecondFactorsNeedsIdsAndListsANumberOnce() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        _ = try await harness.adminCall("/accounts", ["localId": "m2", "email": "m2@example.com", "emailVerified": true], as: SignUpResponse.self)
        let noId = try await harness.send("POST", harness.projectPath + "/accounts:update",
                                          ["localId": "m2", "mfa": ["enrollments": [["phoneInfo": "+15555550143"]]]])
        #expect(errorMessage(noId) == "INVALID_MFA_ENROLLMENT_ID : mfaEnrollmentId must be defined.")
        let twice = try await harness.send("POST", harness.projectPath + "/accounts:update", ["localId": "m2", "mfa": ["enrollments": [
            ["phoneInfo": "+15555550143", "mfaEnrollmentId": "e1"], ["phoneInfo": "+15555550143", "mfaEnrollmentId": "e1"],
        ]]])
        #expect(twice.status == 200)
        #expect(try await harness.adminLookup(["localId": ["m2"]]).first?.mfaInfo?.map(\.mfaEnrollmentId) == ["e1"])
    }

    @Test func linkProviderUserInfoAttachesAFederatedIdentity() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        _ = try await harness.adminCall("/accounts", ["localId": "p1"], as: SignUpResponse.self)
        _ = try await harness.adminCall("/accounts", ["localId": "p2"], as: SignUpResponse.self)
        let update = harness.projectPath + "/accounts:update"
        #expect(errorMessage(try await harness.send("POST", update, ["localId": "p1", "linkProviderUserInfo": ["rawId": "r"]])) == "MISSING_PROVIDER_ID")
        #expect(errorMessage(try await harness.send("POST", update, ["localId": "p1", "linkProviderUserInfo": ["providerId": "google.com"]])) == "MISSING_RAW_ID")
        #expect(try await harness.send("POST", update, ["localId": "p1", "linkProviderUserInfo": ["providerId": "google.com", "rawId": "g-1",
                                                                                          "email": "p1@gmail.com"]]).status == 200)
        let found = try await harness.adminLookup(["federatedUserId": [["providerId": "google.com", "rawId": "g-1"]]])
        #expect(found.map(\.localId) == ["p1"])
        #expect(errorMessage(try await harness.send("POST", update, ["localId": "p2", "linkProviderUserInfo": ["providerId": "google.com", "rawId": "g-1"]]))
            == "FEDERATED_USER_ID_ALREADY_LINKED")
        #expect(errorMessage(try await harness.send("POST", harness.projectPath + "/accounts:delete", [String: Any]())) == "MISSING_LOCAL_ID")
    }
}

@Suite("An app's linkProviderUserInfo")
struct ClientProviderLinkTests {
    static let identity = ["providerId": "google.com", "rawId": "google_user_id", "email": "linked@example.com", "displayName": "Linked User"]

    @Test func onALoopbackBackendAnAppMayLinkProviderInfoAsInTheEmulator() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        let signedUp = try await harness.signUp("test@example.com")
        let linked = try await harness.send("POST", AccountsUpdateRequest.endpoint.emulatorPath,
                                            ["idToken": signedUp.idToken ?? "", "linkProviderUserInfo": Self.identity],
                                            headers: ["x-goog-api-key": "k"])
        #expect(linked.status == 200)
        let info = try WireCoding.decode(AccountsUpdateResponse.self, from: linked)
        #expect(info.providerUserInfo?.map(\.providerId).sorted() == ["google.com", "password"])
        let missing = try await harness.send("POST", AccountsUpdateRequest.endpoint.emulatorPath,
                                             ["idToken": signedUp.idToken ?? "", "linkProviderUserInfo": ["providerId": "google.com"]],
                                             headers: ["x-goog-api-key": "k"])
        #expect(errorMessage(missing) == "MISSING_RAW_ID")
    }

    @Test func onASharedBackendOnlyAnAdministratorMay() async throws {
        let harness = try Harness(configuration: .init(adminToken: "0123456789abcdef-admin"))
        defer { harness.remove() }
        let signedUp = try await harness.signUp("test@example.com")
        let refused = try await harness.send("POST", AccountsUpdateRequest.endpoint.emulatorPath,
                                             ["idToken": signedUp.idToken ?? "", "linkProviderUserInfo": Self.identity],
                                             headers: ["x-goog-api-key": "k"])
        #expect(errorMessage(refused) == "INSUFFICIENT_PERMISSION")
        #expect(try await harness.lookup(signedUp.idToken)?.providerUserInfo?.map(\.providerId) == ["password"])
    }
}
