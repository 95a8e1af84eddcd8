@testable import AuthClient
import Foundation
@testable import IdentityEmulator
import IdentityTestSupport
import IdentityToolkit
import Testing

extension Harness {
    var outbox: AuthEmulatorOutbox { AuthEmulatorOutbox(backend: served.makeTransport(), projectId: served.backend.projectId) }

    func code(for verificationID: String) async throws -> String {
        try #require(try await outbox.texts().first { $0.verificationID == verificationID }?.code)
    }

    /// Signs up and verifies the email through the outbox, as MFA requires.
    func verifiedUser(_ auth: Auth, _ email: String, _ password: String = "hunter22") async throws -> User {
        _ = try await auth.createUser(email: email, password: password)
        try await auth.sendEmailVerification()
        let oob = try #require(try await outbox.emails().last { $0.to == email && $0.action == .verifyEmail })
        try await auth.applyActionCode(oob.oobCode)
        return try #require(await auth.currentUser)
    }

    func enrollPhone(_ auth: Auth, _ phone: String, name: String) async throws {
        let session = try await auth.multiFactor.session()
        let verificationID = try await PhoneAuthProvider.provider(auth: auth).verifyPhoneNumber(phone, multiFactorSession: session)
        let credential = PhoneAuthProvider.credential(withVerificationID: verificationID, verificationCode: try await code(for: verificationID))
        try await auth.multiFactor.enroll(with: PhoneMultiFactorGenerator.assertion(with: credential), displayName: name)
    }

    /// The current code of a TOTP secret, as an authenticator app computes it.
    func totp(_ secret: TotpSecret, offset: TimeInterval = 0) throws -> String {
        let key = try #require(base32Decode(secret.sharedSecretKey))
        return Totp.code(secret: key, at: Int64(clock.read().timeIntervalSince1970 + offset))
    }
}

func base32Decode(_ text: String) -> Data? {
    let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567")
    var bytes = [UInt8]()
    var buffer = 0
    var bits = 0
    for character in text {
        guard let value = alphabet.firstIndex(of: character) else { return nil }
        buffer = (buffer << 5) | value
        bits += 5
        if bits >= 8 {
            bytes.append(UInt8((buffer >> (bits - 8)) & 0xFF))
            bits -= 8
        }
    }
    return Data(bytes)
}

/// The error a sign-in on `auth` raised, which must be `secondFactorRequired` with a challenge; its resolver on `auth`.
func secondFactorResolver(_ auth: Auth, _ body: () async throws -> Void) async throws -> MultiFactorResolver {
    do {
        try await body()
    } catch let error as AuthError where error.code == .secondFactorRequired {
        return try #require(auth.multiFactorResolver(for: error))
    }
    Issue.record("the sign-in did not ask for a second factor")
    throw AuthError(.internalError)
}

@Suite("Email actions, phone and second factors against the embedded backend, in process and over HTTP", .timeLimit(.minutes(3)))
struct MultiFactorClientTests {
    @Test(arguments: BackendTransport.allCases)
    func verifyEmailAndResetAForgottenPasswordThroughTheOutbox(_ transport: BackendTransport) async throws {
        try await withHarness(transport) { harness in
            let auth = harness.auth()
            let user = try await harness.verifiedUser(auth, "ada@example.com")
            #expect(user.emailVerified)
            #expect(try await auth.idTokenResult(forceRefresh: true).claims["email_verified"] == .bool(true))

            await auth.signOut()
            try await auth.sendPasswordReset(withEmail: "nobody@example.com")
            try await auth.sendPasswordReset(withEmail: "ada@example.com")
            let reset = try #require(try await harness.outbox.emails().last { $0.action == .resetPassword })
            #expect(reset.to == "ada@example.com")
            #expect(try await auth.verifyPasswordResetCode(reset.oobCode) == "ada@example.com")
            await expectAuthError(.weakPassword) { try await auth.confirmPasswordReset(withCode: reset.oobCode, newPassword: "12345") }
            try await auth.confirmPasswordReset(withCode: reset.oobCode, newPassword: "new-pass-1")
            await expectAuthError(.invalidActionCode) { try await auth.confirmPasswordReset(withCode: reset.oobCode, newPassword: "new-pass-2") }
            await expectAuthError(.invalidCredential) { _ = try await auth.signIn(email: "ada@example.com", password: "hunter22") }
            #expect(try await auth.signIn(email: "ada@example.com", password: "new-pass-1").user.uid == user.uid)
        }
    }

