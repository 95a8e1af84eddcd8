import Foundation
import IdentityToolkit
import Testing
@testable import IdentityEmulator

@Suite struct AdminAccountTests {
    @Test func anAdministratorCreatesAUserAndFindsItByEveryIdentifier() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        let created = try await harness.adminCall("/accounts", [
            "localId": "admin-made-1", "email": "Ann@Example.com", "password": "secret-1", "displayName": "Ann",
            "photoUrl": "https://example.com/ann.png", "phoneNumber": "+15555550100", "emailVerified": true,
        ], as: SignUpResponse.self)
        #expect(created.localId == "admin-made-1")
        #expect(created.email == "ann@example.com")
        #expect(created.idToken == nil)

        for query: [String: Any] in [["localId": ["admin-made-1"]], ["email": ["ann@example.com"]], ["phoneNumber": ["+15555550100"]]] {
            let users = try await harness.adminLookup(query)
            #expect(users.map(\.localId) == ["admin-made-1"])
        }
        let user = try #require(try await harness.adminLookup(["localId": ["admin-made-1"]]).first)
        #expect(user.displayName == "Ann")
        #expect(user.photoUrl == "https://example.com/ann.png")
        #expect(user.emailVerified == true)
        #expect(user.disabled == nil)
        #expect(user.providerUserInfo?.map(\.providerId) == ["password", "phone"])
        #expect(user.lastLoginAt == nil)
        #expect(user.createdAt == String(Int64(harness.clock.now.timeIntervalSince1970 * 1000)))

