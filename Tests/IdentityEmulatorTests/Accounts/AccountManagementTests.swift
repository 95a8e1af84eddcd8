import Foundation
import GRDB
import IdentityToolkit
import Testing
@testable import IdentityEmulator

@Suite struct AccountManagementTests {
    @Test func unlinkingPasswordClearsEmailAndHash() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        let anonymous = try await harness.api.call(SignUpRequest())
        let upgraded = try await harness.api.call(SignUpRequest(email: "ned@example.com", password: "secret-1", idToken: anonymous.idToken))
        let unlinked = try await harness.api.call(AccountsUpdateRequest(idToken: upgraded.idToken, deleteProvider: ["password"]))
        #expect(unlinked.localId == anonymous.localId)
        #expect(unlinked.email == nil)
        #expect(unlinked.providerUserInfo?.isEmpty ?? true)
        #expect(unlinked.passwordHash == nil)
        let user = try #require(try await harness.lookup(upgraded.idToken))
        #expect(user.email == nil)
        #expect(user.passwordHash == nil)
        #expect(user.providerUserInfo == nil)
        await #expect(throws: server("INVALID_LOGIN_CREDENTIALS")) { try await harness.signIn("ned@example.com") }
        // The address is free again.
        _ = try await harness.signUp("ned@example.com")
    }

    @Test func unlinkingPhoneClearsThePhoneNumber() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        let created = try await harness.signUp("ola@example.com")
        try harness.backend.store.writeBlocking { db in
            try db.execute(sql: "UPDATE user SET phoneNumber = '+15555550100' WHERE localId = ?", arguments: [created.localId])
            try ProviderRecord(localId: created.localId, providerId: "phone", rawId: "+15555550100", phoneNumber: "+15555550100").insert(db)
        }
        #expect(try await harness.lookup(created.idToken)?.phoneNumber == "+15555550100")
        let unlinked = try await harness.api.call(AccountsUpdateRequest(idToken: created.idToken, deleteProvider: ["phone"]))
        #expect(unlinked.providerUserInfo?.map(\.providerId) == ["password"])
        #expect(try await harness.lookup(created.idToken)?.phoneNumber == nil)
    }

    @Test func deletingTheAccountEndsItsSessions() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        let created = try await harness.signUp("pat@example.com")
        _ = try await harness.api.call(AccountsDeleteRequest(idToken: created.idToken))
        await #expect(throws: server("USER_NOT_FOUND")) { try await harness.lookup(created.idToken) }
        await #expect(throws: server("INVALID_REFRESH_TOKEN")) { try await harness.refresh(created.refreshToken) }
        await #expect(throws: server("INVALID_LOGIN_CREDENTIALS")) { try await harness.signIn("pat@example.com") }
        await #expect(throws: server("USER_NOT_FOUND")) { try await harness.admin(AccountsDeleteRequest(localId: created.localId)) }
    }

    @Test func expiredAnonymousAccountsArePurgedButUpgradedOnesKept() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        let old = try await harness.api.call(SignUpRequest())
        let oldUpgraded = try await harness.api.call(SignUpRequest())
        _ = try await harness.api.call(SignUpRequest(email: "quin@example.com", password: "secret-1", idToken: oldUpgraded.idToken))
        harness.clock.advance(31 * 24 * 3600)
        let young = try await harness.api.call(SignUpRequest())

        #expect(try harness.backend.purgeExpiredAnonymousUsers() == 1)
        let remaining = try await harness.admin(AccountsLookupRequest(localId: [old.localId, oldUpgraded.localId, young.localId]))
        #expect(Set(remaining.users?.map(\.localId) ?? []) == [oldUpgraded.localId, young.localId])
        await #expect(throws: server("INVALID_REFRESH_TOKEN")) { try await harness.refresh(old.refreshToken) }

        // Opening the data directory purges too.
        harness.clock.advance(31 * 24 * 3600)
        let reopened = try harness.reopened()
        let afterRestart = try await reopened.admin(AccountsLookupRequest(localId: [oldUpgraded.localId, young.localId]))
        #expect(afterRestart.users?.map(\.localId) == [oldUpgraded.localId])
    }

    /// The clean-up runs at every start: it must read the anonymous candidates only, whatever the
    /// number of other accounts (through the phone number's index it read every account without one).
    @Test func theCleanUpReadsOnlyAnonymousCandidates() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        let plan = try harness.backend.store.read { db in
            try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + EmbeddedBackend.expiredAnonymousAccounts, arguments: [0])
                .map { $0["detail"] as String }
        }
        let readsUser = plan.filter { $0.contains(" user ") }
        #expect(readsUser == ["SEARCH user USING INDEX \(AccountStore.anonymousCreatedAtIndex) (createdAt<?)"], "\(plan)")
    }

    @Test func wireLevelErrors() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        let unknown = await harness.raw("/identitytoolkit.googleapis.com/v1/accounts:nothingHere", body: "{}")
        #expect(unknown.status == 404)
        #expect(errorMessage(unknown)?.hasPrefix("NOT_FOUND") == true)

        let malformed = await harness.raw(SignInWithPasswordRequest.endpoint.emulatorPath, body: #"{"email": "#)
        #expect(malformed.status == 400)
        #expect(errorMessage(malformed)?.hasPrefix("INVALID_ARGUMENT : ") == true)

        let wrongType = await harness.raw(SignInWithPasswordRequest.endpoint.emulatorPath, body: #"{"email": 5, "password": "x"}"#)
        #expect(wrongType.status == 400)
        #expect(errorMessage(wrongType) == "INVALID_ARGUMENT : Invalid value at 'email'")

        let notAnObject = await harness.raw(AccountsUpdateRequest.endpoint.emulatorPath, body: "[1, 2]")
        #expect(notAnObject.status == 400)

        let noKey = await harness.raw(SignUpRequest.endpoint.emulatorPath, body: "{}", headers: [:])
        #expect(noKey.status == 403)
        let body = try #require(try JSONSerialization.jsonObject(with: noKey.body) as? [String: Any])
        #expect((body["error"] as? [String: Any])?["status"] as? String == "PERMISSION_DENIED")

        let queryKey = await harness.raw(SignUpRequest.endpoint.emulatorPath + "?key=abc", body: "{}", headers: [:])
        #expect(queryKey.status == 200)

        let badBearer = await harness.raw(AccountsLookupRequest.endpoint.emulatorPath, body: "{}", headers: ["Authorization": "Bearer nope"])
        #expect(badBearer.status == 401)

        await #expect(throws: server("INVALID_ID_TOKEN")) { try await harness.lookup("not.a.token") }
        await #expect(throws: server("MISSING_ID_TOKEN")) { try await harness.lookup(nil) }
    }

    @Test func tokensFromAnotherBackendAreRejected() async throws {
        let first = try Harness()
        let second = try Harness()
        defer { first.remove(); second.remove() }
        let foreign = try await first.api.call(SignUpRequest())
        await #expect(throws: server("INVALID_ID_TOKEN")) { try await second.lookup(foreign.idToken) }
    }
}
