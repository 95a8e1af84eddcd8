import Foundation
import GRDB
import IdentityToolkit

extension EmbeddedBackend {
    /// First factors that cannot be combined with a second (Firebase's list).
    static let multiFactorIneligibleProviders: Set<String> = ["anonymous", "phone", "custom", "gc.apple.com"]
    static let maximumSecondFactors = 5
    typealias SecondFactorChallenge = (mfaPendingCredential: String, mfaInfo: [MfaEnrollment])
    private static let pendingCredentialIssuer = "authdeck:mfaPendingCredential"

    // MARK: After the first factor

    /// What a first factor leads to for `user`: nil when it has no second factor (issue tokens), else
    /// the pending credential and the hints to answer with instead of tokens. Every sign-in calls this.
    func secondFactorChallenge(for user: StoredAccount, signInProvider: String) throws -> SecondFactorChallenge? {
        try store.read { try secondFactorChallenge(for: user, signInProvider: signInProvider, in: $0) }
    }

    /// `notAfter`: when the first factor's credential expires (an Apple ID token's ten minutes); the
    /// pending credential never outlives it.
    func secondFactorChallenge(for user: StoredAccount, signInProvider: String, notAfter: Int64? = nil,
                               in db: Database) throws -> SecondFactorChallenge? {
        let enrollments = try user.enrollments(in: db)
        guard !enrollments.isEmpty else { return nil }
        let now = nowSeconds
        // Signed with the ID-token key, under another issuer: unforgeable, expiring, and never mistaken
        // for an ID token (nor an ID token for it).
        var claims: [String: Any] = [
            "iss": Self.pendingCredentialIssuer, "aud": projectId, "sub": user.localId,
            // `jti`: two sign-ins in one second get different credentials, each spent on its own.
            "jti": SecureRandom.bytes(16).base64URLEncodedString(), "sign_in_provider": signInProvider, "iat": now,
            "exp": min(now + Int64(configuration.mfaPendingCredentialLifetime), notAfter ?? .max),
        ]
        // The tenant's only: another tenant's account may have the same uid.
        if let tenantId { claims["tenant"] = tenantId }
        let credential = try signer.sign(claims: claims)
        return (credential, enrollments.map { $0.wire(maskingPhone: true) })
    }

    private struct PendingCredentialClaims: Decodable {
        let iss: String
        let aud: String
        let sub: String
        let iat: Int64
        let exp: Int64
        let signInProvider: String
        let tenant: String?
        enum CodingKeys: String, CodingKey {
            case iss, aud, sub, iat, exp, tenant
            case signInProvider = "sign_in_provider"
        }
    }

    /// The user and first factor a pending credential vouches for, and when it expires.
    private func verifyPendingCredential(_ credential: String)
        throws -> (user: StoredAccount, signInProvider: String, expiresAt: Int64, issuedAt: Int64) {
        guard let payload = signer.verifiedPayload(of: credential),
              let claims = try? JSONDecoder().decode(PendingCredentialClaims.self, from: payload),
              claims.iss == Self.pendingCredentialIssuer, claims.aud == projectId, claims.tenant == tenantId else {
            throw BackendFailure.invalidMfaPendingCredential
        }
        guard claims.exp > nowSeconds else { throw BackendFailure.expiredMfaPendingCredential }
        guard try !store.read({ try SpentPendingCredentialRecord.isSpent(credential, in: $0) }) else {
            throw BackendFailure.invalidMfaPendingCredential
        }
        guard let user = try store.read({ try StoredAccount.fetchOne($0, key: claims.sub) }) else { throw BackendFailure.userNotFound }
        try checkPendingCredential(issuedAt: claims.iat, against: user)
        return (user, claims.signInProvider, claims.exp, claims.iat)
    }

    /// A disable, and a password change or revocation since the first factor, void a pending credential.
    private func checkPendingCredential(issuedAt: Int64, against user: StoredAccount) throws {
        guard !user.disabled else { throw BackendFailure.userDisabled }
        guard issuedAt >= user.validSince else { throw BackendFailure.invalidMfaPendingCredential }
    }

