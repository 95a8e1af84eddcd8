import Foundation

/// How the embedded backend behaves. The defaults are those of a new Firebase project.
public struct EmbeddedBackendConfiguration: Sendable {
    /// The project a new data directory gets when none is asked for.
    public static let defaultProjectId = "authdeck-local"

    /// The project the data must belong to; nil: whichever it belongs to (`defaultProjectId` for new
    /// data). A data directory keeps its project: asking for another is refused, never relabelled.
    public var projectId: String?
    /// When on, a failed password sign-in never says whether the email exists (`INVALID_LOGIN_CREDENTIALS`).
    public var emailEnumerationProtection: Bool
    /// Seconds after sign-in during which password change, email change and deletion are allowed.
    public var recentLoginWindow: TimeInterval
    /// Consecutive wrong passwords for one account before it is locked.
    public var maxFailedPasswordAttempts: Int
    public var lockoutDuration: TimeInterval
    /// Anonymous accounts older than this are deleted by `purgeExpiredAnonymousUsers()`.
    public var anonymousAccountLifetime: TimeInterval
    /// How long an email action (verification, password reset) can be used.
    public var oobCodeLifetime: TimeInterval = 3600
    /// How long an SMS code (and its `sessionInfo`) can be used.
    public var verificationCodeLifetime: TimeInterval = 600
    /// Wrong codes allowed for one SMS verification, TOTP enrollment or TOTP factor before it stops
    /// accepting codes (an SMS verification or TOTP enrollment is then void; a TOTP factor is locked
    /// for `lockoutDuration`).
    public var maxVerificationAttempts: Int = 5
    /// How long after the first factor the second must be given (`mfaPendingCredential`).
    public var mfaPendingCredentialLifetime: TimeInterval = 600
    /// How long a TOTP secret from `mfaEnrollment:start` waits for its first code.
    public var totpEnrollmentLifetime: TimeInterval = 600
    /// TOTP codes of this many 30-second intervals before and after now are accepted (clock skew);
    /// Identity Platform allows 0 to 10 and defaults to 5.
    public var totpAdjacentIntervals: Int = 5
    /// How long the `temporaryProof` of a phone number owned by another account is valid.
    public var temporaryProofLifetime: TimeInterval = 600
    /// When set, administrator calls need `Authorization: Bearer <adminToken>`, and the emulator's
    /// `Bearer owner` and `ya29.` conventions are refused (`authdeck serve --admin-token`).
    public var adminToken: String?
    /// Whether people who do not trust each other reach this backend: an admin token is what makes
    /// `authdeck serve` safe off loopback, and what `authdeck ssh` gives the backend it serves its
    /// visitors, so it is the mark. A shared backend keeps each caller's simulated identities to that
    /// caller, and only the administrator's vouch for their email (see `SimulatedIdentityScope`); custom
    /// tokens must be signed by the project's service account there.
    public var isShared: Bool { adminToken != nil }

    public init(projectId: String? = nil, emailEnumerationProtection: Bool = true,
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
