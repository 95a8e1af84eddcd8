import Foundation

/// A user as `accounts:lookup` returns it (the REST API's `UserInfo`).
public struct AccountInfo: Codable, Sendable, Equatable {
    public var localId: String
    public var email: String?
    public var emailVerified: Bool?
    public var displayName: String?
    public var photoUrl: String?
    public var phoneNumber: String?
    public var disabled: Bool?
    public var providerUserInfo: [ProviderUserInfo]?
    public var passwordHash: String?
    public var salt: String?
    /// Milliseconds since 1970.
    public var passwordUpdatedAt: Double?
    /// Seconds since 1970, as a string.
    public var validSince: String?
    /// Milliseconds since 1970, as a string.
    public var createdAt: String?
    /// Milliseconds since 1970, as a string.
    public var lastLoginAt: String?
    /// RFC 3339.
    public var lastRefreshAt: String?
    /// A JSON object as a string.
    public var customAttributes: String?
    public var mfaInfo: [MfaEnrollment]?
    /// Whether the account has signed in with an email link (`createAuthUri`'s `emailLink` method).
    public var emailLinkSignin: Bool?
    /// The account's email before its first change: where a `RECOVER_EMAIL` message goes.
    public var initialEmail: String?
    /// The Identity Platform tenant the account belongs to; nil for a project's own.
    public var tenantId: String?

    public init(localId: String, email: String? = nil, emailVerified: Bool? = nil, displayName: String? = nil,
                photoUrl: String? = nil, phoneNumber: String? = nil, disabled: Bool? = nil,
                providerUserInfo: [ProviderUserInfo]? = nil, passwordHash: String? = nil, salt: String? = nil,
                passwordUpdatedAt: Double? = nil, validSince: String? = nil, createdAt: String? = nil,
                lastLoginAt: String? = nil, lastRefreshAt: String? = nil, customAttributes: String? = nil,
                mfaInfo: [MfaEnrollment]? = nil, emailLinkSignin: Bool? = nil, initialEmail: String? = nil, tenantId: String? = nil) {
        self.localId = localId
        self.email = email
        self.emailVerified = emailVerified
        self.displayName = displayName
        self.photoUrl = photoUrl
        self.phoneNumber = phoneNumber
        self.disabled = disabled
        self.providerUserInfo = providerUserInfo
        self.passwordHash = passwordHash
        self.salt = salt
        self.passwordUpdatedAt = passwordUpdatedAt
        self.validSince = validSince
        self.createdAt = createdAt
        self.lastLoginAt = lastLoginAt
        self.lastRefreshAt = lastRefreshAt
        self.customAttributes = customAttributes
        self.mfaInfo = mfaInfo
        self.emailLinkSignin = emailLinkSignin
        self.initialEmail = initialEmail
        self.tenantId = tenantId
    }
}

/// One linked provider of an account (`providerUserInfo[]`).
public struct ProviderUserInfo: Codable, Sendable, Equatable {
    public var providerId: String
    public var rawId: String?
    public var federatedId: String?
    public var email: String?
    public var displayName: String?
    public var photoUrl: String?
    public var phoneNumber: String?
    public var screenName: String?

    public init(providerId: String, rawId: String? = nil, federatedId: String? = nil, email: String? = nil,
                displayName: String? = nil, photoUrl: String? = nil, phoneNumber: String? = nil, screenName: String? = nil) {
        self.providerId = providerId
        self.rawId = rawId
        self.federatedId = federatedId
        self.email = email
        self.displayName = displayName
        self.photoUrl = photoUrl
        self.phoneNumber = phoneNumber
        self.screenName = screenName
    }
}

/// An enrolled second factor (`mfaInfo[]`): exactly one of `phoneInfo`, `totpInfo` is set.
public struct MfaEnrollment: Codable, Sendable, Equatable {
    public struct TotpInfo: Codable, Sendable, Equatable { public init() {} }

    public var mfaEnrollmentId: String
    public var displayName: String?
    /// RFC 3339 with milliseconds.
    public var enrolledAt: String?
    public var phoneInfo: String?
    /// The whole number, in account look-ups (never in sign-in hints, whose `phoneInfo` is masked).
    public var unobfuscatedPhoneInfo: String?
    public var totpInfo: TotpInfo?

    public init(mfaEnrollmentId: String, displayName: String? = nil, enrolledAt: String? = nil,
                phoneInfo: String? = nil, unobfuscatedPhoneInfo: String? = nil, totpInfo: TotpInfo? = nil) {
        self.unobfuscatedPhoneInfo = unobfuscatedPhoneInfo
        self.mfaEnrollmentId = mfaEnrollmentId
        self.displayName = displayName
        self.enrolledAt = enrolledAt
        self.phoneInfo = phoneInfo
        self.totpInfo = totpInfo
    }
}
