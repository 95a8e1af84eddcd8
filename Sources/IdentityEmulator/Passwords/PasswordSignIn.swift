import Foundation
import GRDB
import IdentityToolkit

extension EmbeddedBackend {
    /// Salt for the decoy hash of an unknown email, so that its answer takes as long as a real check.
    private static let decoySalt = Data(repeating: 0x5A, count: 16)

    /// `accounts:signInWithPassword`, with per-account lockout after consecutive failures.
    func signInWithPassword(_ body: PasswordSignInBody) throws -> SignInWithPasswordResponse {
        guard let rawEmail = body.email, let email = EmailAddress.normalized(rawEmail) else { throw BackendFailure.invalidEmail }
        guard let password = body.password, !password.isEmpty else { throw BackendFailure.missingPassword }
        let protected = try isEmailEnumerationProtected()

        let found = try store.read { db -> (UserRecord, FailedSignInRecord?, ScryptParameters?)? in
            guard let user = try UserRecord.find(email: email, in: db) else { return nil }
            return (user, try FailedSignInRecord.fetchOne(db, key: user.localId), try importedHashParameters(of: user, in: db))
        }
        guard let (user, failures, importedParameters) = found else {
            _ = try? store.scrypt.hash(password: password, salt: Self.decoySalt)
            throw protected ? BackendFailure.invalidLoginCredentials : BackendFailure.emailNotFound
        }
        if let lockedUntil = failures?.lockedUntil, lockedUntil > clock().timeIntervalSince1970 {
            throw BackendFailure.tooManyAttempts
        }
        guard let hash = user.passwordHash, let salt = user.salt,
              try (importedParameters ?? store.scrypt).verify(password: password, salt: salt, expected: hash) else {
            try recordFailedSignIn(localId: user.localId)
            throw protected ? BackendFailure.invalidLoginCredentials : BackendFailure.invalidPassword
        }
        guard !user.disabled else { throw BackendFailure.userDisabled }
        let rehash = try importedParameters.map { _ in
            let salt = SecureRandom.bytes(16)
            return (hash: try store.scrypt.hash(password: password, salt: salt), salt: salt)
        }

        // With second factors the password only earns a pending credential: no session, and the
        // last sign-in stays as it was until the second factor passes.
        let challenge = try secondFactorChallenge(for: user, signInProvider: "password")
        let (signedIn, tokens) = try store.write { db -> (UserRecord, IssuedTokens?) in
            try FailedSignInRecord.deleteOne(db, key: user.localId)
            guard var current = try UserRecord.fetchOne(db, key: user.localId) else { throw BackendFailure.userNotFound }
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
                                          registered: true, idToken: try tokens.idToken, refreshToken: tokens.refreshToken,
                                          expiresIn: IssuedTokens.expiresIn)
    }

    /// Counts a wrong password; the count that reaches the limit locks the account for `lockoutDuration`.
    private func recordFailedSignIn(localId: String) throws {
        let now = clock().timeIntervalSince1970
        try store.write { db in
            var record = try FailedSignInRecord.fetchOne(db, key: localId) ?? FailedSignInRecord(localId: localId, failures: 0)
            if let lockedUntil = record.lockedUntil, lockedUntil <= now {
                record = FailedSignInRecord(localId: localId, failures: 0)
            }
            record.failures += 1
            if record.failures >= configuration.maxFailedPasswordAttempts {
                record.lockedUntil = now + configuration.lockoutDuration
                logger.notice("account locked after repeated failed sign-ins", metadata: ["localId": "\(localId)"])
            }
            try record.save(db)
        }
    }
}
