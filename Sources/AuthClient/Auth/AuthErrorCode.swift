import Foundation

/// Firebase's `AuthErrorCode`, with the numbers the iOS SDK uses. The server-message mapping
/// lives here, in one switch, so the embedded backend and HTTP backends surface identical errors.
public enum AuthErrorCode: Int, Sendable, CaseIterable {
    case invalidCustomToken = 17000
    case customTokenMismatch = 17002
    case invalidCredential = 17004
    case userDisabled = 17005
    case operationNotAllowed = 17006
    case emailAlreadyInUse = 17007
    case invalidEmail = 17008
    case wrongPassword = 17009
    case tooManyRequests = 17010
    case userNotFound = 17011
    case accountExistsWithDifferentCredential = 17012
    case requiresRecentLogin = 17014
    case providerAlreadyLinked = 17015
    case noSuchProvider = 17016
    case invalidUserToken = 17017
    case networkError = 17020
    case userTokenExpired = 17021
    case invalidAPIKey = 17023
    case userMismatch = 17024
    case credentialAlreadyInUse = 17025
    case weakPassword = 17026
    case appNotAuthorized = 17028
    case expiredActionCode = 17029
    case invalidActionCode = 17030
    case missingEmail = 17034
    case invalidContinueURI = 17039
    case missingContinueURI = 17040
    case invalidPhoneNumber = 17042
    case invalidVerificationCode = 17044
    case invalidVerificationID = 17046
    case sessionExpired = 17051
    case tenantIDMismatch = 17072
    case unsupportedTenantOperation = 17073
    case secondFactorRequired = 17078
    case missingMultiFactorSession = 17081
    case missingMultiFactorInfo = 17082
    case invalidMultiFactorSession = 17083
    case multiFactorInfoNotFound = 17084
    case adminRestrictedOperation = 17085
    case unverifiedEmail = 17086
    case secondFactorAlreadyEnrolled = 17087
    case maximumSecondFactorCountExceeded = 17088
    case unsupportedFirstFactor = 17089
    case missingOrInvalidNonce = 17094
    case blockingCloudFunctionError = 17105
    case passwordDoesNotMeetRequirements = 17211
    case internalError = 17999

    /// Maps the code part of a server message (`EMAIL_EXISTS`, …) as firebase-ios-sdk does.
    public init(serverCode: String) {
        switch serverCode {
        case "EMAIL_EXISTS": self = .emailAlreadyInUse
        case "EMAIL_NOT_FOUND", "USER_NOT_FOUND": self = .userNotFound
        case "INVALID_PASSWORD": self = .wrongPassword
        case "INVALID_LOGIN_CREDENTIALS", "INVALID_IDP_RESPONSE", "INVALID_PENDING_TOKEN": self = .invalidCredential
        case "USER_DISABLED": self = .userDisabled
        case "TOO_MANY_ATTEMPTS_TRY_LATER": self = .tooManyRequests
        case "CREDENTIAL_TOO_OLD_LOGIN_AGAIN": self = .requiresRecentLogin
        case "FEDERATED_USER_ID_ALREADY_LINKED": self = .credentialAlreadyInUse
        case "MISSING_OR_INVALID_NONCE": self = .missingOrInvalidNonce
        case "OPERATION_NOT_ALLOWED", "PASSWORD_LOGIN_DISABLED": self = .operationNotAllowed
        case "ADMIN_ONLY_OPERATION": self = .adminRestrictedOperation
        case "WEAK_PASSWORD": self = .weakPassword
        case "INVALID_ID_TOKEN": self = .invalidUserToken
        case "TOKEN_EXPIRED": self = .userTokenExpired
        case "INVALID_EMAIL", "INVALID_IDENTIFIER": self = .invalidEmail
        case "MISSING_EMAIL": self = .missingEmail
        case "INVALID_CUSTOM_TOKEN": self = .invalidCustomToken
        case "CREDENTIAL_MISMATCH": self = .customTokenMismatch
        case "INVALID_PHONE_NUMBER": self = .invalidPhoneNumber
        case "INVALID_CODE": self = .invalidVerificationCode
        case "INVALID_SESSION_INFO": self = .invalidVerificationID
        case "SESSION_EXPIRED": self = .sessionExpired
        case "INVALID_OOB_CODE": self = .invalidActionCode
        case "EXPIRED_OOB_CODE": self = .expiredActionCode
        case "MISSING_CONTINUE_URI": self = .missingContinueURI
        case "INVALID_CONTINUE_URI": self = .invalidContinueURI
        case "INVALID_MFA_PENDING_CREDENTIAL": self = .invalidMultiFactorSession
        case "MISSING_MFA_PENDING_CREDENTIAL": self = .missingMultiFactorSession
        case "MISSING_MFA_ENROLLMENT_ID": self = .missingMultiFactorInfo
        case "MFA_ENROLLMENT_NOT_FOUND": self = .multiFactorInfoNotFound
        case "SECOND_FACTOR_EXISTS": self = .secondFactorAlreadyEnrolled
        case "SECOND_FACTOR_LIMIT_EXCEEDED": self = .maximumSecondFactorCountExceeded
        case "UNSUPPORTED_FIRST_FACTOR": self = .unsupportedFirstFactor
        case "UNVERIFIED_EMAIL": self = .unverifiedEmail
        case "TENANT_ID_MISMATCH": self = .tenantIDMismatch
        case "UNSUPPORTED_TENANT_OPERATION": self = .unsupportedTenantOperation
        case "BLOCKING_FUNCTION_ERROR_RESPONSE": self = .blockingCloudFunctionError
        case "PASSWORD_DOES_NOT_MEET_REQUIREMENTS": self = .passwordDoesNotMeetRequirements
        default: self = .internalError
        }
    }

