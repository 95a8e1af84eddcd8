import Foundation

// Email actions: the out-of-band (OOB) codes that verification and password-reset emails carry.

/// `accounts:sendOobCode`: sends (or, for an administrator with `returnOobLink`, returns) an email action.
public struct SendOobCodeRequest: IdentityRequest, Equatable {
    public static let endpoint = Endpoint.v1("accounts:sendOobCode")
    public typealias Response = SendOobCodeResponse

    public enum RequestType: String, Codable, Sendable {
        case passwordReset = "PASSWORD_RESET"
        case verifyEmail = "VERIFY_EMAIL"
        case emailSignIn = "EMAIL_SIGNIN"
        case verifyAndChangeEmail = "VERIFY_AND_CHANGE_EMAIL"
        /// Sent by the backend itself to the old address when an email changes; never requested.
        case recoverEmail = "RECOVER_EMAIL"
    }

    public var requestType: RequestType
    public var email: String?
    public var idToken: String?
    public var newEmail: String?
    public var continueUrl: String?
    public var returnOobLink: Bool?

    public init(requestType: RequestType, email: String? = nil, idToken: String? = nil, newEmail: String? = nil,
                continueUrl: String? = nil, returnOobLink: Bool? = nil) {
        self.requestType = requestType
        self.email = email
        self.idToken = idToken
        self.newEmail = newEmail
        self.continueUrl = continueUrl
        self.returnOobLink = returnOobLink
    }
}

public struct SendOobCodeResponse: Codable, Sendable, Equatable {
    public var kind: String?
    public var email: String?
    /// Only with `returnOobLink` (administrators).
    public var oobCode: String?
    public var oobLink: String?

    public init(kind: String? = "identitytoolkit#GetOobConfirmationCodeResponse", email: String?, oobCode: String? = nil, oobLink: String? = nil) {
        self.kind = kind
        self.email = email
        self.oobCode = oobCode
        self.oobLink = oobLink
    }
}

/// `accounts:resetPassword`: with `newPassword` it resets; without, it only checks the code.
public struct ResetPasswordRequest: IdentityRequest, Equatable {
    public static let endpoint = Endpoint.v1("accounts:resetPassword")
    public typealias Response = ResetPasswordResponse

    public var oobCode: String
    public var newPassword: String?

    public init(oobCode: String, newPassword: String? = nil) {
        self.oobCode = oobCode
        self.newPassword = newPassword
    }
}

public struct ResetPasswordResponse: Codable, Sendable, Equatable {
    public var kind: String?
    public var email: String?
    public var newEmail: String?
    public var requestType: String?

    public init(kind: String? = "identitytoolkit#ResetPasswordResponse", email: String?, newEmail: String? = nil, requestType: String?) {
        self.kind = kind
        self.email = email
        self.newEmail = newEmail
        self.requestType = requestType
    }
}

/// `accounts:update` with an `oobCode`: applies an email action (verifies the email).
public struct ApplyActionCodeRequest: IdentityRequest, Equatable {
    public static let endpoint = Endpoint.v1("accounts:update")
    public typealias Response = AccountsUpdateResponse

    public var oobCode: String

    public init(oobCode: String) { self.oobCode = oobCode }
}
