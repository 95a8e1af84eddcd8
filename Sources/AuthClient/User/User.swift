import Foundation
import IdentityToolkit

/// One sign-in method of a user (Firebase's `UserInfo`, an entry of `providerData`).
public struct UserInfo: Sendable, Equatable, Codable {
    public var providerID: String
    /// The user's id at that provider (for `password`, the email).
    public var uid: String
    public var displayName: String?
    public var email: String?
    public var phoneNumber: String?
    public var photoURL: String?

    public init(providerID: String, uid: String, displayName: String? = nil, email: String? = nil,
                phoneNumber: String? = nil, photoURL: String? = nil) {
        self.providerID = providerID
        self.uid = uid
        self.displayName = displayName
        self.email = email
        self.phoneNumber = phoneNumber
        self.photoURL = photoURL
    }
}

public struct UserMetadata: Sendable, Equatable, Codable {
    public var creationDate: Date?
    public var lastSignInDate: Date?

    public init(creationDate: Date? = nil, lastSignInDate: Date? = nil) {
        self.creationDate = creationDate
        self.lastSignInDate = lastSignInDate
    }
}

/// A snapshot of the signed-in user. Firebase's `User` is a reference type with methods;
/// here the methods live on the `Auth` actor and `User` is a plain value that is safe to
/// hand to the UI thread.
public struct User: Sendable, Equatable, Codable {
    public var uid: String
    public var isAnonymous: Bool
    public var email: String?
    public var emailVerified: Bool
    public var displayName: String?
    public var phoneNumber: String?
    public var photoURL: String?
    public var providerData: [UserInfo]
    public var metadata: UserMetadata
    public var isDisabled: Bool
    /// The second factors (`user.multiFactor.enrolledFactors` in Firebase).
    public var enrolledFactors: [MultiFactorInfo]
    /// The Identity Platform tenant the user belongs to (Firebase's `user.tenantID`); nil for a project's own.
    public var tenantID: String?

    public init(uid: String, isAnonymous: Bool, email: String? = nil, emailVerified: Bool = false, displayName: String? = nil,
                phoneNumber: String? = nil, photoURL: String? = nil, providerData: [UserInfo] = [],
                metadata: UserMetadata = UserMetadata(), isDisabled: Bool = false, enrolledFactors: [MultiFactorInfo] = [],
                tenantID: String? = nil) {
        self.uid = uid
        self.isAnonymous = isAnonymous
        self.email = email
        self.emailVerified = emailVerified
        self.displayName = displayName
        self.phoneNumber = phoneNumber
        self.photoURL = photoURL
        self.providerData = providerData
        self.metadata = metadata
        self.isDisabled = isDisabled
        self.enrolledFactors = enrolledFactors
        self.tenantID = tenantID
    }

    /// Sessions saved before second factors existed have no `enrolledFactors`; they restore with none.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        uid = try container.decode(String.self, forKey: .uid)
        isAnonymous = try container.decode(Bool.self, forKey: .isAnonymous)
        email = try container.decodeIfPresent(String.self, forKey: .email)
        emailVerified = try container.decode(Bool.self, forKey: .emailVerified)
        displayName = try container.decodeIfPresent(String.self, forKey: .displayName)
        phoneNumber = try container.decodeIfPresent(String.self, forKey: .phoneNumber)
        photoURL = try container.decodeIfPresent(String.self, forKey: .photoURL)
        providerData = try container.decode([UserInfo].self, forKey: .providerData)
        metadata = try container.decode(UserMetadata.self, forKey: .metadata)
        isDisabled = try container.decode(Bool.self, forKey: .isDisabled)
        enrolledFactors = try container.decodeIfPresent([MultiFactorInfo].self, forKey: .enrolledFactors) ?? []
        tenantID = try container.decodeIfPresent(String.self, forKey: .tenantID)
    }

    /// Builds the user from `accounts:lookup`. An account with any provider is not anonymous,
    /// whatever the caller believed (the JS SDK's rule); one without stays as it was.
    init(account: AccountInfo, wasAnonymous: Bool) {
        let providers = (account.providerUserInfo ?? []).map {
            UserInfo(providerID: $0.providerId, uid: $0.rawId ?? $0.federatedId ?? "", displayName: $0.displayName,
                     email: $0.email, phoneNumber: $0.phoneNumber, photoURL: $0.photoUrl)
        }
        self.init(
            uid: account.localId,
            isAnonymous: wasAnonymous && providers.isEmpty && account.email == nil,
            email: account.email,
            emailVerified: account.emailVerified ?? false,
            displayName: account.displayName,
            phoneNumber: account.phoneNumber,
            photoURL: account.photoUrl,
            providerData: providers,
            metadata: UserMetadata(creationDate: Self.date(milliseconds: account.createdAt),
                                   lastSignInDate: Self.date(milliseconds: account.lastLoginAt)),
            isDisabled: account.disabled ?? false,
            enrolledFactors: (account.mfaInfo ?? []).compactMap(MultiFactorInfo.init),
            tenantID: account.tenantId)
    }

    static func date(milliseconds: String?) -> Date? {
        guard let milliseconds, let value = Double(milliseconds) else { return nil }
        return Date(timeIntervalSince1970: value / 1000)
    }
}

/// What a sign-in, link or reauthentication returns.
public struct AuthDataResult: Sendable, Equatable {
    public var user: User
    public var additionalUserInfo: AdditionalUserInfo?
    /// After a federated sign-in: the provider's ID and access tokens, for calling its APIs.
    public var credential: OAuthCredential?

    public init(user: User, additionalUserInfo: AdditionalUserInfo?, credential: OAuthCredential? = nil) {
        self.user = user
        self.additionalUserInfo = additionalUserInfo
        self.credential = credential
    }
}

public struct AdditionalUserInfo: Sendable, Equatable {
    public var providerID: String?
    public var isNewUser: Bool
    /// The provider's profile (`rawUserInfo`): Graph `/me` for Microsoft, the claims for Apple, …
    public var profile: [String: JSONValue]?
    public var username: String?

    public init(providerID: String?, isNewUser: Bool, profile: [String: JSONValue]? = nil, username: String? = nil) {
        self.providerID = providerID
        self.isNewUser = isNewUser
        self.profile = profile
        self.username = username
    }
}
