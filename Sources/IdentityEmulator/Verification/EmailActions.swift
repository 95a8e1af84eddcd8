import Foundation
import GRDB
import IdentityToolkit

extension EmbeddedBackend {
    /// `accounts:sendOobCode`: "sends" a verification or password-reset email by putting its code in
    /// the outbox (`GET /emulator/v1/projects/{id}/oobCodes`). Administrators with `returnOobLink` get
    /// the code and link back instead (the Admin SDK's `generate_*_link`).
    func sendOobCode(_ body: SendOobCodeBody, context: RequestContext) throws -> SendOobCodeResponse {
        guard let rawType = body.requestType, !rawType.isEmpty else { throw BackendFailure.missingRequestType }
        guard let requestType = SendOobCodeRequest.RequestType(rawValue: rawType),
              requestType == .passwordReset || requestType == .verifyEmail else {
            throw BackendFailure.invalidArgument("((Unsupported requestType \(rawType).))")
        }
        if body.returnOobLink == true, !context.isAdmin { throw BackendFailure.insufficientPermission }
        if let continueUrl = body.continueUrl {
            guard let url = URL(string: continueUrl), url.scheme != nil, url.host != nil else { throw BackendFailure.invalidContinueUri }
        }

        let user: UserRecord
        switch requestType {
        case .passwordReset:
            guard let raw = body.email, !raw.isEmpty else { throw BackendFailure.missingEmail }
            guard let email = EmailAddress.normalized(raw) else { throw BackendFailure.invalidEmail }
            guard let found = try store.read({ try UserRecord.find(email: email, in: $0) }) else {
                // With enumeration protection an unknown address gets the same answer as a known one.
                guard try isEmailEnumerationProtected(), body.returnOobLink != true else { throw BackendFailure.emailNotFound }
                return SendOobCodeResponse(email: email)
            }
            user = found
        default:
            if body.returnOobLink == true, body.idToken == nil {
                guard let raw = body.email, !raw.isEmpty else { throw BackendFailure.missingEmail }
                guard let email = EmailAddress.normalized(raw),
                      let found = try store.read({ try UserRecord.find(email: email, in: $0) }) else { throw BackendFailure.userNotFound }
                user = found
            } else {
                user = try verifySession(idToken: body.idToken ?? "").user
                guard user.email != nil else { throw BackendFailure.missingEmail }
            }
        }
        guard let email = user.email else { throw BackendFailure.missingEmail }

        let record = OobCodeRecord(oobCode: SecureRandom.bytes(40).base64URLEncodedString(), requestType: requestType.rawValue,
                                   email: email, localId: user.localId, continueUrl: body.continueUrl, createdAt: nowMilliseconds,
                                   expiresAt: nowSeconds + Int64(configuration.oobCodeLifetime))
        try store.write { db in
            try db.deleteExpiredVerifications(now: nowSeconds)
            try record.insert(db)
        }
        logger.info("email action queued in the outbox", metadata: ["requestType": "\(requestType.rawValue)", "localId": "\(user.localId)"])
        guard body.returnOobLink == true else { return SendOobCodeResponse(email: email) }
        return SendOobCodeResponse(email: email, oobCode: record.oobCode, oobLink: oobLink(for: record))
    }

    /// The link an email would carry, in the emulator's form.
    func oobLink(for record: OobCodeRecord) -> String {
        let mode = record.requestType == SendOobCodeRequest.RequestType.passwordReset.rawValue ? "resetPassword" : "verifyEmail"
        var components = URLComponents()
        let origin = actionLinkOrigin.value
        components.scheme = "http"
        components.host = origin.host
        components.port = origin.port
        components.path = Self.emailActionPath
        var items = [URLQueryItem(name: "mode", value: mode), URLQueryItem(name: "lang", value: "en"),
                     URLQueryItem(name: "oobCode", value: record.oobCode), URLQueryItem(name: "apiKey", value: "fake-api-key")]
        if let continueUrl = record.continueUrl { items.append(URLQueryItem(name: "continueUrl", value: continueUrl)) }
        components.queryItems = items
        return components.string ?? ""
    }

    static let emailActionPath = "/emulator/action"

