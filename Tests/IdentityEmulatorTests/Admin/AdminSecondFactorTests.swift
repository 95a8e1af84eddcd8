import Foundation
import IdentityToolkit
import Testing
@testable import IdentityEmulator

/// An administrator manages second factors: `accounts:update` with `mfa`, `mfaInfo` on create and import.
@Suite struct AdminSecondFactorTests {
    private func factors(_ harness: Harness, _ localId: String) async throws -> [MfaEnrollment] {
        try await harness.adminLookup(["localId": [localId]]).first?.mfaInfo ?? []
    }

    private func setFactors(_ harness: Harness, _ localId: String, _ mfa: [String: Any]) async throws -> WireResponse {
        try await harness.send("POST", harness.projectPath + "/accounts:update", ["localId": localId, "mfa": mfa])
    }

    @Test func anEnrolledPhoneFactorChallengesTheNextSignInAndCompletesIt() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        let ada = try await harness.verifiedUser("ada@example.com")
        let response = try await setFactors(harness, ada.localId, ["enrollments": [
            ["mfaEnrollmentId": "work-phone", "phoneInfo": "+15555550100", "displayName": "Work", "enrolledAt": "2024-01-02T03:04:05Z"],
            ["mfaEnrollmentId": "spare-phone", "phoneInfo": "+15555550199"],
        ]])
        #expect(response.status == 200)

        let stored = try await factors(harness, ada.localId)
        #expect(stored.map(\.phoneInfo) == ["+15555550100", "+15555550199"])
        #expect(stored.map(\.displayName) == ["Work", nil])
        #expect(stored[0].mfaEnrollmentId == "work-phone")
        #expect(stored[0].enrolledAt == "2024-01-02T03:04:05.000Z")
        #expect(stored[1].mfaEnrollmentId == "spare-phone")
        #expect(stored[1].enrolledAt == EmbeddedBackend.rfc3339(seconds: Int64(harness.clock.seconds)))
        #expect(stored.allSatisfy { $0.totpInfo == nil })

        let first = try await harness.signIn("ada@example.com")
        #expect(first.idToken == nil)
        let pending = try #require(first.mfaPendingCredential)
        #expect(first.mfaInfo?.map(\.phoneInfo) == ["+*******0100", "+*******0199"])
        #expect(first.mfaInfo?.map(\.mfaEnrollmentId) == stored.map(\.mfaEnrollmentId))

