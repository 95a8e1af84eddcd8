import Foundation

// The v1 `accounts:*` requests used by the client, with the REST API's field names.

/// `accounts:signUp`. An empty body creates an anonymous user; with `idToken` it links
/// email/password to that user (the anonymous upgrade).
public struct SignUpRequest: IdentityRequest, Equatable {
    public static let endpoint = Endpoint.v1("accounts:signUp")
    public typealias Response = SignUpResponse

    public var email: String?
    public var password: String?
    public var displayName: String?
    public var idToken: String?
    public var returnSecureToken: Bool?

    public init(email: String? = nil, password: String? = nil, displayName: String? = nil, idToken: String? = nil,
                returnSecureToken: Bool? = true) {
        self.email = email
        self.password = password
        self.displayName = displayName
        self.idToken = idToken
        self.returnSecureToken = returnSecureToken
    }
}

public struct SignUpResponse: Codable, Sendable, Equatable {
    public var kind: String?
    public var localId: String
    public var email: String?
    public var displayName: String?
    public var idToken: String?
    public var refreshToken: String?
    /// Seconds, as a string.
    public var expiresIn: String?

    public init(kind: String? = "identitytoolkit#SignupNewUserResponse", localId: String, email: String? = nil, displayName: String? = nil,
                idToken: String? = nil, refreshToken: String? = nil, expiresIn: String? = nil) {
        self.kind = kind
        self.localId = localId
        self.email = email
        self.displayName = displayName
        self.idToken = idToken
        self.refreshToken = refreshToken
        self.expiresIn = expiresIn
    }
}

/// `accounts:signInWithPassword`.
public struct SignInWithPasswordRequest: IdentityRequest, Equatable {
    public static let endpoint = Endpoint.v1("accounts:signInWithPassword")
    public typealias Response = SignInWithPasswordResponse

    public var email: String
    public var password: String
    public var returnSecureToken: Bool?

    public init(email: String, password: String, returnSecureToken: Bool? = true) {
        self.email = email
        self.password = password
        self.returnSecureToken = returnSecureToken
    }
}

/// Either tokens, or — for an account with second factors — `mfaPendingCredential` and `mfaInfo`.
public struct SignInWithPasswordResponse: Codable, Sendable, Equatable {
    public var kind: String?
    public var localId: String?
    public var email: String?
    public var displayName: String?
    public var registered: Bool?
    public var idToken: String?
    public var refreshToken: String?
    public var expiresIn: String?
    public var mfaPendingCredential: String?
    public var mfaInfo: [MfaEnrollment]?

    public init(kind: String? = "identitytoolkit#VerifyPasswordResponse", localId: String? = nil, email: String? = nil,
                displayName: String? = nil, registered: Bool? = nil, idToken: String? = nil, refreshToken: String? = nil,
                expiresIn: String? = nil, mfaPendingCredential: String? = nil, mfaInfo: [MfaEnrollment]? = nil) {
        self.kind = kind
        self.localId = localId
        self.email = email
        self.displayName = displayName
        self.registered = registered
        self.idToken = idToken
        self.refreshToken = refreshToken
        self.expiresIn = expiresIn
        self.mfaPendingCredential = mfaPendingCredential
        self.mfaInfo = mfaInfo
    }
}

/// `accounts:lookup`: by `idToken` from a client; by `localId`/`email`/`phoneNumber` as admin.
public struct AccountsLookupRequest: IdentityRequest, Equatable {
    public static let endpoint = Endpoint.v1("accounts:lookup")
    public typealias Response = AccountsLookupResponse

    public var idToken: String?
    public var localId: [String]?
    public var email: [String]?
    public var phoneNumber: [String]?

    public init(idToken: String? = nil, localId: [String]? = nil, email: [String]? = nil, phoneNumber: [String]? = nil) {
        self.idToken = idToken
        self.localId = localId
        self.email = email
        self.phoneNumber = phoneNumber
    }
}