    // MARK: Enrollment

    private func enrollmentSession(_ idToken: String?) throws -> VerifiedSession {
        let session = try verifySession(idToken: idToken)
        guard !Self.multiFactorIneligibleProviders.contains(session.signInProvider) else { throw BackendFailure.unsupportedFirstFactor }
        guard session.user.email != nil, session.user.emailVerified else { throw BackendFailure.unverifiedEmail }
        return session
    }

    /// `accounts/mfaEnrollment:start`: texts a code to the phone, or hands out a new TOTP secret.
    func startMfaEnrollment(_ body: StartMfaEnrollmentBody) async throws -> StartMfaEnrollmentResponse {
        let session = try enrollmentSession(body.idToken)
        let localId = session.user.localId
        if let phone = body.phoneEnrollmentInfo {
            guard let number = phone.phoneNumber.flatMap(E164PhoneNumber.validated) else { throw BackendFailure.invalidPhoneNumber }
            let record = try await store.write { db in
                let enrollments = try session.user.enrollments(in: db)
                guard !enrollments.contains(where: { $0.phoneNumber == number }) else { throw BackendFailure.secondFactorExists }
                guard enrollments.count < Self.maximumSecondFactors else { throw BackendFailure.secondFactorLimitExceeded }
                return try sendSms(to: number, purpose: .enrollment, localId: localId, in: db)
            }
            return StartMfaEnrollmentResponse(phoneSessionInfo: SessionInfoHolder(sessionInfo: record.sessionInfo))
        }
        guard body.totpEnrollmentInfo != nil else {
            throw BackendFailure.invalidArgument("((Missing phoneEnrollmentInfo or totpEnrollmentInfo.))")
        }
        let expiresAt = nowSeconds + Int64(configuration.totpEnrollmentLifetime)
        let record = TotpEnrollmentSessionRecord(sessionInfo: SecureRandom.bytes(48).base64URLEncodedString(), localId: localId,
                                                 secret: SecureRandom.bytes(Totp.secretLength), expiresAt: expiresAt)
        try await store.write { db in
            guard try session.user.enrollments(in: db).count < Self.maximumSecondFactors else { throw BackendFailure.secondFactorLimitExceeded }
            try db.deleteExpiredVerifications(now: nowSeconds)
            try record.insert(db)
        }
        return StartMfaEnrollmentResponse(totpSessionInfo: .init(
            sharedSecretKey: Base32.encode(record.secret), verificationCodeLength: Totp.digits, hashingAlgorithm: Totp.algorithm,
            periodSec: Int(Totp.period), sessionInfo: record.sessionInfo, finalizeEnrollmentTime: Self.rfc3339(seconds: expiresAt)))
    }

