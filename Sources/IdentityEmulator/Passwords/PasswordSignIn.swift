import Foundation
import GRDB
import IdentityToolkit

extension EmbeddedBackend {
    /// Salt for the decoy hash of an unknown email, so that its answer takes as long as a real check.
    private static let decoySalt = Data(repeating: 0x5A, count: 16)

    /// `accounts:signInWithPassword`, with a lock-out after consecutive failures. Every attempt is
    /// counted before its password is checked, in the transaction that reads the account, so parallel
    /// guesses cannot check more passwords than allowed. An unknown email, an account without a
    /// password and a locked one cost one scrypt like any other attempt, and (with email-enumeration
    /// protection) answer alike, so neither the answer nor its time tells whether the email exists.
    func signInWithPassword(_ body: PasswordSignInBody) async throws -> SignInWithPasswordResponse {
        guard let rawEmail = body.email else { throw BackendFailure.missingEmail }
        guard let email = EmailAddress.normalized(rawEmail) else { throw BackendFailure.invalidEmail }
        guard let password = body.password, !password.isEmpty else { throw BackendFailure.missingPassword }
        let protected = try isEmailEnumerationProtected()

        let (locked, found) = try await store.write { db -> (Bool, (StoredAccount, ScryptParameters?)?) in
            let locked = try countPasswordAttempt(email: email, in: db)
            guard let user = try StoredAccount.find(email: email, in: db) else { return (locked, nil) }
            return (locked, (user, try importedHashParameters(of: user, in: db)))
        }
        var matches = false
        if !locked, let (user, importedParameters) = found, let hash = user.passwordHash, let salt = user.salt {
            matches = try await (importedParameters ?? store.scrypt).verify(password: password, salt: salt, expected: hash)
        } else {
            _ = try? await store.scrypt.hash(password: password, salt: Self.decoySalt)
        }
        guard !locked else { throw BackendFailure.tooManyAttempts }
        guard matches, let (user, importedParameters) = found else {
            throw protected ? BackendFailure.invalidLoginCredentials : found == nil ? BackendFailure.emailNotFound : BackendFailure.invalidPassword
        }
        guard !user.disabled else { throw BackendFailure.userDisabled }
        var rehash: (hash: Data, salt: Data)?
        if importedParameters != nil {
            let salt = SecureRandom.bytes(16)
            rehash = (hash: try await store.scrypt.hash(password: password, salt: salt), salt: salt)
        }

        // With second factors the password only earns a pending credential: no session, and the
        // last sign-in stays as it was until the second factor passes.
        let challenge = try secondFactorChallenge(for: user, signInProvider: "password")
        let (signedIn, tokens) = try await store.write { db -> (StoredAccount, IssuedTokens?) in
            try FailedSignInRecord.clear(email: email, in: db)
            // Deleted, or its email moved, while its password was being checked: as if it had never been there.
            guard var current = try StoredAccount.fetchOne(db, key: user.localId), current.email == email else {
                throw protected ? BackendFailure.invalidLoginCredentials : BackendFailure.emailNotFound
            }
            // The password was checked against the hash read before: changed meanwhile (and every
            // session revoked with it), the check no longer stands, nor does it once disabled.
            guard current.passwordHash == user.passwordHash, current.salt == user.salt else {
                throw protected ? BackendFailure.invalidLoginCredentials : BackendFailure.invalidPassword
            }
            guard !current.disabled else { throw BackendFailure.userDisabled }
            if challenge == nil { current.lastLoginAt = nowMilliseconds }
            if let rehash, let checked = user.passwordHash { try replaceImportedHash(of: &current, checked: checked, with: rehash, in: db) }
            try current.update(db)
            return (current, challenge == nil ? try startSession(for: current, signInProvider: "password", authTime: nowSeconds, in: db) : nil)
        }
        guard let tokens else {
            return SignInWithPasswordResponse(localId: signedIn.localId, email: signedIn.email, displayName: signedIn.displayName, registered: true,
                                              mfaPendingCredential: challenge?.mfaPendingCredential, mfaInfo: challenge?.mfaInfo)
        }
        return SignInWithPasswordResponse(localId: signedIn.localId, email: signedIn.email, displayName: signedIn.displayName,
                                          registered: true, idToken: try tokens.idToken, refreshToken: try tokens.refreshToken,
                                          expiresIn: IssuedTokens.expiresIn)
    }

    /// An address's wrong passwords and lock-out, for an administrator. Only the address's own row is read:
    /// the table keeps hashes, never addresses.
    func lockout(of rawEmail: String?) throws -> LockoutResponse {
        let email = try lockoutEmail(rawEmail)
        let record = try store.read { db in try FailedSignInRecord.fetchOne(db, key: FailedSignInRecord.emailHash(email)) }
        return lockoutResponse(email, record)
    }

