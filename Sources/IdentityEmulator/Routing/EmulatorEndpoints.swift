import Foundation
import GRDB
import IdentityToolkit

extension EmbeddedBackend {
    /// `DELETE /emulator/v1/projects/{projectId}/accounts`: every user goes; their sessions end. A
    /// tenant (`…/tenants/{tenantId}/accounts`), a visitor's sandbox, is emptied whole: its outbox and
    /// lock-outs go too, so that no code sent before can sign in to an account made again after.
    func deleteAllAccounts() async throws {
        let wholeTenant = tenantId != nil
        try await store.write { db in
            _ = try StoredAccount.deleteAll(db)
            _ = try RefreshTokenRecord.updateAll(db, RefreshTokenRecord.Columns.revoked.set(to: true))
            guard wholeTenant else { return }
            _ = try OobCodeRecord.deleteAll(db)
            _ = try SmsVerificationRecord.deleteAll(db)
            _ = try PhoneProofRecord.deleteAll(db)
            _ = try FailedSignInRecord.deleteAll(db)
        }
        logger.notice("all accounts deleted through the emulator endpoint")
    }

    /// `GET /emulator/v1/projects/{projectId}/config`.
    func emulatorProjectConfig() throws -> EmulatorProjectConfig {
        EmulatorProjectConfig(signIn: .init(allowDuplicateEmails: false),
                              emailPrivacyConfig: .init(enableImprovedEmailPrivacy: try isEmailEnumerationProtected()))
    }

    /// `PATCH /emulator/v1/projects/{projectId}/config`: fields left out keep their value.
    func updateEmulatorProjectConfig(_ body: EmulatorConfigBody) async throws -> EmulatorProjectConfig {
        if body.signIn?.allowDuplicateEmails == true { throw BackendFailure.duplicateEmailsUnsupported }
        if let enabled = body.emailPrivacyConfig?.enableImprovedEmailPrivacy {
            try await store.write { db in
                try db.execute(sql: "UPDATE \(ProjectConfigRecord.databaseTableName) SET emailEnumerationProtection = ?", arguments: [enabled])
            }
        }
        return try emulatorProjectConfig()
    }

    /// Email-enumeration protection ("improved email privacy"): the setting stored through the
    /// emulator config endpoint, else the backend's configured default. Read per request so that
    /// a change applies at once.
    func isEmailEnumerationProtected() throws -> Bool {
        let stored = try store.read { db in
            try Bool.fetchOne(db, sql: "SELECT emailEnumerationProtection FROM \(ProjectConfigRecord.databaseTableName)")
        }
        return stored ?? configuration.emailEnumerationProtection
    }
}
