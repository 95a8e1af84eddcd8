import Foundation

/// `accounts:sendVerificationCode`: texts a code to a phone number (E.164) for sign-in or linking.
public struct SendVerificationCodeRequest: IdentityRequest, Equatable {
    public static let endpoint = Endpoint.v1("accounts:sendVerificationCode")
    public typealias Response = SendVerificationCodeResponse

    public var phoneNumber: String
    public var recaptchaToken: String?

    public init(phoneNumber: String, recaptchaToken: String? = nil) {
        self.phoneNumber = phoneNumber
        self.recaptchaToken = recaptchaToken
    }
}

public struct SendVerificationCodeResponse: Codable, Sendable, Equatable {
    /// The verification ID the code must be presented with.
    public var sessionInfo: String

    public init(sessionInfo: String) { self.sessionInfo = sessionInfo }
}

/// `accounts:signInWithPhoneNumber`: a code (with its `sessionInfo`) or a `temporaryProof`; with
/// `idToken` it links the number to the signed-in user.
public struct SignInWithPhoneNumberRequest: IdentityRequest, Equatable {
    public static let endpoint = Endpoint.v1("accounts:signInWithPhoneNumber")
    public typealias Response = SignInWithPhoneNumberResponse

    public var sessionInfo: String?
    public var code: String?
    public var temporaryProof: String?
    public var phoneNumber: String?
    public var idToken: String?

    public init(sessionInfo: String? = nil, code: String? = nil, temporaryProof: String? = nil, phoneNumber: String? = nil,
                idToken: String? = nil) {
        self.sessionInfo = sessionInfo
        self.code = code
        self.temporaryProof = temporaryProof
        self.phoneNumber = phoneNumber
        self.idToken = idToken
    }
}

/// Tokens, or — when linking a number another account owns — a `temporaryProof` and no tokens.
public struct SignInWithPhoneNumberResponse: Codable, Sendable, Equatable {
    public var localId: String?
    public var phoneNumber: String?
    public var isNewUser: Bool?
    public var idToken: String?
    public var refreshToken: String?
    public var expiresIn: String?
    public var temporaryProof: String?
    /// Seconds, as a string.
    public var temporaryProofExpiresIn: String?

    public init(localId: String? = nil, phoneNumber: String? = nil, isNewUser: Bool? = nil, idToken: String? = nil,
                refreshToken: String? = nil, expiresIn: String? = nil, temporaryProof: String? = nil,
                temporaryProofExpiresIn: String? = nil) {
        self.localId = localId
        self.phoneNumber = phoneNumber
        self.isNewUser = isNewUser
        self.idToken = idToken
        self.refreshToken = refreshToken
        self.expiresIn = expiresIn
        self.temporaryProof = temporaryProof
        self.temporaryProofExpiresIn = temporaryProofExpiresIn
    }
}
