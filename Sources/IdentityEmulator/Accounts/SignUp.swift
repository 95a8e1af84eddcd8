import Foundation
import GRDB
import IdentityToolkit

extension EmbeddedBackend {
    /// `accounts:signUp`: anonymous (empty body), email/password, or — with `idToken` — linking
    /// email/password to the signed-in user, which keeps its localId (the anonymous upgrade). An app
    /// gives a new account its name only: an anonymous one neither, as in the emulator.
    /// From an administrator (`Bearer owner`, the admin token), a privileged sign-up: the account is
    /// created as given (`localId`, phone, second factors, verified, disabled) and no session starts.
    /// An app's `mfaInfo` sets the account's second factors as the emulator lets any caller (its own
    /// tests make multi-factor users that way), but only where its trust holds: on a shared backend a
    /// factor must be proven (`mfaEnrollment`), so there it is refused rather than dropped.
    func signUp(_ body: SignUpBody, context: RequestContext) async throws -> SignUpResponse {
        if body.localId != nil, !context.isAdmin || body.idToken != nil { throw BackendFailure.unexpectedUserId }
        if context.isAdmin, body.idToken == nil {
            return try await createAccount(CreateAccountBody(localId: body.localId, email: body.email, password: body.password,
                                                       displayName: body.displayName, photoUrl: body.photoUrl, phoneNumber: body.phoneNumber,
                                                       emailVerified: body.emailVerified, disabled: body.disabled, mfaInfo: body.mfaInfo))
        }
        if !(body.mfaInfo ?? []).isEmpty, configuration.isShared { throw BackendFailure.secondFactorsOnSharedSignUp }
        let secondFactors = try body.mfaInfo.map(newSecondFactors)
        if body.idToken != nil { return try await linkPassword(body, secondFactors: secondFactors) }
        if body.email == nil && body.password == nil { return try await signUpAnonymously(secondFactors: secondFactors) }

        let credential = try validatedPasswordCredential(email: body.email, password: body.password)
        let salt = SecureRandom.bytes(16)
        let hash = try await store.scrypt.hash(password: credential.password, salt: salt)
        let (user, tokens) = try await store.write { db in
            guard try StoredAccount.find(email: credential.email, in: db) == nil else { throw BackendFailure.emailExists }
            let user = StoredAccount(localId: SecureRandom.localId(), email: credential.email, displayName: body.displayName,
                                  passwordHash: hash, salt: salt, passwordUpdatedAt: nowMilliseconds,
                                  validSince: nowSeconds, createdAt: nowMilliseconds, lastLoginAt: nowMilliseconds,
                                  sessionSeal: StoredAccount.newSessionSeal())
            try user.insert(db)
            try ProviderRecord.password(localId: user.localId, email: credential.email).insert(db)
            if let secondFactors { try replaceSecondFactors(of: user.localId, with: secondFactors, in: db) }
            return (user, try startSession(for: user, signInProvider: "password", authTime: nowSeconds, in: db))
        }
        return SignUpResponse(localId: user.localId, email: user.email, displayName: user.displayName,
                              idToken: try tokens.idToken, refreshToken: try tokens.refreshToken, expiresIn: IssuedTokens.expiresIn)
    }

    /// A new account has no providers, and its first session is its first refresh: the tokens are made
    /// before the transaction (which every writer shares, one at a time), and it only inserts the row.
    /// The tokens are signed first too, and are returned only once the row is committed: signed after
    /// the commit, the requests of a batch waited for it together and then signed together, and one
    /// core sat idle during each commit; signed before, requests sign while others commit.
    private func signUpAnonymously(secondFactors: [RequestedSecondFactor]?) async throws -> SignUpResponse {
        let now = nowMilliseconds
        let user = StoredAccount(localId: SecureRandom.localId(), validSince: nowSeconds, createdAt: now, lastLoginAt: now, lastRefreshAt: now,
                              sessionSeal: StoredAccount.newSessionSeal())
        let tokens = firstSession(of: user, signInProvider: "anonymous", authTime: nowSeconds)
        let (idToken, refreshToken) = (try tokens.idToken, try tokens.refreshToken)
        try await store.write { db in
            try user.insertPrepared(db)
            if let secondFactors { try replaceSecondFactors(of: user.localId, with: secondFactors, in: db) }
        }
        return SignUpResponse(localId: user.localId, displayName: user.displayName, idToken: idToken, refreshToken: refreshToken,
                              expiresIn: IssuedTokens.expiresIn)
    }

    /// An account that has an email and password already gets the new ones in their place (the
    /// emulator's answer, 200): as a change of both, it needs a recent sign-in and ends the other sessions.
    private func linkPassword(_ body: SignUpBody, secondFactors: [RequestedSecondFactor]?) async throws -> SignUpResponse {
        let session = try verifySession(idToken: body.idToken)
        let credential = try validatedPasswordCredential(email: body.email, password: body.password)
        let salt = SecureRandom.bytes(16)
        let hash = try await store.scrypt.hash(password: credential.password, salt: salt)
        let (user, tokens) = try await store.write { db in
            var user = try currentUser(of: session, in: db)
            if let owner = try StoredAccount.find(email: credential.email, in: db), owner.localId != user.localId {
                throw BackendFailure.emailExists
            }
            let replacing = try ProviderRecord.fetchOne(db, key: ["localId": user.localId, "providerId": "password"]) != nil
            if replacing { try requireRecentSignIn(session) }
            if user.email != credential.email { user.emailVerified = false }
            user.email = credential.email
            user.passwordHash = hash
            user.salt = salt
            user.passwordUpdatedAt = nowMilliseconds
            if let name = body.displayName { user.displayName = name }
            user.lastLoginAt = nowMilliseconds
            if replacing {
                user.revokeTokens(at: nowMilliseconds)
                try AccountSessions.revokeAll(localId: user.localId, in: db)
            }
            try user.update(db)
            try ProviderRecord.movePassword(of: user.localId, to: credential.email, creating: true, in: db)
            if let secondFactors { try replaceSecondFactors(of: user.localId, with: secondFactors, in: db) }
            return (user, try startSession(for: user, signInProvider: "password", authTime: nowSeconds, in: db))
        }
        return SignUpResponse(localId: user.localId, email: user.email, displayName: user.displayName,
                              idToken: try tokens.idToken, refreshToken: try tokens.refreshToken, expiresIn: IssuedTokens.expiresIn)
    }

    /// The checks of a new email/password credential, in production's order.
    func validatedPasswordCredential(email: String?, password: String?) throws -> (email: String, password: String) {
        guard let email else { throw BackendFailure.missingEmail }
        guard let normalized = EmailAddress.normalized(email) else { throw BackendFailure.invalidEmail }
        guard let password, !password.isEmpty else { throw BackendFailure.missingPassword }
        try checkPasswordStrength(password)
        return (normalized, password)
    }

    func checkPasswordStrength(_ password: String) throws {
        guard password.count >= 6 else { throw BackendFailure.weakPassword }
    }
}

extension ProviderRecord {
    /// The password provider row as Firebase shows it: the email is both rawId and federatedId.
    static func password(localId: String, email: String) -> ProviderRecord {
        ProviderRecord(localId: localId, providerId: "password", rawId: email, federatedId: email, email: email)
    }
}
