import Foundation

/// An account as the Firebase Admin SDKs show it (`UserRecord`): what the operator's table and
/// detail screen read. Secrets stay out: whether a password is set, never its hash.
public struct UserRecord: Sendable, Equatable, Identifiable {
    public var uid: String
    public var email: String?
    public var emailVerified: Bool
    public var displayName: String?
    public var photoURL: String?
    public var phoneNumber: String?
    public var disabled: Bool
    public var metadata: UserMetadata
    public var providerData: [UserInfo]
    /// The custom claims as the JSON object text the backend keeps; nil when there are none.
    public var customClaims: String?
    /// ID tokens issued before this are refused (`validSince`).
    public var tokensValidAfterTime: Date?
    public var multiFactor: [MultiFactorInfo]
    /// A password is set (its hash is never shown).
    public var hasPassword: Bool

    public var id: String { uid }

    /// No email, no phone, no linked provider: what Firebase calls anonymous.
    public var isAnonymous: Bool { email == nil && phoneNumber == nil && providerData.isEmpty }

    public init(uid: String, email: String? = nil, emailVerified: Bool = false, displayName: String? = nil, photoURL: String? = nil,
                phoneNumber: String? = nil, disabled: Bool = false, metadata: UserMetadata = UserMetadata(),
                providerData: [UserInfo] = [], customClaims: String? = nil, tokensValidAfterTime: Date? = nil,
                multiFactor: [MultiFactorInfo] = [], hasPassword: Bool = false) {
        self.uid = uid
        self.email = email
        self.emailVerified = emailVerified
        self.displayName = displayName
        self.photoURL = photoURL
        self.phoneNumber = phoneNumber
        self.disabled = disabled
        self.metadata = metadata
        self.providerData = providerData
        self.customClaims = customClaims
        self.tokensValidAfterTime = tokensValidAfterTime
        self.multiFactor = multiFactor
        self.hasPassword = hasPassword
    }
}

public struct UserMetadata: Sendable, Equatable {
    public var creationTime: Date?
    public var lastSignInTime: Date?
    public var lastRefreshTime: Date?

    public init(creationTime: Date? = nil, lastSignInTime: Date? = nil, lastRefreshTime: Date? = nil) {
        self.creationTime = creationTime
        self.lastSignInTime = lastSignInTime
        self.lastRefreshTime = lastRefreshTime
    }
}

/// One linked provider; `uid` is the provider's own id for the user (the REST API's `rawId`).
public struct UserInfo: Sendable, Equatable {
    public var providerId: String
    public var uid: String?
    public var federatedId: String?
    public var email: String?
    public var displayName: String?
    public var phoneNumber: String?
    public var photoURL: String?

    public init(providerId: String, uid: String? = nil, federatedId: String? = nil, email: String? = nil, displayName: String? = nil,
                phoneNumber: String? = nil, photoURL: String? = nil) {
        self.providerId = providerId
        self.uid = uid
        self.federatedId = federatedId
        self.email = email
        self.displayName = displayName
        self.phoneNumber = phoneNumber
        self.photoURL = photoURL
    }
}

/// An enrolled second factor. The phone number is kept whole for actions; screens mask it.
public struct MultiFactorInfo: Sendable, Equatable {
    public enum FactorId: String, Sendable { case phone, totp }
    public var uid: String
    public var factorId: FactorId
    public var displayName: String?
    public var phoneNumber: String?
    public var enrollmentTime: Date?

    public init(uid: String, factorId: FactorId, displayName: String? = nil, phoneNumber: String? = nil, enrollmentTime: Date? = nil) {
        self.uid = uid
        self.factorId = factorId
        self.displayName = displayName
        self.phoneNumber = phoneNumber
        self.enrollmentTime = enrollmentTime
    }

    /// `+1•••••••0123`: enough to recognise a number, not to call it.
    public var maskedPhoneNumber: String? {
        phoneNumber.map { number in
            guard number.count > 6 else { return String(repeating: "•", count: number.count) }
            return String(number.prefix(2)) + String(repeating: "•", count: number.count - 6) + String(number.suffix(4))
        }
    }
}

/// The project's password-hash parameters (Firebase's modified scrypt), as the Firebase console's
/// Users menu shows them; `auth:import` needs them to bring hashes from this project elsewhere.
public struct PasswordHashParameters: Sendable, Equatable {
    public var algorithm: String
    /// Standard base64.
    public var signerKey: String
    /// Standard base64.
    public var saltSeparator: String
    public var rounds: Int
    public var memoryCost: Int

    public init(algorithm: String = "SCRYPT", signerKey: String, saltSeparator: String, rounds: Int, memoryCost: Int) {
        self.algorithm = algorithm
        self.signerKey = signerKey
        self.saltSeparator = saltSeparator
        self.rounds = rounds
        self.memoryCost = memoryCost
    }
}