    /// Lifts an address's lock-out and forgets its wrong passwords.
    func clearLockout(of rawEmail: String?) async throws -> LockoutResponse {
        let email = try lockoutEmail(rawEmail)
        try await store.write { db in try FailedSignInRecord.clear(email: email, in: db) }
        logger.notice("password lock-out cleared by an administrator", metadata: ["emailHash": "\(FailedSignInRecord.emailHash(email).prefix(12))"])
        return lockoutResponse(email, nil)
    }

    /// Every address locked now, soonest unlocked first. A lock from before addresses were kept has
    /// none to show, and is left out.
    func lockouts() throws -> LockoutListResponse {
        let now = clock().timeIntervalSince1970
        let records = try store.read { db in
            try FailedSignInRecord.filter(FailedSignInRecord.Columns.lockedUntil > now && FailedSignInRecord.Columns.email != nil)
                .order(FailedSignInRecord.Columns.lockedUntil, FailedSignInRecord.Columns.email).fetchAll(db)
        }
        return LockoutListResponse(lockouts: records.compactMap { record in record.email.map { lockoutResponse($0, record) } })
    }

    /// Addresses locked now: the projects listing's count.
    public func lockoutCount() throws -> Int {
        let now = clock().timeIntervalSince1970
        return try store.read { db in
            try FailedSignInRecord.filter(FailedSignInRecord.Columns.lockedUntil > now && FailedSignInRecord.Columns.email != nil).fetchCount(db)
        }
    }

    /// Lifts every lock-out (and forgets the wrong passwords that caused them); answers those it lifted.
    func clearAllLockouts() async throws -> LockoutListResponse {
        let now = clock().timeIntervalSince1970
        let cleared = try await store.write { db in
            let locked = FailedSignInRecord.filter(FailedSignInRecord.Columns.lockedUntil > now)
            let records = try locked.fetchAll(db)
            try locked.deleteAll(db)
            return records
        }
        logger.notice("every password lock-out cleared by an administrator", metadata: ["count": "\(cleared.count)"])
        return LockoutListResponse(lockouts: cleared.compactMap { record in record.email.map { LockoutResponse(email: $0, failures: 0, lockedUntil: nil) } })
    }

    private func lockoutEmail(_ rawEmail: String?) throws -> String {
        guard let rawEmail else { throw BackendFailure.missingEmail }
        guard let email = EmailAddress.normalized(rawEmail) else { throw BackendFailure.invalidEmail }
        return email
    }

    private func lockoutResponse(_ email: String, _ record: FailedSignInRecord?) -> LockoutResponse {
        let now = clock().timeIntervalSince1970
        // What the next attempt would find: a lock that has ended, or attempts older than its duration, count for nothing.
        guard let record, record.lockedUntil.map({ $0 > now }) ?? (record.lastAttemptAt >= now - configuration.lockoutDuration) else {
            return LockoutResponse(email: email, failures: 0, lockedUntil: nil)
        }
        return LockoutResponse(email: email, failures: record.failures,
                               lockedUntil: record.lockedUntil.map { String(Int64(($0 * 1000).rounded(.down))) })
    }

    /// Takes one of the email's allowed attempts, or answers true when it is locked. The attempt that
    /// reaches the limit locks the email for `lockoutDuration` (a correct password then clears it);
    /// attempts older than that are forgotten, and so are their rows.
    private func countPasswordAttempt(email: String, in db: Database) throws -> Bool {
        let now = clock().timeIntervalSince1970
        let forgetBefore = now - configuration.lockoutDuration
        try FailedSignInRecord.filter(FailedSignInRecord.Columns.lastAttemptAt < forgetBefore
            && (FailedSignInRecord.Columns.lockedUntil == nil || FailedSignInRecord.Columns.lockedUntil <= now)).deleteAll(db)
        let key = FailedSignInRecord.emailHash(email)
        var record = try FailedSignInRecord.fetchOne(db, key: key) ?? FailedSignInRecord(emailHash: key, failures: 0, lastAttemptAt: now)
        if let lockedUntil = record.lockedUntil {
            if lockedUntil > now { return true }
            record = FailedSignInRecord(emailHash: key, failures: 0, lastAttemptAt: now)
        }
        record.failures += 1
        record.lastAttemptAt = now
        if record.failures >= configuration.maxFailedPasswordAttempts {
            record.lockedUntil = now + configuration.lockoutDuration
            record.email = email
            logger.notice("password sign-in locked after repeated attempts", metadata: ["emailHash": "\(key.prefix(12))"])
        }
        try record.save(db)
        return false
    }
}
