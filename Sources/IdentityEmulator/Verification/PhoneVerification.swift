import Foundation
import GRDB
import IdentityToolkit

extension EmbeddedBackend {
    /// A fresh 6-digit code for `phoneNumber`, bound to what it is for, in the SMS outbox.
    func sendSms(to phoneNumber: String, purpose: SmsVerificationRecord.Purpose, localId: String? = nil,
                 mfaEnrollmentId: String? = nil, in db: Database) throws -> SmsVerificationRecord {
        try db.deleteExpiredVerifications(now: nowSeconds)
        var generator = SystemRandomNumberGenerator()
        let code = String(format: "%06d", Int.random(in: 0..<1_000_000, using: &generator))
        let record = SmsVerificationRecord(sessionInfo: SecureRandom.bytes(48).base64URLEncodedString(), phoneNumber: phoneNumber,
                                           code: code, purpose: purpose, localId: localId, mfaEnrollmentId: mfaEnrollmentId,
                                           createdAt: nowMilliseconds, expiresAt: nowSeconds + Int64(configuration.verificationCodeLifetime))
        try record.insert(db)
        logger.info("SMS code queued in the outbox", metadata: ["purpose": "\(purpose.rawValue)"])
        return record
    }

    /// Checks an SMS code in `db` and consumes it when right. A wrong code is counted (and stays
    /// counted, whatever the caller does next); the one that reaches the limit voids the verification.
    func checkSmsCode(sessionInfo: String?, code: String?, purpose: SmsVerificationRecord.Purpose, localId: String? = nil,
                      in db: Database) throws -> Result<SmsVerificationRecord, BackendFailure> {
        guard let sessionInfo, !sessionInfo.isEmpty else { return .failure(.missingSessionInfo) }
        guard let code, !code.isEmpty else { return .failure(.missingCode) }
        guard var record = try SmsVerificationRecord.fetchOne(db, key: sessionInfo), record.purpose == purpose,
              localId == nil || record.localId == localId else { return .failure(.invalidSessionInfo) }
        guard record.expiresAt > nowSeconds else { return .failure(.sessionExpired) }
        guard record.failedAttempts < configuration.maxVerificationAttempts else { return .failure(.tooManyWrongCodes) }
        guard record.code == code else {
            record.failedAttempts += 1
            try record.update(db)
            return .failure(record.failedAttempts >= configuration.maxVerificationAttempts ? .tooManyWrongCodes : .invalidCode)
        }
        try record.delete(db)
        return .success(record)
    }

    /// `accounts:sendVerificationCode`: texts a code for phone sign-in or linking.
    func sendVerificationCode(_ body: SendVerificationCodeBody) async throws -> SendVerificationCodeResponse {
        guard let phone = body.phoneNumber.flatMap(E164PhoneNumber.validated) else { throw BackendFailure.invalidPhoneNumber }
        let record = try await store.write { db in
            if let owner = try StoredAccount.filter(StoredAccount.Columns.phoneNumber == phone).fetchOne(db),
               try owner.hasSecondFactors(in: db) {
                throw BackendFailure.phoneFirstFactorOnMultiFactorUser
            }
            return try sendSms(to: phone, purpose: .phoneSignIn, in: db)
        }
        return SendVerificationCodeResponse(sessionInfo: record.sessionInfo)
    }

