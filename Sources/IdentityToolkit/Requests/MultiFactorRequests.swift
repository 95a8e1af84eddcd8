import Foundation

// The v2 multi-factor endpoints: enrollment (start, finalize, withdraw) and the second-factor
// sign-in (start, finalize), for phone (SMS) and TOTP factors.

public struct PhoneEnrollmentInfo: Codable, Sendable, Equatable {
    public var phoneNumber: String
    public var recaptchaToken: String?

    public init(phoneNumber: String, recaptchaToken: String? = nil) {
        self.phoneNumber = phoneNumber
        self.recaptchaToken = recaptchaToken
    }
}

/// Empty on the wire (`{}`): its presence asks for a TOTP secret.
public struct TotpEnrollmentInfo: Codable, Sendable, Equatable {
    public init() {}
}

public struct PhoneVerificationInfo: Codable, Sendable, Equatable {
    public var sessionInfo: String
    public var code: String

    public init(sessionInfo: String, code: String) {
        self.sessionInfo = sessionInfo
        self.code = code
    }
}

public struct TotpVerificationInfo: Codable, Sendable, Equatable {
    /// Set at enrollment (from `totpSessionInfo`); absent at sign-in.
    public var sessionInfo: String?
    public var verificationCode: String

    public init(sessionInfo: String? = nil, verificationCode: String) {
        self.sessionInfo = sessionInfo
        self.verificationCode = verificationCode
    }
}

public struct SessionInfoHolder: Codable, Sendable, Equatable {
    public var sessionInfo: String
    public init(sessionInfo: String) { self.sessionInfo = sessionInfo }
}

/// `accounts/mfaEnrollment:start`: `phoneEnrollmentInfo` texts a code, `totpEnrollmentInfo` returns a secret.
public struct StartMfaEnrollmentRequest: IdentityRequest, Equatable {
    public static let endpoint = Endpoint.v2("accounts/mfaEnrollment:start")
    public typealias Response = StartMfaEnrollmentResponse

    public var idToken: String
    public var phoneEnrollmentInfo: PhoneEnrollmentInfo?
    public var totpEnrollmentInfo: TotpEnrollmentInfo?

    public init(idToken: String, phoneEnrollmentInfo: PhoneEnrollmentInfo? = nil, totpEnrollmentInfo: TotpEnrollmentInfo? = nil) {
        self.idToken = idToken
        self.phoneEnrollmentInfo = phoneEnrollmentInfo
        self.totpEnrollmentInfo = totpEnrollmentInfo
    }
}

public struct StartMfaEnrollmentResponse: Codable, Sendable, Equatable {
    public struct TotpSessionInfo: Codable, Sendable, Equatable {
        /// Base32, no padding.
        public var sharedSecretKey: String
        public var verificationCodeLength: Int
        public var hashingAlgorithm: String
        public var periodSec: Int
        public var sessionInfo: String
        /// RFC 3339: the enrollment must be finalized before this.
        public var finalizeEnrollmentTime: String

        public init(sharedSecretKey: String, verificationCodeLength: Int, hashingAlgorithm: String, periodSec: Int,
                    sessionInfo: String, finalizeEnrollmentTime: String) {
            self.sharedSecretKey = sharedSecretKey
            self.verificationCodeLength = verificationCodeLength
            self.hashingAlgorithm = hashingAlgorithm
            self.periodSec = periodSec
            self.sessionInfo = sessionInfo
            self.finalizeEnrollmentTime = finalizeEnrollmentTime
        }
    }

    public var phoneSessionInfo: SessionInfoHolder?
    public var totpSessionInfo: TotpSessionInfo?

    public init(phoneSessionInfo: SessionInfoHolder? = nil, totpSessionInfo: TotpSessionInfo? = nil) {
        self.phoneSessionInfo = phoneSessionInfo
        self.totpSessionInfo = totpSessionInfo
    }
}

