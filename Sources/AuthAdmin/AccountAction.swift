import Foundation

/// What the operator does to accounts, one or many at a time; each is written to the audit log.
public enum AccountAction: Sendable, Equatable {
    case disable
    case enable
    case delete
    /// Sign out everywhere: refresh tokens and earlier ID tokens stop working.
    case revokeRefreshTokens
    case markEmailVerified
    case sendPasswordReset
    case sendEmailVerification
    /// A JSON object; `{}` clears the claims.
    case setCustomClaims(String)
    /// The second factor's enrollment id.
    case removeSecondFactor(String)
    /// Lifts the lock-out wrong passwords put on the account's email.
    case clearLockout

    /// Deleting cannot be undone; the others can be (or only send a message).
    public var isDestructive: Bool {
        switch self {
        case .delete, .disable, .revokeRefreshTokens, .removeSecondFactor, .setCustomClaims: true
        case .enable, .markEmailVerified, .sendPasswordReset, .sendEmailVerification, .clearLockout: false
        }
    }

    /// How the audit log and the banner name it.
    public var name: String {
        switch self {
        case .disable: "disable"
        case .enable: "enable"
        case .delete: "delete"
        case .revokeRefreshTokens: "revoke refresh tokens"
        case .markEmailVerified: "mark email verified"
        case .sendPasswordReset: "send password reset"
        case .sendEmailVerification: "send verification email"
        case .setCustomClaims: "set custom claims"
        case let .removeSecondFactor(id): "remove second factor \(id)"
        case .clearLockout: "clear password lock-out"
        }
    }
}

/// What became of an action: the uids it failed for, and why.
public struct AccountActionOutcome: Sendable, Equatable {
    public var action: AccountAction
    public var succeeded: [String]
    public var failed: [String: String]

    public init(action: AccountAction, succeeded: [String], failed: [String: String]) {
        self.action = action
        self.succeeded = succeeded
        self.failed = failed
    }
}

extension AccountAdmin {
    /// Applies `action` to each of `uids` (deletes in batches), records it in `audit` as `operator`,
    /// and reports per uid. Claims are checked once, before anything is sent.
    public func perform(_ action: AccountAction, on uids: [String], audit: AuditLog?, operator who: String) async throws -> AccountActionOutcome {
        if case let .setCustomClaims(json) = action { _ = try CustomClaims.validated(json) }
        var failed: [String: String] = [:]
        if action == .delete {
            for failure in try await delete(uids: uids) { failed[failure.uid] = failure.message }
        } else {
            for uid in uids {
                do {
                    try await apply(action, uid: uid)
                } catch {
                    failed[uid] = String(describing: error)
                }
            }
        }
        let outcome = AccountActionOutcome(action: action, succeeded: uids.filter { failed[$0] == nil }, failed: failed)
        try await audit?.record(AuditEntry(date: Date(), operator: who, action: action.name, project: projectId, tenant: tenantId, uids: uids, failed: failed.count))
        return outcome
    }

    private func apply(_ action: AccountAction, uid: String) async throws {
        switch action {
        case .disable: try await setDisabled(true, uid: uid)
        case .enable: try await setDisabled(false, uid: uid)
        case .delete: try await delete(uid: uid)
        case .revokeRefreshTokens: try await revokeRefreshTokens(uid: uid)
        case .markEmailVerified: try await setEmailVerified(uid: uid)
        case .sendPasswordReset, .sendEmailVerification:
            guard let email = try await user(uid: uid).email else { throw AuthAdminError.backend(status: 400, message: "MISSING_EMAIL") }
            try await sendEmail(action == .sendPasswordReset ? .passwordReset : .verifyEmail, to: email)
        case let .setCustomClaims(json): try await setCustomClaims(json, uid: uid)
        case let .removeSecondFactor(id): try await removeSecondFactor(id, uid: uid)
        case .clearLockout:
            guard let email = try await user(uid: uid).email else { throw AuthAdminError.backend(status: 400, message: "MISSING_EMAIL") }
            try await clearPasswordLockout(email: email)
        }
    }
}