    /// `accounts:signInWithPhoneNumber`: signs in (creating the account on first use) or, with
    /// `idToken`, links the number. A number owned by another account answers 200 with a
    /// `temporaryProof` that can sign in to that account without a second code.
    func signInWithPhoneNumber(_ body: PhoneSignInBody) async throws -> SignInWithPhoneNumberResponse {
        let linking = try body.idToken.map { try verifySession(idToken: $0) }
        let phone: String
        if let proof = body.temporaryProof {
            guard let number = body.phoneNumber, !number.isEmpty else { throw BackendFailure.missingPhoneNumber }
            let record = try store.read { try PhoneProofRecord.fetchOne($0, key: proof) }
            guard let record, record.phoneNumber == number, record.expiresAt > nowSeconds else { throw BackendFailure.invalidTemporaryProof }
            phone = number
        } else {
            phone = try await store.writeCommittingFailure { db in
                try checkSmsCode(sessionInfo: body.sessionInfo, code: body.code, purpose: .phoneSignIn, in: db).map(\.phoneNumber)
            }
        }

        enum Outcome { case proof(PhoneProofRecord), signedIn(StoredAccount, IssuedTokens, isNewUser: Bool) }
        let outcome = try await store.write { db -> Outcome in
            let owner = try StoredAccount.filter(StoredAccount.Columns.phoneNumber == phone).fetchOne(db)
            if let linking {
                if let owner, owner.localId != linking.user.localId {
                    guard body.temporaryProof == nil else { throw BackendFailure.phoneNumberExists }
                    let proof = PhoneProofRecord(temporaryProof: SecureRandom.bytes(48).base64URLEncodedString(), phoneNumber: phone,
                                                 expiresAt: nowSeconds + Int64(configuration.temporaryProofLifetime))
                    try proof.insert(db)
                    return .proof(proof)
                }
                var user = try currentUser(of: linking, in: db)
                // A phone number that signs in alone would bypass the account's second factor.
                guard try !user.hasSecondFactors(in: db) else { throw BackendFailure.phoneFirstFactorOnMultiFactorUser }
                user.phoneNumber = phone
                try user.update(db)
                try ProviderRecord.phone(localId: user.localId, phoneNumber: phone).upsert(db)
                let tokens = try startSession(for: user, signInProvider: linking.signInProvider, authTime: linking.authTime,
                                              secondFactor: linking.secondFactor, in: db)
                return .signedIn(user, tokens, isNewUser: false)
            }
            if var user = owner {
                guard !user.disabled else { throw BackendFailure.userDisabled }
                guard try !user.hasSecondFactors(in: db) else { throw BackendFailure.phoneFirstFactorOnMultiFactorUser }
                user.lastLoginAt = nowMilliseconds
                try user.update(db)
                return .signedIn(user, try startSession(for: user, signInProvider: "phone", authTime: nowSeconds, in: db), isNewUser: false)
            }
            let user = StoredAccount(localId: SecureRandom.localId(), phoneNumber: phone, validSince: nowSeconds,
                                  createdAt: nowMilliseconds, lastLoginAt: nowMilliseconds, sessionSeal: StoredAccount.newSessionSeal())
            try user.insert(db)
            try ProviderRecord.phone(localId: user.localId, phoneNumber: phone).insert(db)
            return .signedIn(user, try startSession(for: user, signInProvider: "phone", authTime: nowSeconds, in: db), isNewUser: true)
        }
        switch outcome {
        case let .proof(proof):
            return SignInWithPhoneNumberResponse(phoneNumber: phone, temporaryProof: proof.temporaryProof,
                                                 temporaryProofExpiresIn: String(Int64(configuration.temporaryProofLifetime)))
        case let .signedIn(user, tokens, isNewUser):
            return SignInWithPhoneNumberResponse(localId: user.localId, phoneNumber: phone, isNewUser: isNewUser, idToken: try tokens.idToken,
                                                 refreshToken: try tokens.refreshToken, expiresIn: IssuedTokens.expiresIn)
        }
    }

    /// `GET /emulator/v1/projects/{id}/verificationCodes`: the SMS outbox (codes not yet used or expired), oldest first.
    func listVerificationCodes() throws -> ListVerificationCodesResponse {
        let records = try store.read { db in
            try SmsVerificationRecord.filter(SmsVerificationRecord.Columns.expiresAt > nowSeconds)
                .order(SmsVerificationRecord.Columns.createdAt, Column.rowID).fetchAll(db)
        }
        return ListVerificationCodesResponse(verificationCodes: records.map {
            .init(code: $0.code, phoneNumber: $0.phoneNumber, sessionInfo: $0.sessionInfo, sentAt: Self.rfc3339(milliseconds: $0.createdAt),
                  expiresAt: Self.rfc3339(seconds: $0.expiresAt))
        })
    }

    /// Emails and texts in the outbox not yet used or expired: the projects listing's count.
    public func messageCount() throws -> Int {
        try store.read { db in
            try OobCodeRecord.filter(OobCodeRecord.Columns.expiresAt > nowSeconds).fetchCount(db)
                + SmsVerificationRecord.filter(SmsVerificationRecord.Columns.expiresAt > nowSeconds).fetchCount(db)
        }
    }
}

extension ProviderRecord {
    /// The phone provider row as Firebase shows it: the number is the rawId.
    static func phone(localId: String, phoneNumber: String) -> ProviderRecord {
        ProviderRecord(localId: localId, providerId: "phone", rawId: phoneNumber, phoneNumber: phoneNumber)
    }
}

extension StoredAccount {
    func hasSecondFactors(in db: Database) throws -> Bool {
        try MfaEnrollmentRecord.filter(MfaEnrollmentRecord.Columns.localId == localId).fetchCount(db) > 0
    }
}

extension AccountStore {
    /// Runs `body` in one transaction that commits whatever it wrote, then throws its failure: a wrong
    /// code must stay counted, which a rolled-back transaction would forget.
    func writeCommittingFailure<T>(_ body: (Database) throws -> Result<T, BackendFailure>) async throws -> T {
        try await write(body).get()
    }
}