/// `accounts/mfaEnrollment:finalize`: proves the code and enrolls the factor under `displayName`.
public struct FinalizeMfaEnrollmentRequest: IdentityRequest, Equatable {
    public static let endpoint = Endpoint.v2("accounts/mfaEnrollment:finalize")
    public typealias Response = MfaTokensResponse

    public var idToken: String
    public var displayName: String?
    public var phoneVerificationInfo: PhoneVerificationInfo?
    public var totpVerificationInfo: TotpVerificationInfo?

    public init(idToken: String, displayName: String? = nil, phoneVerificationInfo: PhoneVerificationInfo? = nil,
                totpVerificationInfo: TotpVerificationInfo? = nil) {
        self.idToken = idToken
        self.displayName = displayName
        self.phoneVerificationInfo = phoneVerificationInfo
        self.totpVerificationInfo = totpVerificationInfo
    }
}

/// `accounts/mfaEnrollment:withdraw`: unenrolls one factor.
public struct WithdrawMfaRequest: IdentityRequest, Equatable {
    public static let endpoint = Endpoint.v2("accounts/mfaEnrollment:withdraw")
    public typealias Response = MfaTokensResponse

    public var idToken: String
    public var mfaEnrollmentId: String

    public init(idToken: String, mfaEnrollmentId: String) {
        self.idToken = idToken
        self.mfaEnrollmentId = mfaEnrollmentId
    }
}

/// What enrollment, withdrawal and the second-factor sign-in return: new tokens (no `expiresIn`).
public struct MfaTokensResponse: Codable, Sendable, Equatable {
    public var idToken: String
    public var refreshToken: String

    public init(idToken: String, refreshToken: String) {
        self.idToken = idToken
        self.refreshToken = refreshToken
    }
}

/// `accounts/mfaSignIn:start`: texts a code to the enrolled phone factor. TOTP has no start.
public struct StartMfaSignInRequest: IdentityRequest, Equatable {
    public static let endpoint = Endpoint.v2("accounts/mfaSignIn:start")
    public typealias Response = StartMfaSignInResponse

    /// Empty here: its fields are anti-abuse tokens that only production reads.
    public struct PhoneSignInInfo: Codable, Sendable, Equatable {
        public init() {}
    }

    public var mfaPendingCredential: String
    public var mfaEnrollmentId: String
    public var phoneSignInInfo: PhoneSignInInfo?

    public init(mfaPendingCredential: String, mfaEnrollmentId: String, phoneSignInInfo: PhoneSignInInfo? = PhoneSignInInfo()) {
        self.mfaPendingCredential = mfaPendingCredential
        self.mfaEnrollmentId = mfaEnrollmentId
        self.phoneSignInInfo = phoneSignInInfo
    }
}

public struct StartMfaSignInResponse: Codable, Sendable, Equatable {
    public var phoneResponseInfo: SessionInfoHolder?

    public init(phoneResponseInfo: SessionInfoHolder?) { self.phoneResponseInfo = phoneResponseInfo }
}

/// `accounts/mfaSignIn:finalize`: the second factor's proof; finishes the sign-in.
public struct FinalizeMfaSignInRequest: IdentityRequest, Equatable {
    public static let endpoint = Endpoint.v2("accounts/mfaSignIn:finalize")
    public typealias Response = MfaTokensResponse

    public var mfaPendingCredential: String
    /// Required for TOTP (which has no start call); phone finds the factor from its session.
    public var mfaEnrollmentId: String?
    public var phoneVerificationInfo: PhoneVerificationInfo?
    public var totpVerificationInfo: TotpVerificationInfo?

    public init(mfaPendingCredential: String, mfaEnrollmentId: String? = nil, phoneVerificationInfo: PhoneVerificationInfo? = nil,
                totpVerificationInfo: TotpVerificationInfo? = nil) {
        self.mfaPendingCredential = mfaPendingCredential
        self.mfaEnrollmentId = mfaEnrollmentId
        self.phoneVerificationInfo = phoneVerificationInfo
        self.totpVerificationInfo = totpVerificationInfo
    }
}
