import Foundation
import GRDB
import IdentityToolkit

extension EmbeddedBackend {
    /// `accounts:signInWithIdp`: with `idToken` it links the provider to that user; otherwise it signs
    /// in, resolving the account as production does (the same provider identity → its user; a verified
    /// email of an existing account → that account; an unverified one → `needConfirmation`; else a new
    /// user). `autoCreate: false` (reauthentication) only finds users. With `returnIdpCredential`,
    /// a conflict is a 200 answer with `errorMessage` and the provider's tokens echoed.
    func signInWithIdp(_ body: IdpSignInBody) async throws -> SignInWithIdpResponse {
        guard let requestUri = body.requestUri, !requestUri.isEmpty else { throw BackendFailure.missingRequestUri }
        guard let uri = URL(string: requestUri), uri.scheme != nil else { throw BackendFailure.invalidRequestUri }
        if body.pendingToken?.isEmpty ?? true, IdpPostBody(postBody: body.postBody, requestUri: requestUri).providerId == nil {
            throw BackendFailure.invalidCredentialOrProviderId(requestUri: requestUri, postBody: body.postBody)
        }
        let credential = try presentedCredential(body)
        let returnCredential = body.returnIdpCredential == true
        if let idToken = body.idToken {
            return try await link(credential, to: try verifySession(idToken: idToken), returnCredential: returnCredential)
        }
        return try await signIn(with: credential, autoCreate: body.autoCreate ?? true, returnCredential: returnCredential)
    }

    private func signIn(with credential: PresentedIdpCredential, autoCreate: Bool, returnCredential: Bool) async throws -> SignInWithIdpResponse {
        let assertion = credential.assertion
        return try await store.write { db in
            try consumeSingleUseToken(credential, in: db)
            if var link = try ProviderRecord.filter(ProviderRecord.Columns.providerId == assertion.providerId
                && Column("rawId") == assertion.rawId).fetchOne(db) {
                guard var user = try StoredAccount.fetchOne(db, key: link.localId) else { throw BackendFailure.userNotFound }
                // The provider's name and photo fill the account's empty fields, never replace them.
                user.displayName = user.displayName ?? assertion.displayName
                user.photoUrl = user.photoUrl ?? assertion.photoUrl
                // The provider's latest profile; Apple sends no name after the first time, so keep the old one.
                link.email = assertion.email ?? link.email
                link.displayName = assertion.displayName ?? link.displayName
                link.photoUrl = assertion.photoUrl ?? link.photoUrl
                try link.update(db)
                // Stored now: a sign-in that waits for a second factor keeps them too.
                try user.update(db)
                return try completeFederatedSignIn(user, credential, isNewUser: false, in: db)
            }
            guard autoCreate else { throw BackendFailure.userNotFound }
            if let email = assertion.email, var owner = try StoredAccount.find(email: email, in: db) {
                guard assertion.emailVerified else {
                    let federated = try owner.providers(in: db).map(\.providerId).filter { $0 != "password" && $0 != "phone" }
                    var answer = try refusal(credential, needConfirmation: true, verifiedProviders: federated, in: db)
                    // The emulator names the account; on a shared backend that would tell anyone who made up an
                    // identity for an email whose account it is.
                    answer.localId = configuration.isShared ? nil : owner.localId
                    return answer
                }
                if !owner.emailVerified {
                    // Whoever set up the unverified account may not own the address: its other ways in go,
                    // and the provider's profile replaces its own.
                    try ProviderRecord.filter(ProviderRecord.Columns.localId == owner.localId).deleteAll(db)
                    try AccountSessions.revokeAll(localId: owner.localId, in: db)
                    owner.passwordHash = nil
                    owner.salt = nil
                    owner.passwordUpdatedAt = nil
                    owner.phoneNumber = nil
                    owner.displayName = assertion.displayName
                    owner.photoUrl = assertion.photoUrl
                    owner.revokeTokens(at: nowMilliseconds)
                    owner.emailVerified = true
                }
                // Linked by its verified email, the account takes the provider's name and photo where it has none,
                // before any second factor: the emulator's link does.
                owner.displayName = owner.displayName ?? assertion.displayName
                owner.photoUrl = owner.photoUrl ?? assertion.photoUrl
                try owner.update(db)
                try assertion.providerRecord(localId: owner.localId).insert(db)
                return try completeFederatedSignIn(owner, credential, isNewUser: false, in: db)
            }
            let user = StoredAccount(localId: SecureRandom.localId(), email: assertion.email,
                                  emailVerified: assertion.email != nil && assertion.emailVerified,
                                  displayName: assertion.displayName, photoUrl: assertion.photoUrl,
                                  validSince: nowSeconds, createdAt: nowMilliseconds, sessionSeal: StoredAccount.newSessionSeal())
            try user.insert(db)
            try assertion.providerRecord(localId: user.localId).insert(db)
            return try completeFederatedSignIn(user, credential, isNewUser: true, in: db)
        }
        .orThrow(unless: returnCredential)
    }