    @Test(arguments: BackendTransport.allCases)
    func smsFactorEnrollmentThenASecondFactorSignIn(_ transport: BackendTransport) async throws {
        try await withHarness(transport) { harness in
            let auth = harness.auth()
            let user = try await harness.verifiedUser(auth, "ada@example.com")
            try await harness.enrollPhone(auth, "+15555550100", name: "Work phone")
            let factors = await auth.multiFactor.enrolledFactors
            guard case let .phone(info)? = factors.first else { Issue.record("no phone factor: \(factors)"); return }
            #expect(factors.count == 1)
            #expect(info.phoneNumber == "+15555550100")
            #expect(info.displayName == "Work phone")
            #expect(info.enrollmentDate == harness.clock.read())
            #expect(try await auth.idTokenResult().signInSecondFactor == "phone")

            await auth.signOut()
            let resolver = try await secondFactorResolver(auth) { _ = try await auth.signIn(email: "ada@example.com", password: "hunter22") }
            #expect(await auth.currentUser == nil)
            #expect(resolver.firstFactorProviderID == "password")
            guard case let .phone(hint)? = resolver.hints.first else { Issue.record("no phone hint"); return }
            #expect(hint.phoneNumber == "+*******0100")
            #expect(hint.uid == info.uid)

            let verificationID = try await PhoneAuthProvider.provider(auth: auth).verifyPhoneNumber(with: hint, multiFactorSession: resolver.session)
            let code = try await harness.code(for: verificationID)
            let wrong = PhoneAuthProvider.credential(withVerificationID: verificationID, verificationCode: code == "000000" ? "111111" : "000000")
            await expectAuthError(.invalidVerificationCode) { _ = try await resolver.resolveSignIn(with: PhoneMultiFactorGenerator.assertion(with: wrong)) }
            let right = PhoneAuthProvider.credential(withVerificationID: verificationID, verificationCode: code)
            let result = try await resolver.resolveSignIn(with: PhoneMultiFactorGenerator.assertion(with: right))
            #expect(result.user.uid == user.uid)
            #expect(result.additionalUserInfo?.providerID == "password")
            let token = try await auth.idTokenResult()
            #expect(token.signInSecondFactor == "phone")
            #expect(token.claims["firebase"]?["second_factor_identifier"]?.stringValue == info.uid)
        }
    }