    /// `accounts/mfaEnrollment:finalize`: checks the code and enrolls the factor; the new tokens say
    /// the session now has that second factor.
    func finalizeMfaEnrollment(_ body: FinalizeMfaEnrollmentBody) async throws -> MfaTokensResponse {
        let session = try enrollmentSession(body.idToken)
        let localId = session.user.localId
        let displayName = body.displayName.flatMap { $0.isEmpty ? nil : $0 }
        let enrollmentId = SecureRandom.localId()
        let (enrollment, tokens): (MfaEnrollmentRecord, IssuedTokens) = try await store.writeCommittingFailure { db in
            let record: MfaEnrollmentRecord
            if let phone = body.phoneVerificationInfo {
                let sms: SmsVerificationRecord
                switch try checkSmsCode(sessionInfo: phone.sessionInfo, code: phone.code, purpose: .enrollment, localId: localId, in: db) {
                case let .success(record): sms = record
                case let .failure(failure): return .failure(failure)
                }
                record = MfaEnrollmentRecord(mfaEnrollmentId: enrollmentId, localId: localId, factor: .phone, displayName: displayName,
                                             phoneNumber: sms.phoneNumber, enrolledAt: nowMilliseconds)
            } else if let totp = body.totpVerificationInfo {
                let secret: Data
                let step: Int64
                switch try checkTotpEnrollmentCode(sessionInfo: totp.sessionInfo, code: totp.verificationCode, localId: localId, in: db) {
                case let .success(checked): (secret, step) = checked
                case let .failure(failure): return .failure(failure)
                }
                record = MfaEnrollmentRecord(mfaEnrollmentId: enrollmentId, localId: localId, factor: .totp, displayName: displayName,
                                             totpSecret: secret, enrolledAt: nowMilliseconds, lastTotpStep: step)
            } else {
                throw BackendFailure.invalidArgument("((Missing phoneVerificationInfo or totpVerificationInfo.))")
            }
            let enrollments = try session.user.enrollments(in: db)
            if let number = record.phoneNumber, enrollments.contains(where: { $0.phoneNumber == number }) {
                throw BackendFailure.secondFactorExists
            }
            guard enrollments.count < Self.maximumSecondFactors else { throw BackendFailure.secondFactorLimitExceeded }
            // The factor and the session it starts, in one transaction on the account checked again: a revocation
            // committed since the ID token was checked enrolls nothing.
            let user = try currentUser(of: session, in: db)
            try record.insert(db)
            return .success((record, try startSession(for: user, signInProvider: session.signInProvider, authTime: session.authTime,
                                                      secondFactor: SecondFactor(factor: record.factor, mfaEnrollmentId: record.mfaEnrollmentId),
                                                      in: db)))
        }
        logger.info("second factor enrolled", metadata: ["localId": "\(localId)", "factor": "\(enrollment.factor.rawValue)"])
        return MfaTokensResponse(idToken: try tokens.idToken, refreshToken: try tokens.refreshToken)
    }

    /// Checks the first code of a TOTP enrollment; on success consumes the session and returns the
    /// secret and the time step used.
    private func checkTotpEnrollmentCode(sessionInfo: String?, code: String?, localId: String,
                                         in db: Database) throws -> Result<(Data, Int64), BackendFailure> {
        guard let sessionInfo, !sessionInfo.isEmpty else { return .failure(.missingSessionInfo) }
        guard let code, !code.isEmpty else { return .failure(.missingCode) }
        guard var record = try TotpEnrollmentSessionRecord.fetchOne(db, key: sessionInfo), record.localId == localId else {
            return .failure(.invalidSessionInfo)
        }
        guard record.expiresAt > nowSeconds else { return .failure(.sessionExpired) }
        guard record.failedAttempts < configuration.maxVerificationAttempts else { return .failure(.tooManyWrongCodes) }
        guard let step = Totp.matchingStep(of: code, secret: record.secret, at: nowSeconds,
                                           window: configuration.totpAdjacentIntervals, after: nil) else {
            record.failedAttempts += 1
            try record.update(db)
            return .failure(record.failedAttempts >= configuration.maxVerificationAttempts ? .tooManyWrongCodes : .invalidCode)
        }
        try record.delete(db)
        return .success((record.secret, step))
    }

    /// `accounts/mfaEnrollment:withdraw`: unenrolls a factor. Sensitive: it needs a recent sign-in,
    /// and it ends the account's other sessions (one of them may have used that factor).
    func withdrawMfa(_ body: WithdrawMfaBody) async throws -> MfaTokensResponse {
        let session = try verifySession(idToken: body.idToken)
        guard let enrollmentId = body.mfaEnrollmentId, !enrollmentId.isEmpty else { throw BackendFailure.missingMfaEnrollmentId }
        try requireRecentSignIn(session)
        let tokens = try await store.write { db in
            var user = try currentUser(of: session, in: db)
            guard let enrollment = try MfaEnrollmentRecord.find(enrollmentId, of: user.localId, in: db) else {
                throw BackendFailure.mfaEnrollmentNotFound
            }
            try enrollment.delete(db)
            user.revokeTokens(at: nowMilliseconds)
            try user.update(db)
            try AccountSessions.revokeAll(localId: user.localId, in: db)
            let kept = session.secondFactor?.mfaEnrollmentId == enrollmentId ? nil : session.secondFactor
            return try startSession(for: user, signInProvider: session.signInProvider, authTime: session.authTime, secondFactor: kept, in: db)
        }
        return MfaTokensResponse(idToken: try tokens.idToken, refreshToken: try tokens.refreshToken)
    }

