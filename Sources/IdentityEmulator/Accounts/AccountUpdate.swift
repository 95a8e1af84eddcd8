import Foundation
import GRDB
import IdentityToolkit

extension EmbeddedBackend {
    /// `accounts:update`: profile, email and password changes and unlinking for the signed-in user;
    /// administrators (by `localId`) can also verify, disable, set claims and revoke.
    func update(_ body: UpdateBody, context: RequestContext) async throws -> AccountsUpdateResponse {
        // The emulator's schema check, before anything else is looked at.
        if body.mfa?.enrollmentsAreNotAList == true { throw BackendFailure.mfaEnrollmentsNotAList }
        // An app's update names its user (or an email action); claims and disabling are an administrator's.
        if !context.isAdmin {
            guard body.idToken != nil || body.oobCode != nil else { throw BackendFailure.unsupportedUpdateRequest }
            guard body.customAttributes == nil else { throw BackendFailure.insufficientPermission }
        }
        if body.idToken != nil, body.disableUser != nil { throw BackendFailure.operationNotAllowed }
        if let oobCode = body.oobCode, body.idToken == nil, body.localId == nil { return try await applyActionCode(oobCode) }
        let session: VerifiedSession?
        let localId: String
        if body.idToken != nil || !context.isAdmin {
            let verified = try verifySession(idToken: body.idToken)
            session = verified
            localId = verified.user.localId
        } else {
            guard let id = body.localId, !id.isEmpty else { throw BackendFailure.missingLocalId }
            session = nil
            localId = id
        }
        // Fields only an administrator may set are ignored on client calls, as production does.
        let admin = session == nil

        let newEmail = try body.email.map { raw -> String in
            guard let email = EmailAddress.normalized(raw) else { throw BackendFailure.invalidEmail }
            return email
        }
        if let password = body.password { try checkPasswordStrength(password) }
        let newPhoneNumber = try admin ? body.phoneNumber.map { raw -> String in
            guard let phone = E164PhoneNumber.validated(raw) else { throw BackendFailure.malformedPhoneNumber }
            return phone
        } : nil
        let customAttributes = admin ? try body.customAttributes.map(Self.validatedCustomAttributes) : nil
        let secondFactors = admin ? try body.mfa.map { try requestedSecondFactors($0.enrollments ?? [], field: "mfa.enrollments", requireIds: true) } : nil
        // The emulator lets an app attach any identity to its own account; where others share the
        // backend that would let one pre-claim somebody's Google account, so only an administrator may.
        if !admin, body.linkProviderUserInfo != nil, configuration.isShared { throw BackendFailure.requiresAdministrator }
        let linkedProvider = try body.linkProviderUserInfo.map(Self.validatedLinkedProvider)
        let emailChanges = newEmail != nil && newEmail != session?.user.email
        if let session, emailChanges || body.password != nil { try requireRecentSignIn(session) }

        var newPassword: (hash: Data, salt: Data)?
        if let password = body.password {
            let salt = SecureRandom.bytes(16)
            newPassword = (try await store.scrypt.hash(password: password, salt: salt), salt)
        }

        let (user, providers, tokens) = try await store.write { db in
            guard var user = try session.map({ try currentUser(of: $0, in: db) }) ?? StoredAccount.fetchOne(db, key: localId) else {
                throw BackendFailure.userNotFound
            }
            for providerId in body.deleteProvider ?? [] {
                try ProviderRecord.filter(ProviderRecord.Columns.localId == localId && ProviderRecord.Columns.providerId == providerId).deleteAll(db)
                switch providerId {
                case "password":
                    user.email = nil
                    user.emailVerified = false
                    user.passwordHash = nil
                    user.salt = nil
                    user.passwordUpdatedAt = nil
                case "phone":
                    user.phoneNumber = nil
                default:
                    break
                }
            }
            var credentialsChanged = false
            if let newEmail, newEmail != user.email {
                if let owner = try StoredAccount.find(email: newEmail, in: db), owner.localId != localId { throw BackendFailure.emailExists }
                // The first address an account had keeps a way back: a RECOVER_EMAIL message to it on
                // every change (not for an anonymous session, which had no address to recover).
                let anonymousSession = session?.signInProvider == "anonymous"
                if !anonymousSession, let old = user.email, user.initialEmail == nil { user.initialEmail = old }
                try changeEmail(of: &user, to: newEmail, verified: false, in: db)
                credentialsChanged = true
                if !anonymousSession, let initialEmail = user.initialEmail {
                    try queueOobCode(.recoverEmail, email: initialEmail, localId: localId, in: db)
                }
            }
            if let newPassword {
                user.passwordHash = newPassword.hash
                user.salt = newPassword.salt
                user.passwordUpdatedAt = nowMilliseconds
                credentialsChanged = true
                if let email = user.email, try ProviderRecord.fetchOne(db, key: ["localId": localId, "providerId": "password"]) == nil {
                    try ProviderRecord.password(localId: localId, email: email).insert(db)
                }
            }
            if let name = body.displayName { user.displayName = name.isEmpty ? nil : name }
            if let photo = body.photoUrl { user.photoUrl = photo.isEmpty ? nil : photo }
            for attribute in body.deleteAttribute ?? [] {
                switch attribute.name {
                case "DISPLAY_NAME": user.displayName = nil
                case "PHOTO_URL": user.photoUrl = nil
                default: break
                }
            }
            if admin {
                if let verified = body.emailVerified { user.emailVerified = verified }
                if let customAttributes { user.customAttributes = customAttributes }
                if let validSince = body.validSince {
                    // Revocation: sessions started up to that second end now, as their ID tokens do.
                    user.revokeTokens(at: validSince.value * 1000)
                    try AccountSessions.revokeAll(localId: localId, startedUpTo: validSince.value, in: db)
                }
                if let newPhoneNumber, newPhoneNumber != user.phoneNumber {
                    if try StoredAccount.filter(StoredAccount.Columns.phoneNumber == newPhoneNumber).fetchOne(db) != nil {
                        throw BackendFailure.phoneNumberTaken
                    }
                    user.phoneNumber = newPhoneNumber
                    try ProviderRecord.filter(ProviderRecord.Columns.localId == localId && ProviderRecord.Columns.providerId == "phone").deleteAll(db)
                    try Self.phoneProvider(localId: localId, phoneNumber: newPhoneNumber).insert(db)
                }
                // `mfa` replaces the factors whole: an empty list (or `mfa: {}`) removes them all.
                if let secondFactors { try replaceSecondFactors(of: localId, with: secondFactors, in: db) }
                if let disable = body.disableUser {
                    user.disabled = disable
                    if disable { try AccountSessions.revokeAll(localId: localId, in: db) }
                }
            }
            if let linkedProvider { try linkProvider(linkedProvider, to: localId, in: db) }
            // A user may end their other sessions themselves: `validSince` from a client revokes now.
            if session != nil, body.validSince != nil { credentialsChanged = true }
            // A new email or password ends every other session: older ID and refresh tokens stop working.
            if credentialsChanged {
                user.revokeTokens(at: nowMilliseconds)
                try AccountSessions.revokeAll(localId: localId, in: db)
            }
            try user.update(db)
            let tokens = try session.flatMap { session in
                credentialsChanged
                    // Setting a password makes it the session's provider (an anonymous upgrade signs in by password).
                    ? try startSession(for: user, signInProvider: newPassword == nil ? session.signInProvider : "password", authTime: session.authTime,
                                       secondFactor: session.secondFactor, in: db)
                    : nil
            }
            return (user, try user.providers(in: db), tokens)
        }
        return AccountsUpdateResponse(
            localId: user.localId, email: user.email, displayName: user.displayName, photoUrl: user.photoUrl,
            emailVerified: user.email == nil ? nil : user.emailVerified, providerUserInfo: providers.map(\.wire),
            passwordHash: user.passwordHash.map { admin ? $0.base64URLEncodedString() : Self.redactedPasswordHash },
            newEmail: newEmail, idToken: try tokens?.idToken, refreshToken: try tokens?.refreshToken, expiresIn: tokens.map { _ in IssuedTokens.expiresIn })
    }

    /// Custom claims: a JSON object of at most 1000 characters without reserved names; `""` clears them.
    static func validatedCustomAttributes(_ raw: String) throws -> String? {
        guard !raw.isEmpty else { return nil }
        guard raw.count <= 1000 else { throw BackendFailure.claimsTooLarge }
        guard let object = try? JSONSerialization.jsonObject(with: Data(raw.utf8)) as? [String: Any] else {
            throw BackendFailure.invalidClaims
        }
        if let forbidden = object.keys.sorted().first(where: forbiddenCustomClaims.contains) { throw BackendFailure.forbiddenClaim(forbidden) }
        return object.isEmpty ? nil : raw
    }
}
