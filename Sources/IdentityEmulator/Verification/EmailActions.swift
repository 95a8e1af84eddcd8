import Foundation
import GRDB
import IdentityToolkit

extension EmbeddedBackend {
    /// `accounts:sendOobCode`: "sends" a verification or password-reset email by putting its code in
    /// the outbox (`GET /emulator/v1/projects/{id}/oobCodes`). Administrators with `returnOobLink` get
    /// the code and link back instead (the Admin SDK's `generate_*_link`).
    func sendOobCode(_ body: SendOobCodeBody, context: RequestContext) async throws -> SendOobCodeResponse {
        guard let rawType = body.requestType?.name, !rawType.isEmpty, rawType != "OOB_REQ_TYPE_UNSPECIFIED" else {
            throw BackendFailure.missingRequestType
        }
        if body.returnOobLink == true, !context.isAdmin { throw BackendFailure.insufficientPermission }
        if let continueUrl = body.continueUrl {
            guard let url = URL(string: continueUrl), url.scheme != nil, url.host != nil else { throw BackendFailure.invalidContinueUri }
        }
        guard let requestType = SendOobCodeRequest.RequestType(rawValue: rawType) else { throw BackendFailure.invalidRequestType(rawType) }

        let user: StoredAccount?
        var newEmail: String?
        switch requestType {
        case .passwordReset:
            guard let raw = body.email, !raw.isEmpty else { throw BackendFailure.missingEmail }
            guard let email = EmailAddress.normalized(raw) else { throw BackendFailure.invalidEmail }
            guard let found = try store.read({ try StoredAccount.find(email: email, in: $0) }) else {
                // With enumeration protection an unknown address gets the same answer as a known one.
                guard try isEmailEnumerationProtected(), body.returnOobLink != true else { throw BackendFailure.emailNotFound }
                return SendOobCodeResponse(email: email)
            }
            user = found
        case .emailSignIn:
            // The link signs in to the account with this address, or creates it: it may not exist yet.
            guard let raw = body.email, !raw.isEmpty else { throw BackendFailure.missingEmail }
            guard let email = EmailAddress.normalized(raw) else { throw BackendFailure.invalidEmail }
            let found = try store.read { try StoredAccount.find(email: email, in: $0) }
            return try await queueEmailAction(requestType, email: email, user: found, newEmail: nil, body: body)
        case .verifyEmail:
            user = try emailActionAccount(body, requireIdToken: false)
        case .verifyAndChangeEmail:
            guard let raw = body.newEmail, !raw.isEmpty else { throw BackendFailure.missingNewEmail }
            guard let normalized = EmailAddress.normalized(raw) else { throw BackendFailure.invalidNewEmail }
            user = try emailActionAccount(body, requireIdToken: true)
            guard try store.read({ try StoredAccount.find(email: normalized, in: $0) }) == nil else { throw BackendFailure.emailExists }
            newEmail = normalized
        case .recoverEmail:
            throw BackendFailure.invalidRequestType(rawType)
        }
        guard let user, let email = user.email else { throw BackendFailure.missingEmail }
        return try await queueEmailAction(requestType, email: email, user: user, newEmail: newEmail, body: body)
    }

    /// The account a verification (or verify-and-change) email is for: the signed-in user, or for an
    /// administrator's `returnOobLink` without `idToken`, the account with `email`.
    private func emailActionAccount(_ body: SendOobCodeBody, requireIdToken: Bool) throws -> StoredAccount {
        if body.returnOobLink == true, body.idToken == nil {
            guard let raw = body.email, !raw.isEmpty else { throw BackendFailure.missingEmail }
            guard let email = EmailAddress.normalized(raw),
                  let found = try store.read({ try StoredAccount.find(email: email, in: $0) }) else { throw BackendFailure.userNotFound }
            return found
        }
        // The emulator reads a verification's token without asking for one first: none is an invalid one.
        guard let idToken = body.idToken, !idToken.isEmpty else {
            throw requireIdToken ? BackendFailure.missingIdToken : BackendFailure.invalidIdToken
        }
        let session = try verifySession(idToken: idToken)
        // Changing the email is sensitive, as `accounts:update` with an email is.
        if requireIdToken { try requireRecentSignIn(session) }
        guard session.user.email != nil else { throw BackendFailure.missingEmail }
        return session.user
    }