public struct AccountsLookupResponse: Codable, Sendable, Equatable {
    public var kind: String?
    /// Omitted when no user matched.
    public var users: [AccountInfo]?

    public init(kind: String? = "identitytoolkit#GetAccountInfoResponse", users: [AccountInfo]?) {
        self.kind = kind
        self.users = users
    }
}

/// `accounts:update`: profile, password and email changes, and unlinking with `deleteProvider`.
public struct AccountsUpdateRequest: IdentityRequest, Equatable {
    public static let endpoint = Endpoint.v1("accounts:update")
    public typealias Response = AccountsUpdateResponse

    public var idToken: String?
    public var localId: String?
    public var email: String?
    public var password: String?
    public var displayName: String?
    public var photoUrl: String?
    /// `DISPLAY_NAME`, `PHOTO_URL`.
    public var deleteAttribute: [String]?
    public var deleteProvider: [String]?
    public var emailVerified: Bool?
    public var disableUser: Bool?
    public var customAttributes: String?
    public var validSince: String?
    public var returnSecureToken: Bool?

    public init(idToken: String? = nil, localId: String? = nil, email: String? = nil, password: String? = nil,
                displayName: String? = nil, photoUrl: String? = nil, deleteAttribute: [String]? = nil,
                deleteProvider: [String]? = nil, emailVerified: Bool? = nil, disableUser: Bool? = nil,
                customAttributes: String? = nil, validSince: String? = nil, returnSecureToken: Bool? = true) {
        self.idToken = idToken
        self.localId = localId
        self.email = email
        self.password = password
        self.displayName = displayName
        self.photoUrl = photoUrl
        self.deleteAttribute = deleteAttribute
        self.deleteProvider = deleteProvider
        self.emailVerified = emailVerified
        self.disableUser = disableUser
        self.customAttributes = customAttributes
        self.validSince = validSince
        self.returnSecureToken = returnSecureToken
    }
}

/// New tokens come back when the password or email changed (older tokens stop working).
public struct AccountsUpdateResponse: Codable, Sendable, Equatable {
    public var kind: String?
    public var localId: String
    public var email: String?
    public var displayName: String?
    public var photoUrl: String?
    public var emailVerified: Bool?
    public var providerUserInfo: [ProviderUserInfo]?
    public var passwordHash: String?
    /// The address an email-change code changed the account to.
    public var newEmail: String?
    public var idToken: String?
    public var refreshToken: String?
    public var expiresIn: String?

    public init(kind: String? = "identitytoolkit#SetAccountInfoResponse", localId: String, email: String? = nil,
                displayName: String? = nil, photoUrl: String? = nil, emailVerified: Bool? = nil,
                providerUserInfo: [ProviderUserInfo]? = nil, passwordHash: String? = nil, newEmail: String? = nil, idToken: String? = nil,
                refreshToken: String? = nil, expiresIn: String? = nil) {
        self.newEmail = newEmail
        self.kind = kind
        self.localId = localId
        self.email = email
        self.displayName = displayName
        self.photoUrl = photoUrl
        self.emailVerified = emailVerified
        self.providerUserInfo = providerUserInfo
        self.passwordHash = passwordHash
        self.idToken = idToken
        self.refreshToken = refreshToken
        self.expiresIn = expiresIn
    }
}

/// `accounts:delete`.
public struct AccountsDeleteRequest: IdentityRequest, Equatable {
    public static let endpoint = Endpoint.v1("accounts:delete")
    public typealias Response = AccountsDeleteResponse

    public var idToken: String?
    public var localId: String?

    public init(idToken: String? = nil, localId: String? = nil) {
        self.idToken = idToken
        self.localId = localId
    }
}

public struct AccountsDeleteResponse: Codable, Sendable, Equatable {
    public var kind: String?
    public init(kind: String? = "identitytoolkit#DeleteAccountResponse") { self.kind = kind }
}