        let signedIn = try await harness.signIn("ann@example.com")
        #expect(signedIn.localId == "admin-made-1")
        #expect(claims(of: signedIn.idToken)["phone_number"] as? String == "+15555550100")
        #expect(try await harness.adminLookup(["localId": ["nobody"]]).isEmpty)
    }

    @Test func creationRefusesTakenIdentifiersAndBadValues() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        _ = try await harness.adminCall("/accounts", ["localId": "taken", "email": "bea@example.com", "phoneNumber": "+15555550101"],
                                        as: SignUpResponse.self)
        let refusals: [([String: Any], String)] = [
            (["localId": "taken"], "DUPLICATE_LOCAL_ID"),
            (["email": "BEA@example.com"], "EMAIL_EXISTS"),
            (["phoneNumber": "+15555550101"], "PHONE_NUMBER_EXISTS"),
            (["phoneNumber": "555-0101"], "INVALID_PHONE_NUMBER : Invalid format."),
            (["email": "not-an-email"], "INVALID_EMAIL"),
            (["email": "short@example.com", "password": "12345"], "WEAK_PASSWORD : Password should be at least 6 characters"),
        ]
        for (body, message) in refusals {
            #expect(errorMessage(try await harness.send("POST", harness.projectPath + "/accounts", body)) == message)
        }
        let withFactor = try await harness.send("POST", harness.projectPath + "/accounts",
                                                ["email": "cy@example.com", "mfaInfo": [["phoneInfo": "555-0102"]]])
        #expect(errorMessage(withFactor) == "INVALID_MFA_PHONE_NUMBER : Invalid format.")
        #expect(try await harness.adminLookup(["email": ["cy@example.com", "short@example.com"]]).isEmpty)
        let generated = try await harness.adminCall("/accounts", [String: Any](), as: SignUpResponse.self)
        #expect(generated.localId.count == 28)
    }

    @Test func projectEndpointsNeedAnAdministratorAndThisProject() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        let lookup = harness.projectPath + "/accounts:lookup"
        let apiKeyOnly = try await harness.send("POST", lookup, ["localId": ["x"]], headers: ["x-goog-api-key": "key"])
        #expect(errorMessage(apiKeyOnly) == "INSUFFICIENT_PERMISSION : Only authenticated requests can specify target_project_id.")
        #expect(try await harness.send("POST", lookup, ["localId": ["x"]], headers: ["Authorization": "Bearer someone"]).status == 401)
        #expect(try await harness.send("POST", lookup, ["localId": ["x"]], headers: [:]).status == 403)

        let otherProject = try await harness.send("POST", "/identitytoolkit.googleapis.com/v1/projects/other-project/accounts:lookup", ["localId": ["x"]])
        #expect(otherProject.status == 400)
        #expect(errorMessage(otherProject)?.contains("single project mode") == true)
        let tenant = try await harness.send("POST", harness.projectPath + "/tenants/t1/accounts:lookup", ["localId": ["x"]])
        #expect(errorMessage(tenant)?.hasPrefix("TENANT_NOT_FOUND") == true)
        #expect(try await harness.send("POST", harness.projectPath + "/accounts:noSuchMethod", [:]).status == 404)
        #expect(try await harness.send("POST", harness.projectPath + "/somethingElse", [:]).status == 404)
    }

    @Test func projectEndpointsAnswerOnlyTheirOwnMethod() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        _ = try await harness.signUp("kim@example.com")
        // A DELETE on the create endpoint (the emulator's wipe lives under /emulator/v1) creates nobody.
        let delete = try await harness.send("DELETE", harness.projectPath + "/accounts")
        #expect(delete.status == 404)
        #expect(errorMessage(delete)?.hasPrefix("NOT_FOUND") == true)
        #expect(try await harness.send("GET", harness.projectPath + "/accounts:lookup").status == 404)
        #expect(try await harness.send("PATCH", harness.projectPath + "/accounts:update", ["localId": "x"]).status == 404)
        #expect(try await harness.send("POST", harness.projectPath + "/accounts:batchGet").status == 404)
        let everyone = try await harness.adminCall("/accounts:batchGet?maxResults=-1", method: "GET", as: DownloadAccountResponse.self)
        #expect(everyone.users?.map(\.email) == ["kim@example.com"])
    }

    @Test func lookupFindsFederatedUsersAndCapsIdentifiersAtAHundred() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        let imported = try await harness.adminCall("/accounts:batchCreate", ["users": [
            ["localId": "fed-1", "email": "dee@example.com",
             "providerUserInfo": [["providerId": "google.com", "rawId": "g-123", "email": "dee@example.com"]]],
        ]], as: UploadAccountResponse.self)
        #expect(imported.error == [])
        let found = try await harness.adminLookup(["federatedUserId": [["providerId": "google.com", "rawId": "g-123"], ["providerId": "google.com"]]])
        #expect(found.map(\.localId) == ["fed-1"])
        #expect(found.first?.providerUserInfo?.first?.rawId == "g-123")
        #expect(try await harness.adminLookup(["federatedUserId": [["providerId": "apple.com", "rawId": "g-123"]]]).isEmpty)

        let tooMany = try await harness.send("POST", harness.projectPath + "/accounts:lookup",
                                             ["localId": (0..<60).map { "u\($0)" }, "email": (0..<41).map { "u\($0)@example.com" }])
        #expect(errorMessage(tooMany)?.hasPrefix("INVALID_ARGUMENT") == true)
        #expect(try await harness.adminLookup(["localId": (0..<100).map { "u\($0)" }]).isEmpty)
    }

    @Test func anAdministratorUpdatesProfileStateAndCredentials() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        let signedUp = try await harness.signUp("eve@example.com")
        let localId = signedUp.localId
        _ = try await harness.adminCall("/accounts", ["localId": "phone-owner", "phoneNumber": "+15555550199"], as: SignUpResponse.self)

        let updated = try await harness.adminCall("/accounts:update", [
            "localId": localId, "displayName": "Eve", "photoUrl": "https://example.com/eve.png", "emailVerified": true,
            "phoneNumber": "+15555550103",
        ], as: AccountsUpdateResponse.self)
        #expect(updated.displayName == "Eve")
        #expect(updated.emailVerified == true)
        #expect(updated.idToken == nil)
        var user = try #require(try await harness.adminLookup(["localId": [localId]]).first)
        #expect(user.phoneNumber == "+15555550103")
        #expect(user.providerUserInfo?.map(\.providerId) == ["password", "phone"])
        // Profile changes leave sessions alone.
        #expect(try await harness.lookup(signedUp.idToken)?.displayName == "Eve")

        #expect(errorMessage(try await harness.send("POST", harness.projectPath + "/accounts:update",
                                                    ["localId": localId, "phoneNumber": "+15555550199"])) == "PHONE_NUMBER_EXISTS")
        #expect(errorMessage(try await harness.send("POST", harness.projectPath + "/accounts:update",
                                                    ["localId": localId, "phoneNumber": "0103"])) == "INVALID_PHONE_NUMBER : Invalid format.")
        #expect(errorMessage(try await harness.send("POST", harness.projectPath + "/accounts:update",
                                                    ["localId": "nobody", "displayName": "X"])) == "USER_NOT_FOUND")

        _ = try await harness.adminCall("/accounts:update", ["localId": localId, "deleteAttribute": ["DISPLAY_NAME", "PHOTO_URL"],
                                                             "deleteProvider": ["phone"]], as: AccountsUpdateResponse.self)
        user = try #require(try await harness.adminLookup(["localId": [localId]]).first)
        #expect(user.displayName == nil)
        #expect(user.photoUrl == nil)
        #expect(user.phoneNumber == nil)
        #expect(user.providerUserInfo?.map(\.providerId) == ["password"])

        _ = try await harness.adminCall("/accounts:update", ["localId": localId, "disableUser": true], as: AccountsUpdateResponse.self)
        #expect(try await harness.adminLookup(["localId": [localId]]).first?.disabled == true)
        await #expect(throws: server("USER_DISABLED")) { try await harness.signIn("eve@example.com") }
        await #expect(throws: server("USER_DISABLED")) { try await harness.refresh(signedUp.refreshToken) }
        _ = try await harness.adminCall("/accounts:update", ["localId": localId, "disableUser": false], as: AccountsUpdateResponse.self)

        _ = try await harness.adminCall("/accounts:update", ["localId": localId, "password": "brand-new-1", "email": "eve2@example.com"],
                                        as: AccountsUpdateResponse.self)
        await #expect(throws: server("INVALID_LOGIN_CREDENTIALS")) { try await harness.signIn("eve@example.com") }
        let again = try await harness.signIn("eve2@example.com", "brand-new-1")
        #expect(again.localId == localId)
    }

    @Test func customClaimsAreCheckedAndReachTheNextIdToken() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        let signedUp = try await harness.signUp("fay@example.com")
        let update = harness.projectPath + "/accounts:update"
        let tooLarge = "{\"blob\":\"" + String(repeating: "x", count: 990) + "\"}"
        #expect(errorMessage(try await harness.send("POST", update, ["localId": signedUp.localId, "customAttributes": tooLarge])) == "CLAIMS_TOO_LARGE")
        #expect(errorMessage(try await harness.send("POST", update, ["localId": signedUp.localId, "customAttributes": #"{"auth_time":1}"#]))
            == "FORBIDDEN_CLAIM : auth_time")
        #expect(errorMessage(try await harness.send("POST", update, ["localId": signedUp.localId, "customAttributes": "not json"])) == "INVALID_CLAIMS")
        // An app cannot set claims on itself, as in the emulator.
        await #expect(throws: server("INSUFFICIENT_PERMISSION")) {
            try await harness.api.call(AccountsUpdateRequest(idToken: signedUp.idToken, customAttributes: #"{"role":"self-made"}"#))
        }
        #expect(claims(of: try await harness.signIn("fay@example.com").idToken)["role"] == nil)

        _ = try await harness.adminCall("/accounts:update", ["localId": signedUp.localId, "customAttributes": #"{"role":"admin","level":3}"#],
                                        as: AccountsUpdateResponse.self)
        #expect(try await harness.adminLookup(["localId": [signedUp.localId]]).first?.customAttributes == #"{"role":"admin","level":3}"#)
        let signedIn = claims(of: try await harness.signIn("fay@example.com").idToken)
        #expect(signedIn["role"] as? String == "admin")
        #expect(int(signedIn["level"]) == 3)
        #expect(claims(of: try await harness.refresh(signedUp.refreshToken).idToken)["role"] as? String == "admin")

        // The Admin SDK clears claims by sending "{}".
        _ = try await harness.adminCall("/accounts:update", ["localId": signedUp.localId, "customAttributes": "{}"], as: AccountsUpdateResponse.self)
        #expect(try await harness.adminLookup(["localId": [signedUp.localId]]).first?.customAttributes == nil)
        #expect(claims(of: try await harness.refresh(signedUp.refreshToken).idToken)["role"] == nil)
    }

    @Test func revokingInTheSameSecondStillEndsEarlierSessions() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        let signedUp = try await harness.signUp("gus@example.com")
        // revoke_refresh_tokens sends validSince = now, in whole seconds: the session above started in that second.
        _ = try await harness.adminCall("/accounts:update", ["localId": signedUp.localId, "validSince": harness.clock.seconds],
                                        as: AccountsUpdateResponse.self)
        await #expect(throws: server("TOKEN_EXPIRED")) { try await harness.refresh(signedUp.refreshToken) }
        // ID tokens are compared by second, as the Admin SDK's check_revoked does: iat == validSince is still valid.
        #expect(try await harness.lookup(signedUp.idToken)?.localId == signedUp.localId)
        #expect(try await harness.adminLookup(["localId": [signedUp.localId]]).first?.validSince == String(harness.clock.seconds))

        harness.clock.advance(1)
        let fresh = try await harness.signIn("gus@example.com")
        _ = try await harness.refresh(fresh.refreshToken)
    }

    @Test func deletingOneAndManyUsers() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        let one = try await harness.signUp("hal@example.com")
        _ = try await harness.adminCall("/accounts:delete", ["localId": one.localId], as: AccountsDeleteResponse.self)
        #expect(try await harness.adminLookup(["localId": [one.localId]]).isEmpty)
        await #expect(throws: server("INVALID_REFRESH_TOKEN")) { try await harness.refresh(one.refreshToken) }
        #expect(errorMessage(try await harness.send("POST", harness.projectPath + "/accounts:delete", ["localId": one.localId])) == "USER_NOT_FOUND")

        let enabled = try await harness.signUp("ivy@example.com")
        let disabled = try await harness.signUp("jon@example.com")
        _ = try await harness.adminCall("/accounts:update", ["localId": disabled.localId, "disableUser": true], as: AccountsUpdateResponse.self)
        let batch = try await harness.adminCall("/accounts:batchDelete", ["localIds": [enabled.localId, "never-existed", disabled.localId]],
                                                as: BatchDeleteAccountsResponse.self)
        #expect(batch.errors == [BatchAccountError(index: 0, localId: enabled.localId,
                                                   message: "NOT_DISABLED : Disable the account before batch deletion.")])
        #expect(try await harness.adminLookup(["localId": [enabled.localId, disabled.localId]]).map(\.localId) == [enabled.localId])

        let forced = try await harness.adminCall("/accounts:batchDelete", ["localIds": [enabled.localId], "force": true],
                                                 as: BatchDeleteAccountsResponse.self)
        #expect(forced.errors == nil)
        #expect(try await harness.adminLookup(["localId": [enabled.localId]]).isEmpty)
        await #expect(throws: server("INVALID_REFRESH_TOKEN")) { try await harness.refresh(enabled.refreshToken) }

        let path = harness.projectPath + "/accounts:batchDelete"
        #expect(errorMessage(try await harness.send("POST", path, ["localIds": [String]()])) == "LOCAL_ID_LIST_EXCEEDS_LIMIT")
        #expect(errorMessage(try await harness.send("POST", path, ["localIds": (0...1000).map { "u\($0)" }])) == "LOCAL_ID_LIST_EXCEEDS_LIMIT")
    }
}
