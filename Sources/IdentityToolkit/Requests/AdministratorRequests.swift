import Foundation

// The administrator endpoints under `/v1/projects/{projectId}/…` as the Firebase Admin SDKs call
// them, with the REST API's field names. Transports send these with the administrator's
// credential (`Authorization: Bearer …`), never with an app's API key alone.

/// A request only an administrator may make; transports attach their administrator credential.
public protocol AdministratorRequest: IdentityRequest {
    var projectId: String { get }
    /// The method after `projects/{projectId}`, e.g. `/accounts:query`.
    static var projectMethod: String { get }
}

extension AdministratorRequest {
    public static var endpoint: Endpoint { .v1("projects/{projectId}" + projectMethod) }
    public var resolvedEndpoint: Endpoint { .v1("projects/\(projectId)" + Self.projectMethod) }
}

/// Where an administrator's bearer token comes from: a fixed secret (`owner`, an admin token) or
/// an OAuth 2 access token that is refreshed before it expires (a service account).
public protocol AdministratorCredential: Sendable {
    func bearerToken() async throws -> String
}

/// A bearer token that never changes: the emulator's `owner`, or `authdeck serve --admin-token`.
public struct StaticAdministratorCredential: AdministratorCredential {
    public let token: String
    public init(token: String) { self.token = token }
    public func bearerToken() async throws -> String { token }
    /// The Firebase Auth Emulator's convention (and `authdeck serve` on loopback without a token).
    public static let owner = StaticAdministratorCredential(token: "owner")
}

/// `POST projects/{projectId}/accounts` (the Admin SDK's `create_user`).
public struct AdminCreateAccountRequest: AdministratorRequest, Equatable {
    public static let projectMethod = "/accounts"
    public typealias Response = SignUpResponse

    public var projectId: String
    public var localId: String?
    public var email: String?
    public var password: String?
    public var displayName: String?
    public var phoneNumber: String?
    public var emailVerified: Bool?
    public var disabled: Bool?

    public init(projectId: String, localId: String? = nil, email: String? = nil, password: String? = nil, displayName: String? = nil,
                phoneNumber: String? = nil, emailVerified: Bool? = nil, disabled: Bool? = nil) {
        self.projectId = projectId
        self.localId = localId
        self.email = email
        self.password = password
        self.displayName = displayName
        self.phoneNumber = phoneNumber
        self.emailVerified = emailVerified
        self.disabled = disabled
    }

    enum CodingKeys: String, CodingKey { case localId, email, password, displayName, phoneNumber, emailVerified, disabled }
}

/// `POST projects/{projectId}/accounts:lookup` by ids, emails or phone numbers (at most 100 in all).
public struct AdminLookupRequest: AdministratorRequest, Equatable {
    public static let projectMethod = "/accounts:lookup"
    public typealias Response = AccountsLookupResponse

    public var projectId: String
    public var localId: [String]?
    public var email: [String]?
    public var phoneNumber: [String]?

    public init(projectId: String, localId: [String]? = nil, email: [String]? = nil, phoneNumber: [String]? = nil) {
        self.projectId = projectId
        self.localId = localId
        self.email = email
        self.phoneNumber = phoneNumber
    }

    enum CodingKeys: String, CodingKey { case localId, email, phoneNumber }
}

/// One second factor as an administrator sets it in `accounts:update`'s `mfa.enrollments`.
public struct AdminMfaEnrollment: Codable, Sendable, Equatable {
    public var mfaEnrollmentId: String?
    public var displayName: String?
    public var phoneInfo: String?
    /// RFC 3339.
    public var enrolledAt: String?
    public var totpInfo: MfaEnrollment.TotpInfo?

    public init(mfaEnrollmentId: String?, displayName: String? = nil, phoneInfo: String? = nil, enrolledAt: String? = nil,
                totpInfo: MfaEnrollment.TotpInfo? = nil) {
        self.mfaEnrollmentId = mfaEnrollmentId
        self.displayName = displayName
        self.phoneInfo = phoneInfo
        self.enrolledAt = enrolledAt
        self.totpInfo = totpInfo
    }
}

/// `POST projects/{projectId}/accounts:update` by an administrator (`update_user`,
/// `set_custom_user_claims`, `revoke_refresh_tokens`).
public struct AdminUpdateRequest: AdministratorRequest, Equatable {
    public struct SecondFactors: Codable, Sendable, Equatable {
        public var enrollments: [AdminMfaEnrollment]
        public init(enrollments: [AdminMfaEnrollment]) { self.enrollments = enrollments }
    }