    /// Puts the message in the outbox (or, with `returnOobLink`, hands its code and link back).
    private func queueEmailAction(_ requestType: SendOobCodeRequest.RequestType, email: String, user: StoredAccount?, newEmail: String?,
                                  body: SendOobCodeBody) async throws -> SendOobCodeResponse {
        let record = try await store.write { db in
            try queueOobCode(requestType, email: email, newEmail: newEmail, localId: user?.localId, continueUrl: body.continueUrl, in: db)
        }
        guard body.returnOobLink == true else { return SendOobCodeResponse(email: email) }
        return SendOobCodeResponse(email: email, oobCode: record.oobCode, oobLink: oobLink(for: record))
    }

    @discardableResult
    func queueOobCode(_ requestType: SendOobCodeRequest.RequestType, email: String, newEmail: String? = nil, localId: String?,
                      continueUrl: String? = nil, in db: Database) throws -> OobCodeRecord {
        let record = OobCodeRecord(oobCode: SecureRandom.bytes(40).base64URLEncodedString(), requestType: requestType.rawValue,
                                   email: email, newEmail: newEmail, localId: localId, continueUrl: continueUrl, createdAt: nowMilliseconds,
                                   expiresAt: nowSeconds + Int64(configuration.oobCodeLifetime))
        try db.deleteExpiredVerifications(now: nowSeconds)
        try record.insert(db)
        logger.info("email action queued in the outbox", metadata: ["requestType": "\(requestType.rawValue)", "localId": "\(localId ?? "-")"])
        return record
    }

    /// The link an email would carry, in the emulator's form.
    func oobLink(for record: OobCodeRecord) -> String {
        let mode = switch SendOobCodeRequest.RequestType(rawValue: record.requestType) {
        case .passwordReset: "resetPassword"
        case .emailSignIn: "signIn"
        case .verifyAndChangeEmail: "verifyAndChangeEmail"
        case .recoverEmail: "recoverEmail"
        case .verifyEmail, nil: "verifyEmail"
        }
        var components = URLComponents()
        let origin = actionLinkOrigin.value
        components.scheme = "http"
        components.host = origin.host
        components.port = origin.port
        components.path = Self.emailActionPath
        var items = [URLQueryItem(name: "mode", value: mode), URLQueryItem(name: "lang", value: "en"),
                     URLQueryItem(name: "oobCode", value: record.oobCode), URLQueryItem(name: "apiKey", value: linkAPIKey)]
        if let continueUrl = record.continueUrl { items.append(URLQueryItem(name: "continueUrl", value: continueUrl)) }
        // As the emulator's: the link is opened in the tenant's database, as a client SDK applies its code there.
        if let tenantId { items.append(URLQueryItem(name: "tenantId", value: tenantId)) }
        components.queryItems = items
        return components.string ?? ""
    }

    static let emailActionPath = "/emulator/action"

    /// The emulator's placeholder for the served default project (and its tenants where any key is
    /// served: loopback without a token); another project's link carries that project's key, which is
    /// what routes the link back to it (as a production link's key does), and a tenant's its tenant's,
    /// the key that opens it on a shared backend: whoever reads a tenant's outbox gets no key to more.
    private var linkAPIKey: String {
        let placeholder = isDefaultProject && (tenantId == nil || configuration.adminToken == nil)
        guard !placeholder, let keys = try? ProjectAPIKeys(key: signer.projectAPIKeyKey) else { return "fake-api-key" }
        return tenantId.map { keys.apiKey(for: projectId, tenant: $0) } ?? keys.apiKey(for: projectId)
    }

