import Foundation
import GRDB
import IdentityToolkit
import Testing
@testable import IdentityEmulator

/// `mfaInfo` on an app's `accounts:signUp`, as the Firebase Auth Emulator takes it (where its trust
/// holds), and what such an account then answers: pending credentials, no phone as a first factor.
@Suite struct SecondFactorsOnSignUpTests {
    static let signUpPath = SignUpRequest.endpoint.emulatorPath
    static let app = ["x-goog-api-key": "test-key", "Content-Type": "application/json"]
    static let cellPhone = ["displayName": "Cell Phone", "phoneInfo": "+15555550100"]

    /// An app's sign-up with second factors; returns the answer's JSON.
    private func signUp(_ harness: Harness, _ body: [String: Any]) async throws -> [String: Any] {
        let response = try await harness.send("POST", Self.signUpPath, body, headers: Self.app)
        #expect(response.status == 200, "\(errorMessage(response) ?? "")")
        return try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: Any])
    }

    @Test func anAppsSignUpStoresTheFactorsWithNewIdsOneANumber() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        let ignoredIds: [String: Any] = ["mfaEnrollmentId": "thisShouldBeIgnored", "phoneInfo": "+15555550101"]
        let created = try await signUp(harness, ["email": "alice@example.com", "password": "notasecret",
                                                 "mfaInfo": [Self.cellPhone, Self.cellPhone, Self.cellPhone, ignoredIds]])
        // As in the emulator, the sign-up itself answers tokens.
        let idToken = try #require(created["idToken"] as? String)
        let factors = try #require(try await harness.lookup(idToken)?.mfaInfo)
        #expect(factors.map(\.phoneInfo) == ["+15555550100", "+15555550101"])
        #expect(factors.map(\.displayName) == ["Cell Phone", nil])
        #expect(factors.allSatisfy { $0.mfaEnrollmentId.count == 28 && $0.mfaEnrollmentId != "thisShouldBeIgnored" })
        #expect(Set(factors.map(\.mfaEnrollmentId)).count == 2)

        let invalid = try await harness.send("POST", Self.signUpPath, ["email": "bob@example.com", "password": "notasecret",
                                                                      "mfaInfo": [["phoneInfo": "5555550100"]]], headers: Self.app)
        #expect(errorMessage(invalid) == "INVALID_MFA_PHONE_NUMBER : Invalid format.")
        #expect(try await harness.signUp("bob@example.com").idToken != nil)
    }

    @Test func aPasswordOrEmailLinkSignInOfSuchAUserAsksForTheSecondFactor() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        let created = try await signUp(harness, ["email": "alice@example.com", "password": "notasecret", "mfaInfo": [Self.cellPhone]])

        let first = try await harness.signIn("alice@example.com", "notasecret")
        #expect(first.idToken == nil)
        #expect(first.refreshToken == nil)
        let pending = try #require(first.mfaPendingCredential)
        let hint = try #require(first.mfaInfo?.first)
        #expect(first.mfaInfo?.count == 1)
        #expect(hint.phoneInfo == "+*******0100")
        #expect(hint.displayName == "Cell Phone")

        let started = try await harness.api.call(StartMfaSignInRequest(mfaPendingCredential: pending, mfaEnrollmentId: hint.mfaEnrollmentId))
        let sessionInfo = try #require(started.phoneResponseInfo?.sessionInfo)
        let done = try await harness.api.call(FinalizeMfaSignInRequest(
            mfaPendingCredential: pending,
            phoneVerificationInfo: PhoneVerificationInfo(sessionInfo: sessionInfo, code: try await harness.smsCode(for: sessionInfo))))
        #expect(claims(of: done.idToken)["sub"] as? String == created["localId"] as? String)
        #expect(firebaseClaims(of: done.idToken)["second_factor_identifier"] as? String == hint.mfaEnrollmentId)

        _ = try await harness.api.call(SendOobCodeRequest(requestType: .emailSignIn, email: "alice@example.com"))
        let linkCode = try #require(try await harness.oobCodes().last { $0.requestType == "EMAIL_SIGNIN" }?.oobCode)
        let byLink = try await harness.api.call(SignInWithEmailLinkRequest(email: "alice@example.com", oobCode: linkCode))
        #expect(byLink.idToken == nil)
        #expect(byLink.mfaPendingCredential != nil)
        #expect(byLink.mfaInfo?.map(\.mfaEnrollmentId) == [hint.mfaEnrollmentId])
    }

    @Test func aPhoneCannotBeLinkedAsAFirstFactorOfSuchAUser() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        let created = try await signUp(harness, ["email": "alice@example.com", "password": "notasecret", "mfaInfo": [Self.cellPhone]])
        let sent = try await harness.api.call(SendVerificationCodeRequest(phoneNumber: "+15555550100"))
        let code = try #require(try await harness.verificationCodes().first { $0.sessionInfo == sent.sessionInfo }?.code)
        let linked = await harness.raw(SignInWithPhoneNumberRequest.endpoint.emulatorPath,
                                       body: #"{"sessionInfo":"\#(sent.sessionInfo)","code":"\#(code)","idToken":"\#(created["idToken"] as? String ?? "")"}"#)
        #expect(linked.status == 400)
        #expect(errorMessage(linked) == "UNSUPPORTED_FIRST_FACTOR : A phone number cannot be set as a first factor on an SMS based MFA user.")
        #expect(try harness.stored(try #require(created["localId"] as? String))?.phoneNumber == nil)
    }

    @Test func aSharedBackendRefusesAnAppsFactorsAndCreatesNothing() async throws {
        let harness = try Harness(configuration: EmbeddedBackendConfiguration(adminToken: "admin-token-0123456789"))
        defer { harness.remove() }
        let refused = try await harness.send("POST", Self.signUpPath, ["email": "alice@example.com", "password": "notasecret",
                                                                      "mfaInfo": [Self.cellPhone]], headers: Self.app)
        #expect(refused.status == 400)
        #expect(errorMessage(refused) == "INSUFFICIENT_PERMISSION : ((only an administrator may set mfaInfo on a shared backend; "
            + "enroll a second factor with mfaEnrollment:start and mfaEnrollment:finalize))")
        // Nothing was created: the address is free, and an empty list asks for nothing.
        let plain = try await signUp(harness, ["email": "alice@example.com", "password": "notasecret", "mfaInfo": [Any]()])
        #expect(try await harness.lookup(plain["idToken"] as? String)?.mfaInfo == nil)
    }

    @Test func anAdministratorsCreationMakesUpTheIds() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        let created = try await harness.adminCall("/accounts", [
            "email": "cy@example.com", "password": "secret-1",
            "mfaInfo": [["mfaEnrollmentId": "chosen-1", "phoneInfo": "+15555550100"], ["mfaEnrollmentId": "chosen-1", "phoneInfo": "+15555550101"]],
        ], as: SignUpResponse.self)
        let factors = try await harness.adminLookup(["localId": [created.localId]]).first?.mfaInfo ?? []
        #expect(factors.map(\.phoneInfo) == ["+15555550100", "+15555550101"])
        #expect(factors.allSatisfy { $0.mfaEnrollmentId != "chosen-1" && $0.mfaEnrollmentId.count == 28 })
    }

    @Test func anAdministratorsUpdateReplacesChangesAndRemovesFactors() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        let update = harness.projectPath + "/accounts:update"
        // The list's type is checked before the user is looked up.
        for enrollments in [NSNull(), "x", ["phoneInfo": "+15555550100"]] as [Any] {
            let refused = try await harness.send("POST", update, ["localId": "anything", "mfa": ["enrollments": enrollments]])
            #expect(refused.status == 400)
            #expect(errorMessage(refused) == "Invalid JSON payload received. /mfa/enrollments must be array")
        }
        let unknown = try await harness.send("POST", update, ["localId": "anything", "mfa": ["enrollments": [["mfaEnrollmentId": "e", "phoneInfo": "+15555550100"]]]])
        #expect(errorMessage(unknown) == "USER_NOT_FOUND")

        let created = try await signUp(harness, ["email": "bob@example.com", "password": "notasecret", "mfaInfo": [Self.cellPhone]])
        let localId = try #require(created["localId"] as? String)
        let saved = try #require(try await harness.adminLookup(["localId": [localId]]).first?.mfaInfo?.first)
        func factors() async throws -> [MfaEnrollment] { try await harness.adminLookup(["localId": [localId]]).first?.mfaInfo ?? [] }

        // The same id with another number and name is that factor changed.
        #expect(try await harness.send("POST", update, ["localId": localId, "mfa": ["enrollments": [
            ["mfaEnrollmentId": saved.mfaEnrollmentId, "phoneInfo": "+15555550101", "displayName": "New Display Name"]]]]).status == 200)
        var stored = try await factors()
        #expect(stored.map(\.mfaEnrollmentId) == [saved.mfaEnrollmentId])
        #expect(stored.map(\.phoneInfo) == ["+15555550101"])
        #expect(stored.map(\.displayName) == ["New Display Name"])
        // Another id is a new factor in its place.
        #expect(try await harness.send("POST", update, ["localId": localId, "mfa": ["enrollments": [
            ["mfaEnrollmentId": "newEnrollmentId", "phoneInfo": "+15555550101"]]]]).status == 200)
        stored = try await factors()
        #expect(stored.map(\.mfaEnrollmentId) == ["newEnrollmentId"])
        // `[]`, and `enrollments` left out, remove them all.
        for clearing: [String: Any] in [["enrollments": [Any]()], [:]] {
            #expect(try await harness.send("POST", update, ["localId": localId, "mfa": ["enrollments": [
                ["mfaEnrollmentId": "again", "phoneInfo": "+15555550102"]]]]).status == 200)
            #expect(try await factors().count == 1)
            #expect(try await harness.send("POST", update, ["localId": localId, "mfa": clearing]).status == 200)
            #expect(try await factors().isEmpty)
        }
        let invalid = try await harness.send("POST", update, ["localId": localId, "mfa": ["enrollments": [
            ["mfaEnrollmentId": "e", "phoneInfo": "5555550100"]]]])
        #expect(errorMessage(invalid) == "INVALID_MFA_PHONE_NUMBER : Invalid format.")
    }

    @Test func twoAccountsMayHaveAFactorWithTheSameId() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        let bob = try await signUp(harness, ["email": "bob@example.com", "password": "notasecret", "mfaInfo": [Self.cellPhone]])
        let alice = try await signUp(harness, ["email": "alice@example.com", "password": "notasecret", "mfaInfo": [Self.cellPhone]])
        let bobId = try #require(bob["localId"] as? String)
        let aliceFactor = try #require(try await harness.lookup(alice["idToken"] as? String)?.mfaInfo?.first)
        let update = harness.projectPath + "/accounts:update"
        let same = try await harness.send("POST", update, ["localId": bobId, "mfa": ["enrollments": [
            ["mfaEnrollmentId": aliceFactor.mfaEnrollmentId, "phoneInfo": "+15555550101", "displayName": "Bob's"]]]])
        #expect(same.status == 200, "\(errorMessage(same) ?? "")")
        #expect(try await harness.lookup(bob["idToken"] as? String)?.mfaInfo?.map(\.mfaEnrollmentId) == [aliceFactor.mfaEnrollmentId])
        #expect(try await harness.lookup(alice["idToken"] as? String)?.mfaInfo == [aliceFactor])

        // Each account's sign-in finds its own factor under that id.
        for (email, phone) in [("bob@example.com", "+15555550101"), ("alice@example.com", "+15555550100")] {
            let first = try await harness.signIn(email, "notasecret")
            let pending = try #require(first.mfaPendingCredential)
            let started = try await harness.api.call(StartMfaSignInRequest(mfaPendingCredential: pending, mfaEnrollmentId: aliceFactor.mfaEnrollmentId))
            let sessionInfo = try #require(started.phoneResponseInfo?.sessionInfo)
            #expect(try await harness.verificationCodes().last?.phoneNumber == phone)
            let done = try await harness.api.call(FinalizeMfaSignInRequest(
                mfaPendingCredential: pending,
                phoneVerificationInfo: PhoneVerificationInfo(sessionInfo: sessionInfo, code: try await harness.smsCode(for: sessionInfo))))
            #expect(claims(of: done.idToken)["email"] as? String == email)
        }
        // Removing one account's factor leaves the other's.
        #expect(try await harness.send("POST", update, ["localId": bobId, "mfa": [String: Any]()]).status == 200)
        #expect(try await harness.lookup(alice["idToken"] as? String)?.mfaInfo == [aliceFactor])
    }

    @Test func theMigrationKeepsEveryFactorUnderItsAccount() throws {
        let queue = try DatabaseQueue()
        try queue.write { db in
            try db.create(table: StoredAccount.databaseTableName) { t in t.primaryKey("localId", .text) }
            try db.create(table: MfaEnrollmentRecord.databaseTableName) { t in
                t.primaryKey("mfaEnrollmentId", .text)
                t.column("localId", .text).notNull().indexed().references(StoredAccount.databaseTableName, onDelete: .cascade)
                t.column("factor", .text).notNull()
                t.column("displayName", .text)
                t.column("phoneNumber", .text)
                t.column("totpSecret", .blob)
                t.column("enrolledAt", .integer).notNull()
                t.column("lastTotpStep", .integer)
                t.column("failedAttempts", .integer).notNull().defaults(to: 0)
                t.column("lockedUntil", .double)
                t.uniqueKey(["localId", "phoneNumber"])
            }
            try db.execute(sql: "INSERT INTO user (localId) VALUES ('a'), ('b')")
            try db.execute(sql: """
                INSERT INTO mfaEnrollment (mfaEnrollmentId, localId, factor, phoneNumber, enrolledAt, totpSecret, lastTotpStep)
                VALUES ('e1', 'a', 'phone', '+15555550100', 1, NULL, NULL), ('e2', 'b', 'totp', NULL, 2, x'0102', 7)
                """)
            try MfaEnrollmentRecord.makeIdsPerAccount(db)
            try db.execute(sql: "INSERT INTO mfaEnrollment (mfaEnrollmentId, localId, factor, enrolledAt) VALUES ('e1', 'b', 'totp', 3)")
            #expect(try MfaEnrollmentRecord.find("e1", of: "a", in: db)?.phoneNumber == "+15555550100")
            #expect(try MfaEnrollmentRecord.find("e2", of: "b", in: db)?.totpSecret == Data([1, 2]))
            #expect(try MfaEnrollmentRecord.find("e2", of: "b", in: db)?.lastTotpStep == 7)
            #expect(try MfaEnrollmentRecord.find("e1", of: "b", in: db)?.enrolledAt == 3)
            try db.execute(sql: "DELETE FROM user WHERE localId = 'b'")
            #expect(try MfaEnrollmentRecord.fetchCount(db) == 1)
        }
    }
}
