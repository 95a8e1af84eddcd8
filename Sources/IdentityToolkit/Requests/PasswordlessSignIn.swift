import Foundation

// Sign-ins without a password: a custom token minted by the app's server, an email link, and the
// `createAuthUri` look-up clients use to learn how an email can sign in.

/// `accounts:signInWithCustomToken`: exchanges a token the app's server signed (the Admin SDK's
/// `create_custom_token`) for a session; the token's `claims` appear in every ID token of it.
public struct SignInWithCustomTokenRequest: IdentityRequest, Equatable {
    public static let endpoint = Endpoint.v1("accounts:signInWithCustomToken")
    public typealias Response = SignInWithCustomTokenResponse

    public var token: String
    public var returnSecureToken: Bool?

    public init(token: String, returnSecureToken: Bool? = true) {
        self.token = token
        self.returnSecureToken = returnSecureToken
    }
}

public struct SignInWithCustomTokenResponse: Codable, Sendable, Equatable {
    public var kind: String?
    public var isNewUser: Bool?
    public var idToken: String?
    public var refreshToken: String?
    public var expiresIn: String?

    public init(kind: String? = "identitytoolkit#VerifyCustomTokenResponse", isNewUser: Bool?, idToken: String?,
                refreshToken: String?, expiresIn: String?) {
        self.kind = kind
        self.isNewUser = isNewUser
        self.idToken = idToken
        self.refreshToken = refreshToken
        self.expiresIn = expiresIn
    }
}

/// `accounts:signInWithEmailLink`: the `oobCode` of an `EMAIL_SIGNIN` link and the address it was
/// sent to; with `idToken` it links the email to that user instead.
public struct SignInWithEmailLinkRequest: IdentityRequest, Equatable {
    public static let endpoint = Endpoint.v1("accounts:signInWithEmailLink")
    public typealias Response = SignInWithEmailLinkResponse

    public var email: String
    public var oobCode: String
    public var idToken: String?

    public init(email: String, oobCode: String, idToken: String? = nil) {
        self.email = email
        self.oobCode = oobCode
        self.idToken = idToken
    }
}

/// Tokens, or — for an account with second factors — `mfaPendingCredential` and `mfaInfo`.
public struct SignInWithEmailLinkResponse: Codable, Sendable, Equatable {
    public var kind: String?
    public var email: String?
    public var localId: String?
    public var isNewUser: Bool?
    public var idToken: String?
    public var refreshToken: String?
    public var expiresIn: String?
    public var mfaPendingCredential: String?
    public var mfaInfo: [MfaEnrollment]?

    public init(kind: String? = "identitytoolkit#EmailLinkSigninResponse", email: String?, localId: String?, isNewUser: Bool?,
                idToken: String? = nil, refreshToken: String? = nil, expiresIn: String? = nil,
                mfaPendingCredential: String? = nil, mfaInfo: [MfaEnrollment]? = nil) {
        self.kind = kind
        self.email = email
        self.localId = localId
        self.isNewUser = isNewUser
        self.idToken = idToken
        self.refreshToken = refreshToken
        self.expiresIn = expiresIn
        self.mfaPendingCredential = mfaPendingCredential
        self.mfaInfo = mfaInfo
    }
}

/// `accounts:createAuthUri`: how an email can sign in (`fetchSignInMethodsForEmail`). With
/// email-enumeration protection on, the answer says nothing about the address.
public struct CreateAuthUriRequest: IdentityRequest, Equatable {
    public static let endpoint = Endpoint.v1("accounts:createAuthUri")
    public typealias Response = CreateAuthUriResponse

    public var identifier: String
    public var continueUri: String

    public init(identifier: String, continueUri: String = "http://localhost") {
        self.identifier = identifier
        self.continueUri = continueUri
    }
}

public struct CreateAuthUriResponse: Codable, Sendable, Equatable {
    public var kind: String?
    public var registered: Bool?
    public var allProviders: [String]?
    public var sessionId: String?
    /// `password`, `emailLink`, and the federated provider ids.
    public var signinMethods: [String]?

    public init(kind: String? = "identitytoolkit#CreateAuthUriResponse", registered: Bool? = nil, allProviders: [String]? = nil,
                sessionId: String?, signinMethods: [String]? = nil) {
        self.kind = kind
        self.registered = registered
        self.allProviders = allProviders
        self.sessionId = sessionId
        self.signinMethods = signinMethods
    }
}