    /// `GET /emulator/action?mode=&oobCode=[&newPassword=]`: what opening an email's link does, as
    /// the emulator's action handler: verifies the email, resets the password (without
    /// `newPassword` it checks the code and says how to finish), restores or changes the email, or
    /// for a sign-in link says how to use it. It answers JSON, never a page or a redirect.
    func applyEmailAction(_ query: [URLQueryItem]) async throws -> EmailActionResult {
        func value(_ name: String) -> String? { query.first { $0.name == name }?.value.flatMap { $0.isEmpty ? nil : $0 } }
        guard let code = value("oobCode") else { throw BackendFailure.missingOobCode }
        switch value("mode") {
        case "verifyEmail":
            let updated = try await applyActionCode(code)
            return EmailActionResult(success: "The email has been successfully verified.", email: updated.email)
        case "resetPassword":
            guard let newPassword = value("newPassword") else {
                let checked = try await resetPassword(ResetPasswordBody(oobCode: code, newPassword: nil))
                return EmailActionResult(instructions: "To reset the password of \(checked.email ?? "this account"), open this link again with a newPassword query parameter added.",
                                         email: checked.email)
            }
            let reset = try await resetPassword(ResetPasswordBody(oobCode: code, newPassword: newPassword))
            return EmailActionResult(success: "The password has been successfully updated.", email: reset.email)
        case "recoverEmail":
            let restored = try await applyActionCode(code)
            return EmailActionResult(success: "The email has been successfully reset.", email: restored.email)
        case "verifyAndChangeEmail":
            let changed = try await applyActionCode(code)
            return EmailActionResult(success: "The email has been successfully changed.", email: nil, newEmail: changed.newEmail)
        case "signIn":
            // The emulator redirects to the app (continueUrl); the app then signs in with the code.
            _ = try liveOobCode(code)
            return EmailActionResult(instructions: "To sign in, send this oobCode with the address it was sent to to accounts:signInWithEmailLink.",
                                     email: nil)
        case let mode:
            throw BackendFailure.invalidArgument(
                "((Unsupported mode \(mode ?? "(none)"); expected verifyEmail, resetPassword, recoverEmail, verifyAndChangeEmail or signIn.))")
        }
    }

    /// `accounts:resetPassword`: checks a password-reset code, and with `newPassword` uses it. A reset
    /// verifies the email (the user proved they read it), ends every session and lifts a lockout.
    func resetPassword(_ body: ResetPasswordBody) async throws -> ResetPasswordResponse {
        guard let code = body.oobCode, !code.isEmpty else { throw BackendFailure.missingOobCode }
        let record = try liveOobCode(code)
        guard let newPassword = body.newPassword else {
            // An email sign-in code does not tell its address: whoever signs in with it must know it.
            let email = record.requestType == SendOobCodeRequest.RequestType.emailSignIn.rawValue ? nil : record.email
            return ResetPasswordResponse(email: email, newEmail: record.newEmail, requestType: record.requestType)
        }
        guard record.requestType == SendOobCodeRequest.RequestType.passwordReset.rawValue else { throw BackendFailure.invalidOobCode }
        try checkPasswordStrength(newPassword)
        let salt = SecureRandom.bytes(16)
        let hash = try await store.scrypt.hash(password: newPassword, salt: salt)
        try await store.write { db in
            guard try OobCodeRecord.deleteOne(db, key: code),
                  var user = try StoredAccount.fetchOne(db, key: record.localId), user.email == record.email else {
                throw BackendFailure.invalidOobCode
            }
            user.passwordHash = hash
            user.salt = salt
            user.passwordUpdatedAt = nowMilliseconds
            user.emailVerified = true
            user.revokeTokens(at: nowMilliseconds)
            try user.update(db)
            if try ProviderRecord.fetchOne(db, key: ["localId": user.localId, "providerId": "password"]) == nil {
                try ProviderRecord.password(localId: user.localId, email: record.email).insert(db)
            }
            try AccountSessions.revokeAll(localId: user.localId, in: db)
            try FailedSignInRecord.clear(email: user.email, in: db)
        }
        return ResetPasswordResponse(email: record.email, requestType: record.requestType)
    }