    // MARK: Second-factor sign-in

    /// `accounts/mfaSignIn:start`: texts a code to the chosen phone factor.
    func startMfaSignIn(_ body: StartMfaSignInBody) async throws -> StartMfaSignInResponse {
        guard let credential = body.mfaPendingCredential, !credential.isEmpty else { throw BackendFailure.missingMfaPendingCredential }
        guard let enrollmentId = body.mfaEnrollmentId, !enrollmentId.isEmpty else { throw BackendFailure.missingMfaEnrollmentId }
        let (user, _, _, _) = try verifyPendingCredential(credential)
        let record = try await store.write { db in
            guard let enrollment = try MfaEnrollmentRecord.find(enrollmentId, of: user.localId, in: db) else {
                throw BackendFailure.mfaEnrollmentNotFound
            }
            guard enrollment.factor == .phone, let phone = enrollment.phoneNumber else { throw BackendFailure.mfaProviderNotSupported }
            return try sendSms(to: phone, purpose: .multiFactorSignIn, localId: user.localId, mfaEnrollmentId: enrollmentId, in: db)
        }
        return StartMfaSignInResponse(phoneResponseInfo: SessionInfoHolder(sessionInfo: record.sessionInfo))
    }

    /// `accounts/mfaSignIn:finalize`: the second factor's proof; the sign-in completes with tokens
    /// that name the factor (`sign_in_second_factor`, `second_factor_identifier`).
    func finalizeMfaSignIn(_ body: FinalizeMfaSignInBody) async throws -> MfaTokensResponse {
        guard let credential = body.mfaPendingCredential, !credential.isEmpty else { throw BackendFailure.missingPendingCredentialOnFinalize }
        guard body.phoneVerificationInfo != nil || body.totpVerificationInfo != nil else { throw BackendFailure.mfaProviderNotSupported }
        let (user, signInProvider, expiresAt, issuedAt) = try verifyPendingCredential(credential)
        let secondFactor: SecondFactor = try await store.writeCommittingFailure { db in
            if let phone = body.phoneVerificationInfo {
                let sms: SmsVerificationRecord
                switch try checkSmsCode(sessionInfo: phone.sessionInfo, code: phone.code, purpose: .multiFactorSignIn,
                                        localId: user.localId, in: db) {
                case let .success(record): sms = record
                case let .failure(failure): return .failure(failure)
                }
                guard let enrollmentId = sms.mfaEnrollmentId, try MfaEnrollmentRecord.find(enrollmentId, of: user.localId, in: db) != nil else {
                    throw BackendFailure.mfaEnrollmentNotFound
                }
                return .success(SecondFactor(factor: .phone, mfaEnrollmentId: enrollmentId))
            }
            guard let enrollmentId = body.mfaEnrollmentId, !enrollmentId.isEmpty else { return .failure(.missingMfaEnrollmentId) }
            guard var enrollment = try MfaEnrollmentRecord.find(enrollmentId, of: user.localId, in: db) else {
                return .failure(.mfaEnrollmentNotFound)
            }
            guard enrollment.factor == .totp, let secret = enrollment.totpSecret else { return .failure(.mfaProviderNotSupported) }
            let now = clock().timeIntervalSince1970
            if let lockedUntil = enrollment.lockedUntil, lockedUntil > now { return .failure(.tooManyWrongCodes) }
            guard let code = body.totpVerificationInfo?.verificationCode, !code.isEmpty else { return .failure(.missingCode) }
            guard let step = Totp.matchingStep(of: code, secret: secret, at: nowSeconds, window: configuration.totpAdjacentIntervals,
                                               after: enrollment.lastTotpStep) else {
                enrollment.failedAttempts += 1
                let locked = enrollment.failedAttempts >= configuration.maxVerificationAttempts
                if locked {
                    enrollment.failedAttempts = 0
                    enrollment.lockedUntil = now + configuration.lockoutDuration
                    logger.notice("TOTP factor locked after repeated wrong codes", metadata: ["localId": "\(user.localId)"])
                }
                try enrollment.update(db)
                return .failure(locked ? .tooManyWrongCodes : .invalidCode)
            }
            enrollment.lastTotpStep = step
            enrollment.failedAttempts = 0
            enrollment.lockedUntil = nil
            try enrollment.update(db)
            return .success(SecondFactor(factor: .totp, mfaEnrollmentId: enrollmentId))
        }
        let tokens = try await store.write { db in
            // Spent in the transaction that completes the sign-in: a second finalize, even a concurrent one, is refused.
            try SpentPendingCredentialRecord.spend(credential, expiresAt: expiresAt, now: nowSeconds, in: db)
            guard var current = try StoredAccount.fetchOne(db, key: user.localId) else { throw BackendFailure.userNotFound }
            // Checked again here: a revocation may have committed since the credential was first checked.
            try checkPendingCredential(issuedAt: issuedAt, against: current)
            try FailedSignInRecord.clear(email: current.email, in: db)
            current.lastLoginAt = nowMilliseconds
            try current.update(db)
            return try startSession(for: current, signInProvider: signInProvider, authTime: nowSeconds, secondFactor: secondFactor, in: db)
        }
        return MfaTokensResponse(idToken: try tokens.idToken, refreshToken: try tokens.refreshToken)
    }