        let started = try await harness.api.call(StartMfaSignInRequest(mfaPendingCredential: pending, mfaEnrollmentId: "work-phone"))
        let sessionInfo = try #require(started.phoneResponseInfo?.sessionInfo)
        #expect(try await harness.verificationCodes().last?.phoneNumber == "+15555550100")
        let done = try await harness.api.call(FinalizeMfaSignInRequest(
            mfaPendingCredential: pending, phoneVerificationInfo: PhoneVerificationInfo(sessionInfo: sessionInfo, code: try await harness.smsCode(for: sessionInfo))))
        #expect(firebaseClaims(of: done.idToken)["second_factor_identifier"] as? String == "work-phone")
        #expect(firebaseClaims(of: done.idToken)["sign_in_second_factor"] as? String == "phone")
    }

    @Test func theListReplacesTheFactorsAndAnEmptyOneClearsThem() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        let ada = try await harness.verifiedUser("ada@example.com")
        let enrolled = try await harness.enrollPhone(ada.idToken, "+15555550100", name: "Own phone")
        let own = try #require(try await factors(harness, ada.localId).first)
        // An app's own update cannot touch the factors (withdrawing one is `mfaEnrollment:withdraw`).
        let client = await harness.raw(AccountsUpdateRequest.endpoint.emulatorPath,
                                       body: #"{"idToken":"\#(enrolled.idToken)","mfa":{"enrollments":[]}}"#)
        #expect(client.status == 200, "\(errorMessage(client) ?? "")")
        #expect(try await factors(harness, ada.localId) == [own])
        harness.clock.advance(3600)

        // Naming the enrolled factor keeps its id and enrollment time; the new number is added.
        _ = try await setFactors(harness, ada.localId, ["enrollments": [
            ["mfaEnrollmentId": own.mfaEnrollmentId, "phoneInfo": "+15555550100", "displayName": "Renamed"],
            ["mfaEnrollmentId": "spare", "phoneInfo": "+15555550101", "displayName": "Spare"],
        ]])
        var stored = try await factors(harness, ada.localId)
        #expect(stored.map(\.mfaEnrollmentId).first == own.mfaEnrollmentId)
        #expect(stored.map(\.enrolledAt).first == own.enrolledAt)
        #expect(stored.map(\.displayName) == ["Renamed", "Spare"])

        // Replacing, not merging: the own phone is gone.
        _ = try await setFactors(harness, ada.localId, ["enrollments": [["mfaEnrollmentId": "p102", "phoneInfo": "+15555550102"]]])
        stored = try await factors(harness, ada.localId)
        #expect(stored.map(\.phoneInfo) == ["+15555550102"])

        for clearing: [String: Any] in [["enrollments": [Any]()], [:]] {
            _ = try await setFactors(harness, ada.localId, ["enrollments": [["mfaEnrollmentId": "p103", "phoneInfo": "+15555550103"]]])
            #expect(try await factors(harness, ada.localId).count == 1)
            #expect(try await setFactors(harness, ada.localId, clearing).status == 200)
            #expect(try await factors(harness, ada.localId).isEmpty)
            #expect(try await harness.signIn("ada@example.com").idToken != nil)
        }
        // Without `mfa` the factors are left alone.
        _ = try await setFactors(harness, ada.localId, ["enrollments": [["mfaEnrollmentId": "p104", "phoneInfo": "+15555550104"]]])
        _ = try await harness.adminCall("/accounts:update", ["localId": ada.localId, "displayName": "Ada"], as: AccountsUpdateResponse.self)
        #expect(try await factors(harness, ada.localId).map(\.phoneInfo) == ["+15555550104"])
    }

    @Test func badListsAreRefusedWithFirebaseMessagesAndChangeNothing() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        let bob = try await harness.verifiedUser("bob@example.com")
        _ = try await setFactors(harness, bob.localId, ["enrollments": [["mfaEnrollmentId": "bobs-phone", "phoneInfo": "+15555550150"]]])
        let ada = try await harness.verifiedUser("ada@example.com")
        _ = try await setFactors(harness, ada.localId, ["enrollments": [["mfaEnrollmentId": "adas-phone", "phoneInfo": "+15555550100"]]])
        let before = try await factors(harness, ada.localId)

        let six = (0..<6).map { ["mfaEnrollmentId": "six-\($0)", "phoneInfo": "+1555555011\($0)"] }
        let refusals: [([[String: Any]], String)] = [
            ([["phoneInfo": "5555550100"]], "INVALID_MFA_PHONE_NUMBER : Invalid format."),
            ([["displayName": "no number"]], "INVALID_MFA_PHONE_NUMBER : Invalid format."),
            (six, "SECOND_FACTOR_LIMIT_EXCEEDED : The maximum number of second factors (5) for this account has been reached."),
            ([["phoneInfo": "+15555550120"]], "INVALID_MFA_ENROLLMENT_ID : mfaEnrollmentId must be defined."),
            ([["mfaEnrollmentId": "same", "phoneInfo": "+15555550121"], ["mfaEnrollmentId": "same", "phoneInfo": "+15555550122"]],
             "DUPLICATE_MFA_ENROLLMENT_ID"),
            ([["mfaEnrollmentId": "p124", "phoneInfo": "+15555550124", "enrolledAt": "yesterday"]],
             "INVALID_ARGUMENT : Invalid value at 'mfa.enrollments[0].enrolled_at' (type.googleapis.com/google.protobuf.Timestamp), \"yesterday\""),
            ([["totpInfo": [String: Any]()]],
             "INVALID_ARGUMENT : ((an administrator cannot enroll a TOTP factor, only keep an enrolled one by its mfaEnrollmentId))"),
            ([["mfaEnrollmentId": "adas-phone", "totpInfo": [String: Any]()]],
             "INVALID_ARGUMENT : ((an administrator cannot enroll a TOTP factor, only keep an enrolled one by its mfaEnrollmentId))"),
            ([["phoneInfo": "+15555550125", "totpInfo": [String: Any]()]], "INVALID_ARGUMENT : MFA provider not supported!"),
        ]
        for (enrollments, message) in refusals {
            let response = try await setFactors(harness, ada.localId, ["enrollments": enrollments])
            #expect(response.status == 400)
            #expect(errorMessage(response) == message)
            #expect(try await factors(harness, ada.localId) == before)
        }
        #expect(try await factors(harness, bob.localId).map(\.phoneInfo) == ["+15555550150"])
        // Five is the limit, not an error.
        #expect(try await setFactors(harness, ada.localId, ["enrollments": Array(six.prefix(5))]).status == 200)
        #expect(try await factors(harness, ada.localId).count == 5)
    }

    @Test func anEnrolledTotpFactorIsKeptByItsIdWithItsSecret() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        let ada = try await harness.verifiedUser("ada@example.com")
        let (_, secret) = try await harness.enrollTotp(ada.idToken)
        let totp = try #require(try await factors(harness, ada.localId).first)
        #expect(totp.totpInfo != nil)
        harness.clock.advance(60)

        _ = try await setFactors(harness, ada.localId, ["enrollments": [
            ["mfaEnrollmentId": totp.mfaEnrollmentId, "totpInfo": [String: Any](), "displayName": "Authenticator"],
            ["mfaEnrollmentId": "phone", "phoneInfo": "+15555550100", "displayName": "Phone"],
        ]])
        let stored = try await factors(harness, ada.localId)
        #expect(stored.map(\.mfaEnrollmentId).first == totp.mfaEnrollmentId)
        #expect(stored.map { $0.totpInfo != nil } == [true, false])

        let first = try await harness.signIn("ada@example.com")
        let pending = try #require(first.mfaPendingCredential)
        let done = try await harness.api.call(FinalizeMfaSignInRequest(
            mfaPendingCredential: pending, mfaEnrollmentId: totp.mfaEnrollmentId,
            totpVerificationInfo: TotpVerificationInfo(verificationCode: Totp.code(secret: secret, at: Int64(harness.clock.seconds)))))
        #expect(firebaseClaims(of: done.idToken)["sign_in_second_factor"] as? String == "totp")
    }

    @Test func anAdministratorCreatesAUserWithSecondFactors() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        let created = try await harness.adminCall("/accounts", [
            "localId": "with-factor", "email": "cy@example.com", "password": "secret-1", "emailVerified": true,
            "mfaInfo": [["phoneInfo": "+15555550102", "displayName": "Cy's phone"]],
        ], as: SignUpResponse.self)
        #expect(created.localId == "with-factor")
        let stored = try await factors(harness, "with-factor")
        #expect(stored.map(\.phoneInfo) == ["+15555550102"])
        #expect(stored.map(\.displayName) == ["Cy's phone"])
        let first = try await harness.signIn("cy@example.com")
        #expect(first.idToken == nil)
        #expect(first.mfaInfo?.map(\.phoneInfo) == ["+*******0102"])

        let refused = try await harness.send("POST", harness.projectPath + "/accounts",
                                             ["localId": "refused", "email": "dee@example.com", "mfaInfo": [["phoneInfo": "0102"]]])
        #expect(errorMessage(refused) == "INVALID_MFA_PHONE_NUMBER : Invalid format.")
        #expect(try await harness.adminLookup(["localId": ["refused"]]).isEmpty)
    }

    @Test func importBringsSecondFactorsAndExportCarriesThem() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        let users: [[String: Any]] = [
            ["localId": "imported", "email": "eve@example.com", "emailVerified": true,
             "mfaInfo": [["mfaEnrollmentId": "eves-phone", "phoneInfo": "+15555550130", "displayName": "Eve", "enrolledAt": "2023-05-06T07:08:09.123Z"]]],
            ["localId": "no-email", "mfaInfo": [["phoneInfo": "+15555550131"]]],
            ["localId": "unverified", "email": "fay@example.com", "mfaInfo": [["phoneInfo": "+15555550132"]]],
            ["localId": "bad-number", "email": "gus@example.com", "emailVerified": true, "mfaInfo": [["phoneInfo": "0133"]]],
            ["localId": "same-id", "email": "hal@example.com", "emailVerified": true,
             "mfaInfo": [["mfaEnrollmentId": "eves-phone", "phoneInfo": "+15555550134"]]],
        ]
        let result = try await harness.adminCall("/accounts:batchCreate", ["users": users], as: UploadAccountResponse.self)
        #expect(result.error?.map(\.index) == [1, 2, 3])
        #expect(result.error?.map(\.message) == [
            "Second factor account requires email to be presented.", "Second factor account requires email to be verified.",
            "INVALID_MFA_PHONE_NUMBER : Invalid format.",
        ])
        #expect(try await harness.adminLookup(["localId": ["no-email", "unverified", "bad-number"]]).isEmpty)
        // An enrollment id is the account's own: another account may have one with the same id.
        #expect(try await factors(harness, "same-id").map(\.mfaEnrollmentId) == ["eves-phone"])
        let expected = MfaEnrollment(mfaEnrollmentId: "eves-phone", displayName: "Eve", enrolledAt: "2023-05-06T07:08:09.123Z",
                                     phoneInfo: "+15555550130", unobfuscatedPhoneInfo: "+15555550130")
        #expect(try await factors(harness, "imported") == [expected])

        let exported = try await harness.adminCall("/accounts:batchGet?maxResults=10", method: "GET", as: DownloadAccountResponse.self)
        #expect(exported.users?.first { $0.localId == "imported" }?.mfaInfo == [expected])
        // What was exported imports again as it was.
        let again = try await harness.adminCall("/accounts:batchCreate", [
            "allowOverwrite": true,
            "users": [["localId": "imported", "email": "eve@example.com", "emailVerified": true,
                       "mfaInfo": [["mfaEnrollmentId": expected.mfaEnrollmentId, "phoneInfo": expected.phoneInfo!,
                                    "displayName": expected.displayName!, "enrolledAt": expected.enrolledAt!]]]],
        ], as: UploadAccountResponse.self)
        #expect((again.error ?? []).isEmpty)
        #expect(try await factors(harness, "imported") == [expected])
    }
}
