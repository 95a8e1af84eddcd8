import Foundation

/// `accounts:signInWithIdp`: sign in, link (with `idToken`) or reauthenticate (`autoCreate: false`)
/// with an identity provider's credential, carried in `postBody` as a query string
/// (`providerId=…&id_token=…&access_token=…&nonce=<raw>`), or by an earlier answer's `pendingToken`.
public struct SignInWithIdpRequest: IdentityRequest, Equatable {
    public static let endpoint = Endpoint.v1("accounts:signInWithIdp")
    public typealias Response = SignInWithIdpResponse

    public var requestUri: String
    public var postBody: String?
    public var pendingToken: String?
    public var idToken: String?
    public var returnIdpCredential: Bool?
    public var returnSecureToken: Bool?
    public var autoCreate: Bool?

    public init(requestUri: String = "http://localhost", postBody: String? = nil, pendingToken: String? = nil, idToken: String? = nil,
                returnIdpCredential: Bool? = true, returnSecureToken: Bool? = true, autoCreate: Bool? = nil) {
        self.requestUri = requestUri
        self.postBody = postBody
        self.pendingToken = pendingToken
        self.idToken = idToken
        self.returnIdpCredential = returnIdpCredential
        self.returnSecureToken = returnSecureToken
        self.autoCreate = autoCreate
    }
}

/// Tokens and the provider's view of the user — or, with no tokens, `needConfirmation` or an
/// `errorMessage` (`FEDERATED_USER_ID_ALREADY_LINKED`, `EMAIL_EXISTS`) with the provider's tokens
/// echoed so the client can build an updated credential.
public struct SignInWithIdpResponse: Codable, Sendable, Equatable {
    public var kind: String?
    public var providerId: String?
    public var federatedId: String?
    public var localId: String?
    public var email: String?
    public var emailVerified: Bool?
    public var displayName: String?
    /// The provider's full name (the same as `displayName`, as Google answers it).
    public var fullName: String?
    public var firstName: String?
    public var lastName: String?
    public var photoUrl: String?
    public var screenName: String?
    /// The provider's profile, a JSON object as a string.
    public var rawUserInfo: String?
    public var oauthIdToken: String?
    public var oauthAccessToken: String?
    public var pendingToken: String?
    public var isNewUser: Bool?
    public var needConfirmation: Bool?
    public var verifiedProvider: [String]?
    public var errorMessage: String?
    public var idToken: String?
    public var refreshToken: String?
    public var expiresIn: String?
    public var mfaPendingCredential: String?
    public var mfaInfo: [MfaEnrollment]?

    public init(kind: String? = "identitytoolkit#VerifyAssertionResponse", providerId: String? = nil, federatedId: String? = nil,
                localId: String? = nil, email: String? = nil, emailVerified: Bool? = nil, displayName: String? = nil,
                firstName: String? = nil, lastName: String? = nil, photoUrl: String? = nil, screenName: String? = nil,
                rawUserInfo: String? = nil, oauthIdToken: String? = nil, oauthAccessToken: String? = nil, pendingToken: String? = nil,
                isNewUser: Bool? = nil, needConfirmation: Bool? = nil, verifiedProvider: [String]? = nil, errorMessage: String? = nil,
                idToken: String? = nil, refreshToken: String? = nil, expiresIn: String? = nil,
                mfaPendingCredential: String? = nil, mfaInfo: [MfaEnrollment]? = nil) {
        self.kind = kind
        self.providerId = providerId
        self.federatedId = federatedId
        self.localId = localId
        self.email = email
        self.emailVerified = emailVerified
        self.displayName = displayName
        self.fullName = displayName
        self.firstName = firstName
        self.lastName = lastName
        self.photoUrl = photoUrl
        self.screenName = screenName
        self.rawUserInfo = rawUserInfo
        self.oauthIdToken = oauthIdToken
        self.oauthAccessToken = oauthAccessToken
        self.pendingToken = pendingToken
        self.isNewUser = isNewUser
        self.needConfirmation = needConfirmation
        self.verifiedProvider = verifiedProvider
        self.errorMessage = errorMessage
        self.idToken = idToken
        self.refreshToken = refreshToken
        self.expiresIn = expiresIn
        self.mfaPendingCredential = mfaPendingCredential
        self.mfaInfo = mfaInfo
    }
}
