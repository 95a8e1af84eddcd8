import Foundation
import IdentityToolkit
import Testing
@testable import IdentityEmulator

@Suite struct MultiFactorTests {
    @Test func enrollmentNeedsAVerifiedEmailAndAnEligibleFirstFactor() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        let unverified = try await harness.signUp("un@example.com")
        await #expect(throws: server("UNVERIFIED_EMAIL : Need to verify email first before enrolling second factors.")) {
            try await harness.api.call(StartMfaEnrollmentRequest(idToken: unverified.idToken ?? "", totpEnrollmentInfo: TotpEnrollmentInfo()))
        }
        let anonymous = try await harness.api.call(SignUpRequest())
        let unsupported = server("UNSUPPORTED_FIRST_FACTOR : MFA is not available for the given first factor.")
        await #expect(throws: unsupported) {
            try await harness.api.call(StartMfaEnrollmentRequest(idToken: anonymous.idToken ?? "", phoneEnrollmentInfo: PhoneEnrollmentInfo(phoneNumber: "+15555550100")))
        }
        let sent = try await harness.api.call(SendVerificationCodeRequest(phoneNumber: "+15555550142"))
        let phoneUser = try await harness.api.call(SignInWithPhoneNumberRequest(sessionInfo: sent.sessionInfo, code: harness.smsCode(for: sent.sessionInfo)))
        await #expect(throws: unsupported) {
            try await harness.api.call(StartMfaEnrollmentRequest(idToken: phoneUser.idToken ?? "", totpEnrollmentInfo: TotpEnrollmentInfo()))
        }
        let verified = try await harness.verifiedUser("ok@example.com")
        await #expect(throws: server("INVALID_PHONE_NUMBER : Invalid format.")) {
            try await harness.api.call(StartMfaEnrollmentRequest(idToken: verified.idToken ?? "", phoneEnrollmentInfo: PhoneEnrollmentInfo(phoneNumber: "0100")))
        }
        await #expect(throws: server("INVALID_ARGUMENT : ((Missing phoneEnrollmentInfo or totpEnrollmentInfo.))")) {
            try await harness.api.call(StartMfaEnrollmentRequest(idToken: verified.idToken ?? ""))
        }
    }

    @Test func anSmsFactorIsEnrolledAndShownInLookup() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        let ada = try await harness.verifiedUser("ada@example.com")
        let tokens = try await harness.enrollPhone(ada.idToken, "+15555550100", name: "Work phone")
        let factor = try #require(try await harness.lookup(tokens.idToken)?.mfaInfo?.first)
        #expect(factor.phoneInfo == "+15555550100")
        #expect(factor.displayName == "Work phone")
        #expect(factor.totpInfo == nil)
        #expect(factor.enrolledAt == "2025-06-15T15:06:40.000Z")
        #expect(factor.mfaEnrollmentId.count == 28)
        let firebase = firebaseClaims(of: tokens.idToken)
        #expect(firebase["sign_in_provider"] as? String == "password")
        #expect(firebase["sign_in_second_factor"] as? String == "phone")
        #expect(firebase["second_factor_identifier"] as? String == factor.mfaEnrollmentId)
        // The session keeps its second factor across refreshes.
        let refreshed = try await harness.refresh(tokens.refreshToken)
        #expect(firebaseClaims(of: refreshed.idToken)["sign_in_second_factor"] as? String == "phone")

        let exists = server("SECOND_FACTOR_EXISTS : Phone number already enrolled as second factor for this account.")
        await #expect(throws: exists) {
            try await harness.api.call(StartMfaEnrollmentRequest(idToken: tokens.idToken, phoneEnrollmentInfo: PhoneEnrollmentInfo(phoneNumber: "+15555550100")))
        }
    }

    @Test func aSecondVerificationOfTheSameNumberCannotFinalize() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        let ada = try await harness.verifiedUser("ada@example.com")
        let idToken = try #require(ada.idToken)
        let first = try await harness.api.call(StartMfaEnrollmentRequest(idToken: idToken, phoneEnrollmentInfo: PhoneEnrollmentInfo(phoneNumber: "+15555550100")))
        let second = try await harness.api.call(StartMfaEnrollmentRequest(idToken: idToken, phoneEnrollmentInfo: PhoneEnrollmentInfo(phoneNumber: "+15555550100")))
        for started in [first, second] {
            let sessionInfo = try #require(started.phoneSessionInfo?.sessionInfo)
            let request = FinalizeMfaEnrollmentRequest(idToken: idToken, phoneVerificationInfo: PhoneVerificationInfo(sessionInfo: sessionInfo, code: try await harness.smsCode(for: sessionInfo)))
            if started == first {
                _ = try await harness.api.call(request)
            } else {
                await #expect(throws: server("SECOND_FACTOR_EXISTS : Phone number already enrolled as second factor for this account.")) {
                    try await harness.api.call(request)
                }
            }
        }
    }

    @Test func atMostFiveSecondFactors() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        let ada = try await harness.verifiedUser("ada@example.com")
        var idToken = ada.idToken
        for index in 0..<5 { idToken = try await harness.enrollPhone(idToken, "+1555555010\(index)").idToken }
        let limit = server("SECOND_FACTOR_LIMIT_EXCEEDED : The maximum number of second factors (5) for this account has been reached.")
        await #expect(throws: limit) {
            try await harness.api.call(StartMfaEnrollmentRequest(idToken: idToken ?? "", phoneEnrollmentInfo: PhoneEnrollmentInfo(phoneNumber: "+15555550109")))
        }
        await #expect(throws: limit) { try await harness.api.call(StartMfaEnrollmentRequest(idToken: idToken ?? "", totpEnrollmentInfo: TotpEnrollmentInfo())) }
        #expect(try await harness.lookup(idToken)?.mfaInfo?.count == 5)
    }

    @Test func passwordSignInAsksForTheSecondFactorThenSmsFinishesIt() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        let ada = try await harness.verifiedUser("ada@example.com")
        let enrolled = try await harness.enrollPhone(ada.idToken, "+15555550100")
        let lastLogin = try await harness.lookup(enrolled.idToken)?.lastLoginAt
        harness.clock.advance(60)

        let first = try await harness.signIn("ada@example.com")
        #expect(first.idToken == nil && first.refreshToken == nil)
        #expect(first.localId == ada.localId)
        let pending = try #require(first.mfaPendingCredential)
        let hint = try #require(first.mfaInfo?.first)
        #expect(first.mfaInfo?.count == 1)
        #expect(hint.phoneInfo == "+*******0100")
        #expect(hint.displayName == "My phone")
        #expect(try await harness.lookup(enrolled.idToken)?.lastLoginAt == lastLogin)
        // The pending credential is not an ID token, and an ID token is not a pending credential.
        await #expect(throws: server("INVALID_ID_TOKEN")) { try await harness.lookup(pending) }
        await #expect(throws: server("INVALID_MFA_PENDING_CREDENTIAL")) {
            try await harness.api.call(StartMfaSignInRequest(mfaPendingCredential: enrolled.idToken, mfaEnrollmentId: hint.mfaEnrollmentId))
        }

        let started = try await harness.api.call(StartMfaSignInRequest(mfaPendingCredential: pending, mfaEnrollmentId: hint.mfaEnrollmentId))
        let sessionInfo = try #require(started.phoneResponseInfo?.sessionInfo)
        let code = try await harness.smsCode(for: sessionInfo)
        #expect(try await harness.verificationCodes().last?.phoneNumber == "+15555550100")
        await #expect(throws: server("INVALID_CODE")) {
            try await harness.api.call(FinalizeMfaSignInRequest(mfaPendingCredential: pending,
                                                                phoneVerificationInfo: PhoneVerificationInfo(sessionInfo: sessionInfo, code: code == "123456" ? "654321" : "123456")))
        }
        let done = try await harness.api.call(FinalizeMfaSignInRequest(mfaPendingCredential: pending,
                                                                      phoneVerificationInfo: PhoneVerificationInfo(sessionInfo: sessionInfo, code: code)))
        let firebase = firebaseClaims(of: done.idToken)
        #expect(firebase["sign_in_second_factor"] as? String == "phone")
        #expect(firebase["second_factor_identifier"] as? String == hint.mfaEnrollmentId)
        #expect(firebase["sign_in_provider"] as? String == "password")
        #expect(int(claims(of: done.idToken)["auth_time"]) == harness.clock.seconds)
        #expect(try await harness.lookup(done.idToken)?.lastLoginAt == String(Int64(harness.clock.seconds) * 1000))
        // A used code does not finish a new sign-in.
        let again = try #require(try await harness.signIn("ada@example.com").mfaPendingCredential)
        await #expect(throws: server("INVALID_SESSION_INFO")) {
            try await harness.api.call(FinalizeMfaSignInRequest(mfaPendingCredential: again,
                                                                phoneVerificationInfo: PhoneVerificationInfo(sessionInfo: sessionInfo, code: code)))
        }
    }

    @Test func totpEnrollmentAndSignInRefuseAReplayedCode() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        let ada = try await harness.verifiedUser("ada@example.com")
        let started = try await harness.api.call(StartMfaEnrollmentRequest(idToken: ada.idToken ?? "", totpEnrollmentInfo: TotpEnrollmentInfo()))
        let info = try #require(started.totpSessionInfo)
        #expect(info.verificationCodeLength == 6)
        #expect(info.hashingAlgorithm == "SHA1")
        #expect(info.periodSec == 30)
        #expect(info.sharedSecretKey.count == 32)
        #expect(info.finalizeEnrollmentTime == "2025-06-15T15:16:40.000Z")
        let secret = try #require(base32Decode(info.sharedSecretKey))
        let now = Int64(harness.clock.seconds)
        let wrong = Totp.code(secret: secret, at: now + 3600)
        await #expect(throws: server("INVALID_CODE")) {
            try await harness.api.call(FinalizeMfaEnrollmentRequest(idToken: ada.idToken ?? "", totpVerificationInfo: TotpVerificationInfo(sessionInfo: info.sessionInfo, verificationCode: wrong)))
        }
        let enrolled = try await harness.api.call(FinalizeMfaEnrollmentRequest(
            idToken: ada.idToken ?? "", displayName: "Authenticator",
            totpVerificationInfo: TotpVerificationInfo(sessionInfo: info.sessionInfo, verificationCode: Totp.code(secret: secret, at: now))))
        #expect(firebaseClaims(of: enrolled.idToken)["sign_in_second_factor"] as? String == "totp")
        let factor = try #require(try await harness.lookup(enrolled.idToken)?.mfaInfo?.first)
        #expect(factor.totpInfo != nil && factor.phoneInfo == nil)

        let pending = try #require(try await harness.signIn("ada@example.com").mfaPendingCredential)
        // The code that enrolled the factor cannot sign in (RFC 6238 §5.2); the next one can.
        await #expect(throws: server("INVALID_CODE")) {
            try await harness.api.call(FinalizeMfaSignInRequest(mfaPendingCredential: pending, mfaEnrollmentId: factor.mfaEnrollmentId,
                                                                totpVerificationInfo: TotpVerificationInfo(verificationCode: Totp.code(secret: secret, at: now))))
        }
        await #expect(throws: server("INVALID_ARGUMENT : MFA provider not supported!")) {
            try await harness.api.call(StartMfaSignInRequest(mfaPendingCredential: pending, mfaEnrollmentId: factor.mfaEnrollmentId))
        }
        harness.clock.advance(30)
        let code = Totp.code(secret: secret, at: Int64(harness.clock.seconds))
        let done = try await harness.api.call(FinalizeMfaSignInRequest(mfaPendingCredential: pending, mfaEnrollmentId: factor.mfaEnrollmentId,
                                                                      totpVerificationInfo: TotpVerificationInfo(verificationCode: code)))
        #expect(firebaseClaims(of: done.idToken)["sign_in_second_factor"] as? String == "totp")
        #expect(firebaseClaims(of: done.idToken)["second_factor_identifier"] as? String == factor.mfaEnrollmentId)
        // The spent pending credential is refused; a new sign-in cannot replay the code either.
        await #expect(throws: server("INVALID_MFA_PENDING_CREDENTIAL")) {
            try await harness.api.call(FinalizeMfaSignInRequest(mfaPendingCredential: pending, mfaEnrollmentId: factor.mfaEnrollmentId,
                                                                totpVerificationInfo: TotpVerificationInfo(verificationCode: code)))
        }
        let again = try #require(try await harness.signIn("ada@example.com").mfaPendingCredential)
        await #expect(throws: server("INVALID_CODE")) {
            try await harness.api.call(FinalizeMfaSignInRequest(mfaPendingCredential: again, mfaEnrollmentId: factor.mfaEnrollmentId,
                                                                totpVerificationInfo: TotpVerificationInfo(verificationCode: code)))
        }
    }

    @Test func wrongTotpCodesLockTheFactor() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        let ada = try await harness.verifiedUser("ada@example.com")
        let (enrolled, secret) = try await harness.enrollTotp(ada.idToken)
        let factorId = try #require(try await harness.lookup(enrolled.idToken)?.mfaInfo?.first?.mfaEnrollmentId)
        harness.clock.advance(30)
        let pending = try #require(try await harness.signIn("ada@example.com").mfaPendingCredential)
        func attempt(_ code: String) async throws -> MfaTokensResponse {
            try await harness.api.call(FinalizeMfaSignInRequest(mfaPendingCredential: pending, mfaEnrollmentId: factorId,
                                                                totpVerificationInfo: TotpVerificationInfo(verificationCode: code)))
        }
        let wrong = Totp.code(secret: secret, at: Int64(harness.clock.seconds) + 3600)
        for _ in 0..<4 { await #expect(throws: server("INVALID_CODE")) { try await attempt(wrong) } }
        let tooMany = server("TOO_MANY_ATTEMPTS_TRY_LATER : Too many wrong codes: this verification no longer accepts any. Request a new code, or wait.")
        await #expect(throws: tooMany) { try await attempt(wrong) }
        await #expect(throws: tooMany) { try await attempt(Totp.code(secret: secret, at: Int64(harness.clock.seconds))) }
        harness.clock.advance(901)
        let fresh = try #require(try await harness.signIn("ada@example.com").mfaPendingCredential)
        _ = try await harness.api.call(FinalizeMfaSignInRequest(mfaPendingCredential: fresh, mfaEnrollmentId: factorId,
                                                                totpVerificationInfo: TotpVerificationInfo(verificationCode: Totp.code(secret: secret, at: Int64(harness.clock.seconds)))))
    }

    @Test func aTotpEnrollmentSessionExpires() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        let ada = try await harness.verifiedUser("ada@example.com")
        let info = try #require(try await harness.api.call(StartMfaEnrollmentRequest(idToken: ada.idToken ?? "", totpEnrollmentInfo: TotpEnrollmentInfo())).totpSessionInfo)
        harness.clock.advance(601)
        let secret = try #require(base32Decode(info.sharedSecretKey))
        let fresh = try await harness.signIn("ada@example.com")
        await #expect(throws: server("SESSION_EXPIRED")) {
            try await harness.api.call(FinalizeMfaEnrollmentRequest(idToken: fresh.idToken ?? "", totpVerificationInfo: TotpVerificationInfo(
                sessionInfo: info.sessionInfo, verificationCode: Totp.code(secret: secret, at: Int64(harness.clock.seconds)))))
        }
    }

    @Test func pendingCredentialsAreUnforgeableAndExpire() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        let ada = try await harness.verifiedUser("ada@example.com")
        let enrolled = try await harness.enrollPhone(ada.idToken, "+15555550100")
        let factorId = try #require(try await harness.lookup(enrolled.idToken)?.mfaInfo?.first?.mfaEnrollmentId)
        let pending = try #require(try await harness.signIn("ada@example.com").mfaPendingCredential)

        // Change the user the credential names, keep the signature: refused.
        let parts = pending.split(separator: ".").map(String.init)
        var payload = claims(of: pending)
        payload["sub"] = "someoneElse00000000000000000"
        let forgedPayload = try JSONSerialization.data(withJSONObject: payload, options: [.sortedKeys]).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        let forged = [parts[0], forgedPayload, parts[2]].joined(separator: ".")
        for credential in [forged, "bm90IGEgY3JlZGVudGlhbA=="] {
            await #expect(throws: server("INVALID_MFA_PENDING_CREDENTIAL")) {
                try await harness.api.call(StartMfaSignInRequest(mfaPendingCredential: credential, mfaEnrollmentId: factorId))
            }
        }
        await #expect(throws: server("MISSING_MFA_PENDING_CREDENTIAL : Request does not have MFA pending credential.")) {
            try await harness.api.call(StartMfaSignInRequest(mfaPendingCredential: "", mfaEnrollmentId: factorId))
        }
        await #expect(throws: server("MISSING_MFA_ENROLLMENT_ID : No second factor identifier is provided.")) {
            try await harness.api.call(StartMfaSignInRequest(mfaPendingCredential: pending, mfaEnrollmentId: ""))
        }
        await #expect(throws: server("MFA_ENROLLMENT_NOT_FOUND")) {
            try await harness.api.call(StartMfaSignInRequest(mfaPendingCredential: pending, mfaEnrollmentId: "unknown"))
        }
        await #expect(throws: server("MISSING_CREDENTIAL : Please set MFA Pending Credential.")) {
            try await harness.api.call(FinalizeMfaSignInRequest(mfaPendingCredential: "", totpVerificationInfo: TotpVerificationInfo(verificationCode: "123456")))
        }
        await #expect(throws: server("INVALID_ARGUMENT : MFA provider not supported!")) {
            try await harness.api.call(FinalizeMfaSignInRequest(mfaPendingCredential: pending))
        }
        await #expect(throws: server("MISSING_MFA_ENROLLMENT_ID : No second factor identifier is provided.")) {
            try await harness.api.call(FinalizeMfaSignInRequest(mfaPendingCredential: pending, totpVerificationInfo: TotpVerificationInfo(verificationCode: "123456")))
        }

        harness.clock.advance(601)
        await #expect(throws: server("INVALID_MFA_PENDING_CREDENTIAL : The MFA pending credential has expired; sign in with the first factor again.")) {
            try await harness.api.call(StartMfaSignInRequest(mfaPendingCredential: pending, mfaEnrollmentId: factorId))
        }
    }

    @Test func aPasswordChangeVoidsOutstandingPendingCredentials() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        let ada = try await harness.verifiedUser("ada@example.com")
        let enrolled = try await harness.enrollPhone(ada.idToken, "+15555550100")
        let factorId = try #require(try await harness.lookup(enrolled.idToken)?.mfaInfo?.first?.mfaEnrollmentId)
        let pending = try #require(try await harness.signIn("ada@example.com").mfaPendingCredential)
        harness.clock.advance(1)
        _ = try await harness.api.call(AccountsUpdateRequest(idToken: enrolled.idToken, password: "changed-1"))
        await #expect(throws: server("INVALID_MFA_PENDING_CREDENTIAL")) {
            try await harness.api.call(StartMfaSignInRequest(mfaPendingCredential: pending, mfaEnrollmentId: factorId))
        }
    }

    @Test func anSmsChallengeOfOneAccountCannotFinishAnothersSignIn() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        let ada = try await harness.verifiedUser("ada@example.com")
        let bob = try await harness.verifiedUser("bob@example.com")
        let adaFactor = try await harness.enrollPhone(ada.idToken, "+15555550100")
        _ = try await harness.enrollPhone(bob.idToken, "+15555550200")
        let adaHint = try #require(try await harness.lookup(adaFactor.idToken)?.mfaInfo?.first?.mfaEnrollmentId)
        let adaPending = try #require(try await harness.signIn("ada@example.com").mfaPendingCredential)
        let bobPending = try #require(try await harness.signIn("bob@example.com").mfaPendingCredential)
        await #expect(throws: server("MFA_ENROLLMENT_NOT_FOUND")) {
            try await harness.api.call(StartMfaSignInRequest(mfaPendingCredential: bobPending, mfaEnrollmentId: adaHint))
        }
        let started = try await harness.api.call(StartMfaSignInRequest(mfaPendingCredential: adaPending, mfaEnrollmentId: adaHint))
        let sessionInfo = try #require(started.phoneResponseInfo?.sessionInfo)
        await #expect(throws: server("INVALID_SESSION_INFO")) {
            try await harness.api.call(FinalizeMfaSignInRequest(mfaPendingCredential: bobPending,
                                                                phoneVerificationInfo: PhoneVerificationInfo(sessionInfo: sessionInfo, code: harness.smsCode(for: sessionInfo))))
        }
    }

    @Test func withdrawingNeedsARecentSignInAndEndsOtherSessions() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        let ada = try await harness.verifiedUser("ada@example.com")
        let enrolled = try await harness.enrollPhone(ada.idToken, "+15555550100")
        let factorId = try #require(try await harness.lookup(enrolled.idToken)?.mfaInfo?.first?.mfaEnrollmentId)
        await #expect(throws: server("MISSING_MFA_ENROLLMENT_ID : No second factor identifier is provided.")) {
            try await harness.api.call(WithdrawMfaRequest(idToken: enrolled.idToken, mfaEnrollmentId: ""))
        }
        await #expect(throws: server("MFA_ENROLLMENT_NOT_FOUND")) {
            try await harness.api.call(WithdrawMfaRequest(idToken: enrolled.idToken, mfaEnrollmentId: "unknown"))
        }
        harness.clock.advance(301)
        let stale = try await harness.refresh(enrolled.refreshToken)
        await #expect(throws: server("CREDENTIAL_TOO_OLD_LOGIN_AGAIN")) {
            try await harness.api.call(WithdrawMfaRequest(idToken: stale.idToken, mfaEnrollmentId: factorId))
        }

        let pending = try #require(try await harness.signIn("ada@example.com").mfaPendingCredential)
        let started = try await harness.api.call(StartMfaSignInRequest(mfaPendingCredential: pending, mfaEnrollmentId: factorId))
        let sessionInfo = try #require(started.phoneResponseInfo?.sessionInfo)
        let fresh = try await harness.api.call(FinalizeMfaSignInRequest(mfaPendingCredential: pending,
                                                                       phoneVerificationInfo: PhoneVerificationInfo(sessionInfo: sessionInfo, code: harness.smsCode(for: sessionInfo))))
        let withdrawn = try await harness.api.call(WithdrawMfaRequest(idToken: fresh.idToken, mfaEnrollmentId: factorId))
        // The factor this session used is gone, so the new tokens no longer name it.
        #expect(firebaseClaims(of: withdrawn.idToken)["sign_in_second_factor"] == nil)
        #expect(try await harness.lookup(withdrawn.idToken)?.mfaInfo == nil)
        await #expect(throws: server("TOKEN_EXPIRED")) { try await harness.refresh(fresh.refreshToken) }
        _ = try await harness.refresh(withdrawn.refreshToken)
        #expect(try await harness.signIn("ada@example.com").idToken != nil)
    }

    @Test func aFederatedSignInAsksForTheSecondFactorToo() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        let ada = try await harness.verifiedUser("ada@gmail.com")
        let (_, secret) = try await harness.enrollTotp(ada.idToken)
        let identity = try await harness.addIdentity("google.com", "Ada Lovelace", "ada@gmail.com")
        let answer = try await harness.authorize("google.com", identity.subject)
        harness.clock.advance(30)
        let first = try await harness.signInWithIdp(postBody("google.com", idToken: answer.idToken))
        #expect(first.localId == ada.localId)
        #expect(first.idToken == nil && first.refreshToken == nil)
        let pending = try #require(first.mfaPendingCredential)
        let hint = try #require(first.mfaInfo?.first)
        #expect(hint.totpInfo != nil)
        let done = try await harness.api.call(FinalizeMfaSignInRequest(
            mfaPendingCredential: pending, mfaEnrollmentId: hint.mfaEnrollmentId,
            totpVerificationInfo: TotpVerificationInfo(verificationCode: Totp.code(secret: secret, at: Int64(harness.clock.seconds)))))
        let firebase = firebaseClaims(of: done.idToken)
        #expect(firebase["sign_in_provider"] as? String == "google.com")
        #expect(firebase["sign_in_second_factor"] as? String == "totp")
    }
}