    public static let projectMethod = "/accounts:update"
    public typealias Response = AccountsUpdateResponse

    public var projectId: String
    public var localId: String
    public var disableUser: Bool?
    public var emailVerified: Bool?
    /// A JSON object as a string; `"{}"` clears the claims.
    public var customAttributes: String?
    /// Seconds since 1970, as a string: tokens issued before are refused.
    public var validSince: String?
    public var mfa: SecondFactors?

    public init(projectId: String, localId: String, disableUser: Bool? = nil, emailVerified: Bool? = nil,
                customAttributes: String? = nil, validSince: String? = nil, mfa: SecondFactors? = nil) {
        self.projectId = projectId
        self.localId = localId
        self.disableUser = disableUser
        self.emailVerified = emailVerified
        self.customAttributes = customAttributes
        self.validSince = validSince
        self.mfa = mfa
    }

    enum CodingKeys: String, CodingKey { case localId, disableUser, emailVerified, customAttributes, validSince, mfa }
}

/// `POST projects/{projectId}/accounts:delete` by an administrator.
public struct AdminDeleteRequest: AdministratorRequest, Equatable {
    public static let projectMethod = "/accounts:delete"
    public typealias Response = AccountsDeleteResponse

    public var projectId: String
    public var localId: String

    public init(projectId: String, localId: String) {
        self.projectId = projectId
        self.localId = localId
    }

    enum CodingKeys: String, CodingKey { case localId }
}

/// `POST projects/{projectId}/accounts:batchDelete`: at most 1000 ids; `force` deletes enabled accounts too.
public struct BatchDeleteAccountsRequest: AdministratorRequest, Equatable {
    public static let projectMethod = "/accounts:batchDelete"
    public typealias Response = BatchDeleteAccountsResponse

    public var projectId: String
    public var localIds: [String]
    public var force: Bool?

    public init(projectId: String, localIds: [String], force: Bool? = true) {
        self.projectId = projectId
        self.localIds = localIds
        self.force = force
    }

    enum CodingKeys: String, CodingKey { case localIds, force }
}

/// `GET projects/{projectId}/accounts:batchGet?maxResults=&nextPageToken=` (`list_users`).
public struct BatchGetAccountsRequest: AdministratorRequest, Equatable {
    public static let projectMethod = "/accounts:batchGet"
    public static let httpMethod = "GET"
    public typealias Response = DownloadAccountResponse

    public var projectId: String
    /// At most 1000.
    public var maxResults: Int
    public var nextPageToken: String?

    public init(projectId: String, maxResults: Int, nextPageToken: String? = nil) {
        self.projectId = projectId
        self.maxResults = maxResults
        self.nextPageToken = nextPageToken
    }

    public var resolvedEndpoint: Endpoint {
        var query = "?maxResults=\(maxResults)"
        if let nextPageToken {
            query += "&nextPageToken=" + (nextPageToken.addingPercentEncoding(withAllowedCharacters: .urlQueryValueAllowed) ?? nextPageToken)
        }
        return .v1("projects/\(projectId)" + Self.projectMethod + query)
    }

    public func encode(to encoder: any Encoder) throws {}
}

/// One user of an import (`batchCreate`), as `firebase auth:import` and `import_users` send it.
/// Hashes and salts are web-safe base64; times are milliseconds since 1970.
public struct ImportedAccount: Codable, Sendable, Equatable {
    public var localId: String
    public var email: String?
    public var emailVerified: Bool?
    public var displayName: String?
    public var photoUrl: String?
    public var phoneNumber: String?
    public var disabled: Bool?
    public var passwordHash: String?
    public var salt: String?
    public var customAttributes: String?
    public var createdAt: String?
    public var lastLoginAt: String?
    public var providerUserInfo: [ProviderUserInfo]?
    public var mfaInfo: [AdminMfaEnrollment]?