    /// The one place where a federated sign-in of a known or new user becomes a session.
    private func completeFederatedSignIn(_ user: StoredAccount, _ credential: PresentedIdpCredential, isNewUser: Bool,
                                         in db: Database) throws -> SignInWithIdpResponse {
        guard !user.disabled else { throw BackendFailure.userDisabled }
        if let challenge = try secondFactorChallenge(for: user, signInProvider: credential.assertion.providerId,
                                                     notAfter: credential.expiresAt, in: db) {
            var answer = try response(credential, localId: user.localId, isNewUser: isNewUser, tokens: nil)
            answer.mfaPendingCredential = challenge.mfaPendingCredential
            answer.mfaInfo = challenge.mfaInfo
            return answer
        }
        var user = user
        user.lastLoginAt = nowMilliseconds
        try user.update(db)
        let tokens = try startSession(for: user, signInProvider: credential.assertion.providerId, authTime: nowSeconds, in: db)
        return try response(credential, localId: user.localId, isNewUser: isNewUser, tokens: tokens)
    }

    private func link(_ credential: PresentedIdpCredential, to session: VerifiedSession, returnCredential: Bool) async throws -> SignInWithIdpResponse {
        let assertion = credential.assertion
        return try await store.write { db in
            var user = try currentUser(of: session, in: db)
            try consumeSingleUseToken(credential, in: db)
            let owner = try ProviderRecord.filter(ProviderRecord.Columns.providerId == assertion.providerId
                && Column("rawId") == assertion.rawId).fetchOne(db)
            // Already linked, to another account or to this one, as the emulator answers.
            if owner != nil {
                return try refusal(credential, errorMessage: "FEDERATED_USER_ID_ALREADY_LINKED", in: db)
            }
            guard try ProviderRecord.fetchOne(db, key: ["localId": user.localId, "providerId": assertion.providerId]) == nil else {
                throw BackendFailure.providerAlreadyLinked
            }
            if let email = assertion.email, let emailOwner = try StoredAccount.find(email: email, in: db), emailOwner.localId != user.localId {
                return try refusal(credential, errorMessage: "EMAIL_EXISTS", in: db)
            }
            try assertion.providerRecord(localId: user.localId).insert(db)
            if user.email == nil, let email = assertion.email {
                user.email = email
                user.emailVerified = assertion.emailVerified
            }
            // A verified provider email that is the account's own verifies it.
            if assertion.emailVerified, let email = assertion.email, email == user.email { user.emailVerified = true }
            user.displayName = user.displayName ?? assertion.displayName
            user.photoUrl = user.photoUrl ?? assertion.photoUrl
            try user.update(db)
            // Presenting the provider's credential is a fresh sign-in: auth_time moves on.
            let tokens = try startSession(for: user, signInProvider: assertion.providerId, authTime: nowSeconds, in: db)
            return try response(credential, localId: user.localId, isNewUser: false, tokens: tokens)
        }
        .orThrow(unless: returnCredential)
    }

    /// An answer without a session: the provider's identity and tokens (so the client can build an
    /// updated credential), and a `pendingToken` that stands for them.
    private func refusal(_ credential: PresentedIdpCredential, errorMessage: String? = nil, needConfirmation: Bool = false,
                         verifiedProviders: [String]? = nil, in db: Database) throws -> SignInWithIdpResponse {
        var answer = try response(credential, localId: nil, isNewUser: nil, tokens: nil)
        answer.pendingToken = try issuePendingToken(for: credential, in: db)
        answer.errorMessage = errorMessage
        answer.needConfirmation = needConfirmation ? true : nil
        answer.verifiedProvider = verifiedProviders
        return answer
    }

    private func response(_ credential: PresentedIdpCredential, localId: String?, isNewUser: Bool?, tokens: IssuedTokens?) throws -> SignInWithIdpResponse {
        let assertion = credential.assertion
        let (given, family) = Self.split(assertion.displayName)
        return SignInWithIdpResponse(
            providerId: assertion.providerId, federatedId: assertion.federatedId, localId: localId, email: assertion.email,
            emailVerified: assertion.email == nil ? nil : assertion.emailVerified, displayName: assertion.displayName,
            firstName: given, lastName: family, photoUrl: assertion.photoUrl, rawUserInfo: assertion.rawUserInfo,
            oauthIdToken: credential.idToken, oauthAccessToken: credential.accessToken, isNewUser: isNewUser,
            idToken: try tokens?.idToken, refreshToken: try tokens?.refreshToken, expiresIn: tokens.map { _ in IssuedTokens.expiresIn })
    }
}

private extension SignInWithIdpResponse {
    /// Without `returnIdpCredential`, a refusal is an error answer, as production sends it.
    func orThrow(unless returnCredential: Bool) throws -> SignInWithIdpResponse {
        if !returnCredential, let errorMessage { throw BackendFailure.badRequest(errorMessage) }
        return self
    }
}
