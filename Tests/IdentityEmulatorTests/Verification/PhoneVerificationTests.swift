import Foundation
import IdentityToolkit
import Testing
@testable import IdentityEmulator

@Suite struct PhoneVerificationTests {
    let phone = "+15555550100"

    @Test func aPhoneNumberSignsUpThenSignsIn() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        await #expect(throws: server("INVALID_PHONE_NUMBER : Invalid format.")) {
            try await harness.api.call(SendVerificationCodeRequest(phoneNumber: "5555550100"))
        }
        await #expect(throws: server("INVALID_PHONE_NUMBER : Invalid format.")) {
            try await harness.api.call(SendVerificationCodeRequest(phoneNumber: "+1 555 555"))
        }
        let sent = try await harness.api.call(SendVerificationCodeRequest(phoneNumber: phone))
        let outbox = try await harness.verificationCodes()
        #expect(outbox.count == 1)
        #expect(outbox.first?.phoneNumber == phone)
        #expect(outbox.first?.sessionInfo == sent.sessionInfo)
        let code = try #require(outbox.first?.code)
        #expect(code.count == 6 && code.allSatisfy(\.isNumber))

        let first = try await harness.api.call(SignInWithPhoneNumberRequest(sessionInfo: sent.sessionInfo, code: code))
        #expect(first.isNewUser == true)
        #expect(first.phoneNumber == phone)
        #expect(firebaseClaims(of: first.idToken)["sign_in_provider"] as? String == "phone")
        #expect(claims(of: first.idToken)["phone_number"] as? String == phone)
        let account = try #require(try await harness.lookup(first.idToken))
        #expect(account.providerUserInfo?.map(\.providerId) == ["phone"])
        #expect(account.providerUserInfo?.first?.rawId == phone)
        #expect(try await harness.verificationCodes().isEmpty)
        await #expect(throws: server("INVALID_SESSION_INFO")) {
            try await harness.api.call(SignInWithPhoneNumberRequest(sessionInfo: sent.sessionInfo, code: code))
        }

        let again = try await harness.api.call(SendVerificationCodeRequest(phoneNumber: phone))
        let second = try await harness.api.call(SignInWithPhoneNumberRequest(sessionInfo: again.sessionInfo, code: harness.smsCode(for: again.sessionInfo)))
        #expect(second.isNewUser == false)
        #expect(second.localId == first.localId)
    }

    @Test func wrongCodesAreCountedAndTheLimitVoidsTheVerification() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        let sent = try await harness.api.call(SendVerificationCodeRequest(phoneNumber: phone))
        let code = try await harness.smsCode(for: sent.sessionInfo)
        let wrong = code == "000000" ? "111111" : "000000"
        for _ in 0..<4 {
            await #expect(throws: server("INVALID_CODE")) {
                try await harness.api.call(SignInWithPhoneNumberRequest(sessionInfo: sent.sessionInfo, code: wrong))
            }
        }
        let tooMany = server("TOO_MANY_ATTEMPTS_TRY_LATER : Too many wrong codes: this verification no longer accepts any. Request a new code, or wait.")
        await #expect(throws: tooMany) { try await harness.api.call(SignInWithPhoneNumberRequest(sessionInfo: sent.sessionInfo, code: wrong)) }
        await #expect(throws: tooMany) { try await harness.api.call(SignInWithPhoneNumberRequest(sessionInfo: sent.sessionInfo, code: code)) }
        await #expect(throws: server("MISSING_SESSION_INFO")) { try await harness.api.call(SignInWithPhoneNumberRequest(code: code)) }
        await #expect(throws: server("MISSING_CODE")) { try await harness.api.call(SignInWithPhoneNumberRequest(sessionInfo: sent.sessionInfo)) }
        await #expect(throws: server("INVALID_SESSION_INFO")) {
            try await harness.api.call(SignInWithPhoneNumberRequest(sessionInfo: "forged", code: code))
        }
    }

    @Test func codesExpire() async throws {
        var configuration = EmbeddedBackendConfiguration()
        configuration.verificationCodeLifetime = 120
        let harness = try Harness(configuration: configuration)
        defer { harness.remove() }
        let sent = try await harness.api.call(SendVerificationCodeRequest(phoneNumber: phone))
        let code = try await harness.smsCode(for: sent.sessionInfo)
        harness.clock.advance(121)
        #expect(try await harness.verificationCodes().isEmpty)
        await #expect(throws: server("SESSION_EXPIRED")) {
            try await harness.api.call(SignInWithPhoneNumberRequest(sessionInfo: sent.sessionInfo, code: code))
        }
    }

    @Test func linkingANumberOwnedByAnotherAccountGivesATemporaryProof() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        let owner = try await harness.signUp("owner@example.com")
        let sent = try await harness.api.call(SendVerificationCodeRequest(phoneNumber: phone))
        let linked = try await harness.api.call(SignInWithPhoneNumberRequest(sessionInfo: sent.sessionInfo,
                                                                            code: harness.smsCode(for: sent.sessionInfo), idToken: owner.idToken))
        #expect(linked.localId == owner.localId)
        #expect(firebaseClaims(of: linked.idToken)["sign_in_provider"] as? String == "password")
        #expect(try await harness.lookup(linked.idToken)?.providerUserInfo?.map(\.providerId) == ["password", "phone"])

        let other = try await harness.signUp("other@example.com")
        let again = try await harness.api.call(SendVerificationCodeRequest(phoneNumber: phone))
        let conflict = try await harness.api.call(SignInWithPhoneNumberRequest(sessionInfo: again.sessionInfo,
                                                                              code: harness.smsCode(for: again.sessionInfo), idToken: other.idToken))
        #expect(conflict.idToken == nil && conflict.localId == nil)
        #expect(conflict.phoneNumber == phone)
        #expect(conflict.temporaryProofExpiresIn == "600")
        let proof = try #require(conflict.temporaryProof)
        #expect(try await harness.lookup(other.idToken)?.phoneNumber == nil)

        await #expect(throws: server("PHONE_NUMBER_EXISTS")) {
            try await harness.api.call(SignInWithPhoneNumberRequest(temporaryProof: proof, phoneNumber: phone, idToken: other.idToken))
        }
        await #expect(throws: server("INVALID_TEMPORARY_PROOF")) {
            try await harness.api.call(SignInWithPhoneNumberRequest(temporaryProof: proof, phoneNumber: "+15555550199"))
        }
        await #expect(throws: server("MISSING_PHONE_NUMBER")) { try await harness.api.call(SignInWithPhoneNumberRequest(temporaryProof: proof)) }
        let signedIn = try await harness.api.call(SignInWithPhoneNumberRequest(temporaryProof: proof, phoneNumber: phone))
        #expect(signedIn.localId == owner.localId)
        harness.clock.advance(601)
        await #expect(throws: server("INVALID_TEMPORARY_PROOF")) {
            try await harness.api.call(SignInWithPhoneNumberRequest(temporaryProof: proof, phoneNumber: phone))
        }
    }

    @Test func aNumberUsedAsASecondFactorCannotBeAFirstFactor() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        let ada = try await harness.verifiedUser("ada@example.com")
        let sent = try await harness.api.call(SendVerificationCodeRequest(phoneNumber: phone))
        let linked = try await harness.api.call(SignInWithPhoneNumberRequest(sessionInfo: sent.sessionInfo,
                                                                            code: harness.smsCode(for: sent.sessionInfo), idToken: ada.idToken))
        let signedIn = try await harness.signIn("ada@example.com")
        _ = try await harness.enrollPhone(signedIn.idToken, "+15555550111")
        let firstFactor = server("UNSUPPORTED_FIRST_FACTOR : A phone number cannot be set as a first factor on an SMS based MFA user.")
        await #expect(throws: firstFactor) { try await harness.api.call(SendVerificationCodeRequest(phoneNumber: phone)) }
        #expect(linked.localId == ada.localId)
    }

    @Test func aCodeSentForEnrollmentCannotSignIn() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        let ada = try await harness.verifiedUser("ada@example.com")
        let started = try await harness.api.call(StartMfaEnrollmentRequest(idToken: ada.idToken ?? "", phoneEnrollmentInfo: PhoneEnrollmentInfo(phoneNumber: phone)))
        let sessionInfo = try #require(started.phoneSessionInfo?.sessionInfo)
        await #expect(throws: server("INVALID_SESSION_INFO")) {
            try await harness.api.call(SignInWithPhoneNumberRequest(sessionInfo: sessionInfo, code: harness.smsCode(for: sessionInfo)))
        }
    }
}