    public init(localId: String, email: String? = nil, emailVerified: Bool? = nil, displayName: String? = nil, photoUrl: String? = nil,
                phoneNumber: String? = nil, disabled: Bool? = nil, passwordHash: String? = nil, salt: String? = nil,
                customAttributes: String? = nil, createdAt: String? = nil, lastLoginAt: String? = nil,
                providerUserInfo: [ProviderUserInfo]? = nil, mfaInfo: [AdminMfaEnrollment]? = nil) {
        self.localId = localId
        self.email = email
        self.emailVerified = emailVerified
        self.displayName = displayName
        self.photoUrl = photoUrl
        self.phoneNumber = phoneNumber
        self.disabled = disabled
        self.passwordHash = passwordHash
        self.salt = salt
        self.customAttributes = customAttributes
        self.createdAt = createdAt
        self.lastLoginAt = lastLoginAt
        self.providerUserInfo = providerUserInfo
        self.mfaInfo = mfaInfo
    }
}

/// `POST projects/{projectId}/accounts:batchCreate`: at most 1000 users; hashes need the algorithm's parameters.
public struct BatchCreateAccountsRequest: AdministratorRequest, Equatable {
    public static let projectMethod = "/accounts:batchCreate"
    public typealias Response = UploadAccountResponse

    public var projectId: String
    public var users: [ImportedAccount]
    public var hashAlgorithm: String?
    /// Web-safe base64.
    public var signerKey: String?
    /// Web-safe base64.
    public var saltSeparator: String?
    public var rounds: Int?
    public var memoryCost: Int?

    public init(projectId: String, users: [ImportedAccount], hashAlgorithm: String? = nil, signerKey: String? = nil,
                saltSeparator: String? = nil, rounds: Int? = nil, memoryCost: Int? = nil) {
        self.projectId = projectId
        self.users = users
        self.hashAlgorithm = hashAlgorithm
        self.signerKey = signerKey
        self.saltSeparator = saltSeparator
        self.rounds = rounds
        self.memoryCost = memoryCost
    }

    enum CodingKeys: String, CodingKey { case users, hashAlgorithm, signerKey, saltSeparator, rounds, memoryCost }
}

/// `POST projects/{projectId}/accounts:sendOobCode` by an administrator: the message goes to the
/// account's address (the emulator's outbox) unless `returnOobLink` asks for the link instead.
public struct AdminSendOobCodeRequest: AdministratorRequest, Equatable {
    public static let projectMethod = "/accounts:sendOobCode"
    public typealias Response = SendOobCodeResponse

    public var projectId: String
    /// `PASSWORD_RESET` or `VERIFY_EMAIL`.
    public var requestType: String
    public var email: String
    public var returnOobLink: Bool?

    public init(projectId: String, requestType: String, email: String, returnOobLink: Bool? = nil) {
        self.projectId = projectId
        self.requestType = requestType
        self.email = email
        self.returnOobLink = returnOobLink
    }

    enum CodingKeys: String, CodingKey { case requestType, email, returnOobLink }
}

/// `GET /v2/projects/{projectId}/config`: the project's settings; AuthDeck reads the password-hash parameters.
public struct ProjectConfigRequest: IdentityRequest, Equatable {
    public static let endpoint = Endpoint.v2("projects/{projectId}/config")
    public static let httpMethod = "GET"
    public typealias Response = ProjectConfig

    public var projectId: String
    public init(projectId: String) { self.projectId = projectId }
    public var resolvedEndpoint: Endpoint { .v2("projects/\(projectId)/config") }
    public func encode(to encoder: any Encoder) throws {}
}

extension ProjectConfigRequest: AdministratorRequest {
    public static let projectMethod = "/config"
}

public struct ProjectConfig: Codable, Sendable, Equatable {
    /// Firebase's modified scrypt parameters, as the console's "Password hash parameters" shows them.
    public struct HashConfig: Codable, Sendable, Equatable {
        public var algorithm: String?
        /// Standard base64.
        public var signerKey: String?
        /// Standard base64.
        public var saltSeparator: String?
        public var rounds: Int?
        public var memoryCost: Int?

        public init(algorithm: String?, signerKey: String?, saltSeparator: String?, rounds: Int?, memoryCost: Int?) {
            self.algorithm = algorithm
            self.signerKey = signerKey
            self.saltSeparator = saltSeparator
            self.rounds = rounds
            self.memoryCost = memoryCost
        }
    }

    public struct SignIn: Codable, Sendable, Equatable {
        public var hashConfig: HashConfig?
        public init(hashConfig: HashConfig?) { self.hashConfig = hashConfig }
    }

    public var name: String?
    public var signIn: SignIn?

    public init(name: String?, signIn: SignIn?) {
        self.name = name
        self.signIn = signIn
    }
}