    /// `accounts:update` with `oobCode`: verifies the email the code was sent to, changes the email
    /// to the verified new one (`VERIFY_AND_CHANGE_EMAIL`), or restores the email it was changed from
    /// (`RECOVER_EMAIL`, sent to the old address on every change).
    func applyActionCode(_ code: String) async throws -> AccountsUpdateResponse {
        let record = try liveOobCode(code)
        let requestType = SendOobCodeRequest.RequestType(rawValue: record.requestType)
        // A code taken is spent even when its action then fails (the address meanwhile taken), as in
        // the emulator: the failure commits the deletion.
        let (user, providers): (StoredAccount, [ProviderRecord]) = try await store.writeCommittingFailure { db in
            guard try OobCodeRecord.deleteOne(db, key: code) else { throw BackendFailure.invalidOobCode }
            guard var user = try StoredAccount.fetchOne(db, key: record.localId) else { return .failure(.invalidOobCode) }
            switch requestType {
            case .verifyEmail:
                guard user.email == record.email else { return .failure(.invalidOobCode) }
                user.emailVerified = true
            case .verifyAndChangeEmail:
                guard user.email == record.email, let newEmail = record.newEmail else { return .failure(.invalidOobCode) }
                guard try StoredAccount.find(email: newEmail, in: db) == nil else { return .failure(.emailExists) }
                try changeEmail(of: &user, to: newEmail, verified: true, in: db)
            case .recoverEmail:
                guard user.initialEmail == record.email else { return .failure(.invalidOobCode) }
                if user.email != record.email {
                    guard try StoredAccount.find(email: record.email, in: db) == nil else { return .failure(.emailExists) }
                    // The owner of the old address proved it by opening the message: verified.
                    try changeEmail(of: &user, to: record.email, verified: true, in: db)
                }
            case .passwordReset, .emailSignIn, nil:
                // Not an action of this call: the code stays for its own.
                throw BackendFailure.invalidOobCode
            }
            try user.update(db)
            return .success((user, try user.providers(in: db)))
        }
        return AccountsUpdateResponse(localId: user.localId, email: user.email, displayName: user.displayName, photoUrl: user.photoUrl,
                                      emailVerified: user.emailVerified, providerUserInfo: providers.map(\.wire),
                                      passwordHash: user.passwordHash.map { _ in Self.redactedPasswordHash },
                                      newEmail: requestType == .verifyAndChangeEmail ? record.newEmail : nil)
    }

    /// A new email for the account: the password provider follows it, and every session ends.
    func changeEmail(of user: inout StoredAccount, to email: String, verified: Bool, in db: Database) throws {
        user.email = email
        user.emailVerified = verified
        user.revokeTokens(at: nowMilliseconds)
        try ProviderRecord.movePassword(of: user.localId, to: email, in: db)
        try AccountSessions.revokeAll(localId: user.localId, in: db)
    }

    /// An unused, unexpired code; a used or unknown one is `INVALID_OOB_CODE`, an old one `EXPIRED_OOB_CODE`.
    func liveOobCode(_ code: String) throws -> OobCodeRecord {
        guard let record = try store.read({ try OobCodeRecord.fetchOne($0, key: code) }) else { throw BackendFailure.invalidOobCode }
        guard record.expiresAt > nowSeconds else { throw BackendFailure.expiredOobCode }
        return record
    }

    /// `GET /emulator/v1/projects/{id}/oobCodes`: the outbox of emails not yet used or expired, oldest first.
    func listOobCodes() throws -> ListOobCodesResponse {
        let records = try store.read { db in
            try OobCodeRecord.filter(OobCodeRecord.Columns.expiresAt > nowSeconds).order(OobCodeRecord.Columns.createdAt, Column.rowID).fetchAll(db)
        }
        return ListOobCodesResponse(oobCodes: records.map {
            .init(email: $0.email, oobCode: $0.oobCode, oobLink: oobLink(for: $0), requestType: $0.requestType, newEmail: $0.newEmail,
                  sentAt: Self.rfc3339(milliseconds: $0.createdAt), expiresAt: Self.rfc3339(seconds: $0.expiresAt))
        })
    }
}

extension ProviderRecord {
    /// The `password` row follows the account's email; `creating` adds it when there is none.
    /// Returns whether a row exists now.
    @discardableResult
    static func movePassword(of localId: String, to email: String, creating: Bool = false, in db: Database) throws -> Bool {
        guard var row = try ProviderRecord.fetchOne(db, key: ["localId": localId, "providerId": "password"]) else {
            if creating { try ProviderRecord.password(localId: localId, email: email).insert(db) }
            return creating
        }
        row.rawId = email
        row.federatedId = email
        row.email = email
        try row.update(db)
        return true
    }
}