    @Test(arguments: BackendTransport.allCases)
    func totpFactorEnrollmentThenASecondFactorSignIn(_ transport: BackendTransport) async throws {
        try await withHarness(transport) { harness in
            let auth = harness.auth()
            _ = try await harness.verifiedUser(auth, "ada@example.com")
            let secret = try await TotpMultiFactorGenerator.generateSecret(with: auth.multiFactor.session())
            #expect(secret.codeLength == 6 && secret.codeIntervalSeconds == 30 && secret.hashingAlgorithm == "SHA1")
            #expect(!secret.description.contains(secret.sharedSecretKey))
            #expect(secret.generateQrCodeUrl(accountName: "ada@example.com", issuer: "AuthDeck")
                    == "otpauth://totp/AuthDeck:ada@example.com?secret=\(secret.sharedSecretKey)&issuer=AuthDeck")
            await expectAuthError(.invalidVerificationCode) {
                try await auth.multiFactor.enroll(with: TotpMultiFactorGenerator.assertionForEnrollment(with: secret, oneTimePassword: harness.totp(secret, offset: 3600)),
                                                  displayName: "Phone app")
            }
            try await auth.multiFactor.enroll(with: TotpMultiFactorGenerator.assertionForEnrollment(with: secret, oneTimePassword: harness.totp(secret)),
                                              displayName: "Phone app")
            guard case let .totp(info)? = await auth.multiFactor.enrolledFactors.first else { Issue.record("no TOTP factor"); return }
            #expect(info.displayName == "Phone app")

            await auth.signOut()
            harness.clock.advance(30)
            let resolver = try await secondFactorResolver(auth) { _ = try await auth.signIn(email: "ada@example.com", password: "hunter22") }
            #expect(resolver.hints == [.totp(info)])
            let result = try await resolver.resolveSignIn(with: TotpMultiFactorGenerator.assertionForSignIn(withEnrollmentID: info.uid, oneTimePassword: harness.totp(secret)))
            #expect(try await auth.idTokenResult().signInSecondFactor == "totp")
            #expect(result.user.enrolledFactors == [.totp(info)])
        }
    }

    @Test(arguments: BackendTransport.allCases)
    func unenrollingNeedsARecentSignInWhichAsksForTheSecondFactorToo(_ transport: BackendTransport) async throws {
        try await withHarness(transport) { harness in
            let auth = harness.auth()
            let user = try await harness.verifiedUser(auth, "ada@example.com")
            try await harness.enrollPhone(auth, "+15555550100", name: "Work phone")
            let factor = try #require(await auth.multiFactor.enrolledFactors.first)
            harness.clock.advance(301)
            await expectAuthError(.requiresRecentLogin) { try await auth.multiFactor.unenroll(with: factor) }
            await expectAuthError(.multiFactorInfoNotFound) { try await auth.multiFactor.unenroll(withFactorUID: "unknown") }

            let resolver = try await secondFactorResolver(auth) {
                _ = try await auth.reauthenticate(with: EmailAuthProvider.credential(withEmail: "ada@example.com", password: "hunter22"))
            }
            guard case let .phone(hint)? = resolver.hints.first else { Issue.record("no hint"); return }
            let verificationID = try await PhoneAuthProvider.provider(auth: auth).verifyPhoneNumber(with: hint, multiFactorSession: resolver.session)
            let credential = PhoneAuthProvider.credential(withVerificationID: verificationID, verificationCode: try await harness.code(for: verificationID))
            #expect(try await resolver.resolveSignIn(with: PhoneMultiFactorGenerator.assertion(with: credential)).user.uid == user.uid)
            let after = try await auth.multiFactor.unenroll(with: factor)
            #expect(after.enrolledFactors.isEmpty)
            await auth.signOut()
            #expect(try await auth.signIn(email: "ada@example.com", password: "hunter22").user.uid == user.uid)
        }
    }

    @Test(arguments: BackendTransport.allCases)
    func aSecondFactorFromAnotherAccountCannotFinishAReauthentication(_ transport: BackendTransport) async throws {
        try await withHarness(transport) { harness in
            let ada = harness.auth(session: "ada.json")
            _ = try await harness.verifiedUser(ada, "ada@example.com")
            let bob = harness.auth(session: "bob.json")
            _ = try await harness.verifiedUser(bob, "bob@example.com")
            try await harness.enrollPhone(bob, "+15555550200", name: "Bob")
            let bobResolver = try await secondFactorResolver(ada) {
                _ = try await ada.reauthenticate(with: EmailAuthProvider.credential(withEmail: "bob@example.com", password: "hunter22"))
            }
            guard case let .phone(hint)? = bobResolver.hints.first else { Issue.record("no hint"); return }
            let verificationID = try await PhoneAuthProvider.provider(auth: ada).verifyPhoneNumber(with: hint, multiFactorSession: bobResolver.session)
            let credential = PhoneAuthProvider.credential(withVerificationID: verificationID, verificationCode: try await harness.code(for: verificationID))
            await expectAuthError(.userMismatch) { _ = try await bobResolver.resolveSignIn(with: PhoneMultiFactorGenerator.assertion(with: credential)) }
            #expect(await ada.currentUser?.email == "ada@example.com")
        }
    }

    @Test(arguments: BackendTransport.allCases)
    func enrollmentErrorsHaveFirebaseCodes(_ transport: BackendTransport) async throws {
        try await withHarness(transport) { harness in
            let auth = harness.auth()
            _ = try await auth.createUser(email: "un@example.com", password: "hunter22")
            await expectAuthError(.unverifiedEmail) { _ = try await TotpMultiFactorGenerator.generateSecret(with: auth.multiFactor.session()) }
            await auth.signOut()
            _ = try await auth.signInAnonymously()
            await expectAuthError(.unsupportedFirstFactor) { _ = try await TotpMultiFactorGenerator.generateSecret(with: auth.multiFactor.session()) }
            await auth.signOut()

            _ = try await harness.verifiedUser(auth, "ada@example.com")
            for index in 0..<5 { try await harness.enrollPhone(auth, "+1555555010\(index)", name: "Phone \(index)") }
            await expectAuthError(.secondFactorAlreadyEnrolled) {
                _ = try await PhoneAuthProvider.provider(auth: auth).verifyPhoneNumber("+15555550100", multiFactorSession: auth.multiFactor.session())
            }
            await expectAuthError(.maximumSecondFactorCountExceeded) {
                _ = try await PhoneAuthProvider.provider(auth: auth).verifyPhoneNumber("+15555550109", multiFactorSession: auth.multiFactor.session())
            }
            await expectAuthError(.invalidPhoneNumber) { _ = try await PhoneAuthProvider.provider(auth: auth).verifyPhoneNumber("555") }
        }
    }

    @Test(arguments: BackendTransport.allCases)
    func aTamperedOrExpiredSessionIsInvalid(_ transport: BackendTransport) async throws {
        try await withHarness(transport) { harness in
            let auth = harness.auth()
            _ = try await harness.verifiedUser(auth, "ada@example.com")
            try await harness.enrollPhone(auth, "+15555550100", name: "Work phone")
            await auth.signOut()
            let resolver = try await secondFactorResolver(auth) { _ = try await auth.signIn(email: "ada@example.com", password: "hunter22") }
            guard case let .phone(hint)? = resolver.hints.first else { Issue.record("no phone hint: \(resolver.hints)"); return }
            guard case let .signIn(pending) = resolver.session.kind else { Issue.record("not a sign-in session: \(resolver.session)"); return }
            let tampered = MultiFactorSession(kind: .signIn(mfaPendingCredential: String(pending.dropLast(4)) + "AAAA"), auth: auth)
            await expectAuthError(.invalidMultiFactorSession) {
                _ = try await PhoneAuthProvider.provider(auth: auth).verifyPhoneNumber(with: hint, multiFactorSession: tampered)
            }
            let verificationID = try await PhoneAuthProvider.provider(auth: auth).verifyPhoneNumber(with: hint, multiFactorSession: resolver.session)
            let code = try await harness.code(for: verificationID)
            harness.clock.advance(601)
            await expectAuthError(.invalidMultiFactorSession) {
                _ = try await resolver.resolveSignIn(with: PhoneMultiFactorGenerator.assertion(
                    with: PhoneAuthProvider.credential(withVerificationID: verificationID, verificationCode: code)))
            }
        }
    }

    @Test(arguments: BackendTransport.allCases)
    func anExpiredSmsCodeIsSessionExpired(_ transport: BackendTransport) async throws {
        try await withHarness(transport) { harness in
            let auth = harness.auth()
            let verificationID = try await PhoneAuthProvider.provider(auth: auth).verifyPhoneNumber("+15555550100")
            let code = try await harness.code(for: verificationID)
            harness.clock.advance(601)
            await expectAuthError(.sessionExpired) {
                _ = try await auth.signIn(with: .phone(PhoneAuthProvider.credential(withVerificationID: verificationID, verificationCode: code)))
            }
        }
    }

    @Test(arguments: BackendTransport.allCases)
    func phoneSignInThenLinkingItFromAnotherAccountOffersThatAccount(_ transport: BackendTransport) async throws {
        try await withHarness(transport) { harness in
            let phoneAuth = harness.auth(session: "phone.json")
            let provider = PhoneAuthProvider.provider(auth: phoneAuth)
            let verificationID = try await provider.verifyPhoneNumber("+15555550100")
            let signedIn = try await phoneAuth.signIn(with: .phone(PhoneAuthProvider.credential(withVerificationID: verificationID,
                                                                                                 verificationCode: harness.code(for: verificationID))))
            #expect(signedIn.additionalUserInfo == AdditionalUserInfo(providerID: "phone", isNewUser: true))
            #expect(signedIn.user.phoneNumber == "+15555550100")
            #expect(signedIn.user.providerData.map(\.providerID) == ["phone"])
            #expect(try await phoneAuth.idTokenResult().signInProvider == "phone")

            let auth = harness.auth()
            _ = try await auth.createUser(email: "ada@example.com", password: "hunter22")
            let linkID = try await PhoneAuthProvider.provider(auth: auth).verifyPhoneNumber("+15555550100")
            let credential = PhoneAuthProvider.credential(withVerificationID: linkID, verificationCode: try await harness.code(for: linkID))
            var updated: AuthCredential?
            do {
                _ = try await auth.link(with: .phone(credential))
                Issue.record("linking a number of another account succeeded")
            } catch let error as AuthError {
                #expect(error.code == .credentialAlreadyInUse)
                updated = error.updatedCredential
            }
            guard case let .phone(proof)? = updated else { Issue.record("no updated credential"); return }
            #expect(proof.phoneNumber == "+15555550100")
            #expect(await auth.currentUser?.phoneNumber == nil)
            let other = try await auth.signIn(with: .phone(proof))
            #expect(other.user.uid == signedIn.user.uid)

            // A number nobody owns links, and keeps the uid.
            _ = try await auth.signIn(email: "ada@example.com", password: "hunter22")
            let freeID = try await PhoneAuthProvider.provider(auth: auth).verifyPhoneNumber("+15555550177")
            let linked = try await auth.link(with: .phone(PhoneAuthProvider.credential(withVerificationID: freeID, verificationCode: harness.code(for: freeID))))
            #expect(linked.user.phoneNumber == "+15555550177")
            #expect(linked.user.providerData.map(\.providerID) == ["password", "phone"])
        }
    }

    @Test(arguments: BackendTransport.allCases)
    func aSessionSavedBeforeSecondFactorsRestores(_ transport: BackendTransport) async throws {
        try await withHarness(transport) { harness in
            let created = try await harness.auth().createUser(email: "old@example.com", password: "hunter22")
            let url = harness.directory.appendingPathComponent("session.json")
            var object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
            var user = try #require(object["user"] as? [String: Any])
            user.removeValue(forKey: "enrolledFactors")
            object["user"] = user
            try JSONSerialization.data(withJSONObject: object).write(to: url)
            let restored = try await harness.auth().restoreSession()
            #expect(restored?.uid == created.user.uid)
            #expect(restored?.enrolledFactors == [])
        }
    }

    @Test(arguments: BackendTransport.allCases)
    func aFederatedSignInOfAnAccountWithASecondFactorGetsTheResolverToo(_ transport: BackendTransport) async throws {
        try await withHarness(transport) { harness in
            let auth = harness.auth()
            let user = try await harness.verifiedUser(auth, "alan@gmail.com")
            try await harness.enrollPhone(auth, "+15555550100", name: "Work phone")
            await auth.signOut()
            let consent = try await harness.consent(google, name: "Alan Turing", email: "alan@gmail.com")
            let resolver = try await secondFactorResolver(auth) { _ = try await auth.signIn(with: consent.credential) }
            #expect(resolver.firstFactorProviderID == "google.com")
            guard case let .phone(hint)? = resolver.hints.first else { Issue.record("no phone hint"); return }
            let verificationID = try await PhoneAuthProvider.provider(auth: auth).verifyPhoneNumber(with: hint, multiFactorSession: resolver.session)
            let credential = PhoneAuthProvider.credential(withVerificationID: verificationID, verificationCode: try await harness.code(for: verificationID))
            let result = try await resolver.resolveSignIn(with: PhoneMultiFactorGenerator.assertion(with: credential))
            #expect(result.user.uid == user.uid)
            #expect(result.additionalUserInfo?.providerID == "google.com")
            let token = try await auth.idTokenResult()
            #expect(token.signInProvider == "google.com")
            #expect(token.signInSecondFactor == "phone")
        }
    }
}