    /// A sentence for the operator; the raw server message is shown beside it.
    public var localizedDescription: String {
        switch self {
        case .invalidCustomToken: "The custom token is malformed."
        case .customTokenMismatch: "The custom token is for a different project."
        case .invalidCredential: "The email or password is wrong, or the credential is malformed or has expired."
        case .userDisabled: "This account has been disabled by an administrator."
        case .operationNotAllowed: "This sign-in method is not enabled for the project."
        case .emailAlreadyInUse: "That email address is already used by another account."
        case .invalidEmail: "That email address is not valid."
        case .wrongPassword: "The password is wrong."
        case .tooManyRequests: "Too many failed attempts. Wait a while, reset the password, or request a new code."
        case .userNotFound: "There is no account with that identifier; it may have been deleted."
        case .accountExistsWithDifferentCredential: "An account already exists with the same email but a different sign-in method."
        case .requiresRecentLogin: "This operation is sensitive and needs a recent sign-in."
        case .providerAlreadyLinked: "That provider is already linked to this account."
        case .noSuchProvider: "That provider is not linked to this account."
        case .invalidUserToken: "The session is no longer valid. Sign in again."
        case .networkError: "The backend could not be reached."
        case .userTokenExpired: "The session has expired or was revoked. Sign in again."
        case .invalidAPIKey: "The API key is not valid."
        case .userMismatch: "That credential belongs to a different account than the signed-in one."
        case .credentialAlreadyInUse: "That credential is already linked to another account."
        case .weakPassword: "The password is too weak: use at least 6 characters."
        case .appNotAuthorized: "This app is not authorized to use this project."
        case .expiredActionCode: "The action code has expired."
        case .invalidActionCode: "The action code is invalid or has already been used."
        case .missingEmail: "An email address is required."
        case .invalidContinueURI: "The continue URL is not valid."
        case .missingContinueURI: "A continue URL is required."
        case .invalidPhoneNumber: "That phone number is not valid (use E.164, e.g. +15555550100)."
        case .invalidVerificationCode: "The verification code is wrong."
        case .invalidVerificationID: "The verification session is not valid."
        case .sessionExpired: "The code or session has expired. Request a new one."
        case .tenantIDMismatch: "The tenant does not match."
        case .unsupportedTenantOperation: "This operation is not supported for tenants."
        case .secondFactorRequired: "A second factor is required to finish signing in."
        case .missingMultiFactorSession: "The multi-factor session is missing."
        case .missingMultiFactorInfo: "No second factor was chosen."
        case .invalidMultiFactorSession: "The multi-factor session is invalid or has expired."
        case .multiFactorInfoNotFound: "That second factor is not enrolled."
        case .adminRestrictedOperation: "This operation is restricted to administrators."
        case .unverifiedEmail: "Verify the email address before enrolling a second factor."
        case .secondFactorAlreadyEnrolled: "That second factor is already enrolled."
        case .maximumSecondFactorCountExceeded: "An account can have at most 5 second factors."
        case .unsupportedFirstFactor: "This first factor cannot be used with multi-factor authentication."
        case .missingOrInvalidNonce: "The nonce is missing or does not match the ID token."
        case .blockingCloudFunctionError: "A blocking function refused the operation."
        case .passwordDoesNotMeetRequirements: "The password does not meet the project's requirements."
        case .internalError: "The backend reported an unexpected error."
        }
    }
}
