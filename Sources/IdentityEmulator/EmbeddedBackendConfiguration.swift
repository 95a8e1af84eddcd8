import Foundation

/// How the embedded backend behaves. The defaults are those of a new Firebase project.
public struct EmbeddedBackendConfiguration: Sendable {
    public var projectId: String
    /// When on, a failed password sign-in never says whether the email exists (`INVALID_LOGIN_CREDENTIALS`).
    public var emailEnumerationProtection: Bool
    /// Seconds after sign-in during which password change, email change and deletion are allowed.
    public var recentLoginWindow: TimeInterval
    /// Consecutive wrong passwords for one account before it is locked.
    public var maxFailedPasswordAttempts: Int
    public var lockoutDuration: TimeInterval
    /// Anonymous accounts older than this are deleted by `purgeExpiredAnonymousUsers()`.
    public var anonymousAccountLifetime: TimeInterval
    /// When set, administrator calls need `Authorization: Bearer <adminToken>`, and the emulator's
    /// `Bearer owner` and `ya29.` conventions are refused (`authdeck serve --admin-token`).
    public var adminToken: String?

    public init(projectId: String = "authdeck-local", emailEnumerationProtection: Bool = true,
                recentLoginWindow: TimeInterval = 300, maxFailedPasswordAttempts: Int = 5,
                lockoutDuration: TimeInterval = 900, anonymousAccountLifetime: TimeInterval = 30 * 24 * 3600,
                adminToken: String? = nil) {
        self.projectId = projectId
        self.emailEnumerationProtection = emailEnumerationProtection
        self.recentLoginWindow = recentLoginWindow
        self.maxFailedPasswordAttempts = maxFailedPasswordAttempts
        self.lockoutDuration = lockoutDuration
        self.anonymousAccountLifetime = anonymousAccountLifetime
        self.adminToken = adminToken
    }
}