    /// Value types, made once: an `ISO8601DateFormatter` per call costs 14 % of a lookup.
    static let rfc3339Style = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
    private static let rfc3339SecondsStyle = Date.ISO8601FormatStyle()

    /// The milliseconds are written from the integer: through a `Date` (a binary fraction)
    /// the style would cut .123 to .122.
    static func rfc3339(milliseconds: Int64) -> String {
        var (seconds, fraction) = milliseconds.quotientAndRemainder(dividingBy: 1000)
        if fraction < 0 {
            seconds -= 1
            fraction += 1000
        }
        let whole = Date(timeIntervalSince1970: TimeInterval(seconds)).formatted(rfc3339SecondsStyle)  // …:09Z
        let digits = String(fraction)
        return whole.dropLast() + "." + String(repeating: "0", count: 3 - digits.count) + digits + "Z"
    }

    static func rfc3339(seconds: Int64) -> String { rfc3339(milliseconds: seconds * 1000) }
}

extension StoredAccount {
    func enrollments(in db: Database) throws -> [MfaEnrollmentRecord] {
        // A statement prepared once per connection: every lookup asks.
        try MfaEnrollmentRecord.fetchAll(db.cachedStatement(sql: "SELECT * FROM \(MfaEnrollmentRecord.databaseTableName) WHERE localId = ? ORDER BY enrolledAt"),
                                         arguments: [localId])
    }
}

extension MfaEnrollmentRecord {
    /// The `mfaInfo` entry: lookup shows the number, sign-in hints only its last four digits.
    func wire(maskingPhone: Bool) -> MfaEnrollment {
        MfaEnrollment(mfaEnrollmentId: mfaEnrollmentId, displayName: displayName,
                      enrolledAt: EmbeddedBackend.rfc3339(milliseconds: enrolledAt),
                      phoneInfo: phoneNumber.map { maskingPhone ? Self.masked($0) : $0 },
                      unobfuscatedPhoneInfo: maskingPhone ? nil : phoneNumber,
                      totpInfo: factor == .totp ? MfaEnrollment.TotpInfo() : nil)
    }

    /// All digits but the last four become `*`: `+15555550100` → `+*******0100`.
    static func masked(_ phone: String) -> String {
        var remaining = 4
        return String(phone.reversed().map { character -> Character in
            guard character.isNumber else { return character }
            if remaining > 0 {
                remaining -= 1
                return character
            }
            return "*"
        }.reversed())
    }
}