    /// `GET /emulator/action?mode=&oobCode=[&newPassword=]`: what opening an email's link does, as
    /// the emulator's action handler: verifies the email, or resets the password (without
    /// `newPassword` it checks the code and says how to finish). It answers JSON, never a page.
    func applyEmailAction(_ query: [URLQueryItem]) throws -> EmailActionResult {
        func value(_ name: String) -> String? { query.first { $0.name == name }?.value.flatMap { $0.isEmpty ? nil : $0 } }
        guard let code = value("oobCode") else { throw BackendFailure.missingOobCode }
        switch value("mode") {
        case "verifyEmail":
            let updated = try applyActionCode(code)
            return EmailActionResult(success: "The email has been successfully verified.", email: updated.email)
        case "resetPassword":
            guard let newPassword = value("newPassword") else {
                let checked = try resetPassword(ResetPasswordBody(oobCode: code, newPassword: nil))
                return EmailActionResult(instructions: "To reset the password of \(checked.email ?? "this account"), open this link again with a newPassword query parameter added.",
                                         email: checked.email)
            }
            let reset = try resetPassword(ResetPasswordBody(oobCode: code, newPassword: newPassword))
            return EmailActionResult(success: "The password has been successfully updated.", email: reset.email)
        case let mode:
            throw BackendFailure.invalidArgument("((Unsupported mode \(mode ?? "(none)"); expected verifyEmail or resetPassword.))")
        }
    }

    /// `accounts:resetPassword`: checks a password-reset code, and with `newPassword` uses it. A reset
    /// verifies the email (the user proved they read it), ends every session and lifts a lockout.
    func resetPassword(_ body: ResetPasswordBody) throws -> ResetPasswordResponse {
        guard let code = body.oobCode, !code.isEmpty else { throw BackendFailure.missingOobCode }
        let record = try liveOobCode(code)
        guard let newPassword = body.newPassword else {
            return ResetPasswordResponse(email: record.email, requestType: record.requestType)
        }
        guard record.requestType == SendOobCodeRequest.RequestType.passwordReset.rawValue else { throw BackendFailure.invalidOobCode }
        try checkPasswordStrength(newPassword)
        let salt = SecureRandom.bytes(16)
        let hash = try store.scrypt.hash(password: newPassword, salt: salt)
        try store.write { db in
            guard try OobCodeRecord.deleteOne(db, key: code),
                  var user = try UserRecord.fetchOne(db, key: record.localId), user.email == record.email else {
                throw BackendFailure.invalidOobCode
            }
            user.passwordHash = hash
            user.salt = salt
            user.passwordUpdatedAt = nowMilliseconds
            user.emailVerified = true
            user.validSince = nowSeconds
            try user.update(db)
            if try ProviderRecord.fetchOne(db, key: ["localId": user.localId, "providerId": "password"]) == nil {
                try ProviderRecord.password(localId: user.localId, email: record.email).insert(db)
            }
            try RefreshTokenRecord.revokeAll(localId: user.localId, in: db)
            try FailedSignInRecord.clear(email: user.email, in: db)
        }
        return ResetPasswordResponse(email: record.email, requestType: record.requestType)
    }

    /// `accounts:update` with `oobCode`: verifies the email the code was sent to.
    func applyActionCode(_ code: String) throws -> AccountsUpdateResponse {
        let record = try liveOobCode(code)
        guard record.requestType == SendOobCodeRequest.RequestType.verifyEmail.rawValue else { throw BackendFailure.invalidOobCode }
        let (user, providers) = try store.write { db in
            guard try OobCodeRecord.deleteOne(db, key: code),
                  var user = try UserRecord.fetchOne(db, key: record.localId), user.email == record.email else {
                throw BackendFailure.invalidOobCode
            }
            user.emailVerified = true
            try user.update(db)
            return (user, try user.providers(in: db))
        }
        return AccountsUpdateResponse(localId: user.localId, email: user.email, displayName: user.displayName, photoUrl: user.photoUrl,
                                      emailVerified: true, providerUserInfo: providers.map(\.wire),
                                      passwordHash: user.passwordHash.map { _ in Self.redactedPasswordHash })
    }

    /// An unused, unexpired code; a used or unknown one is `INVALID_OOB_CODE`, an old one `EXPIRED_OOB_CODE`.
    private func liveOobCode(_ code: String) throws -> OobCodeRecord {
        guard let record = try store.read({ try OobCodeRecord.fetchOne($0, key: code) }) else { throw BackendFailure.invalidOobCode }
        guard record.expiresAt > nowSeconds else { throw BackendFailure.expiredOobCode }
        return record
    }

    /// `GET /emulator/v1/projects/{id}/oobCodes`: the outbox of emails not yet used, oldest first.
    func listOobCodes() throws -> ListOobCodesResponse {
        let records = try store.read { db in
            try OobCodeRecord.filter(OobCodeRecord.Columns.expiresAt > nowSeconds).order(OobCodeRecord.Columns.createdAt).fetchAll(db)
        }
        return ListOobCodesResponse(oobCodes: records.map {
            .init(email: $0.email, oobCode: $0.oobCode, oobLink: oobLink(for: $0), requestType: $0.requestType)
        })
    }
}
