import Foundation
import IdentityToolkit

/// An error answer, with the exact message production Firebase Auth sends.
struct BackendFailure: Error, Equatable {
    let status: Int
    let message: String
    /// Seconds after which the request is worth sending again (`WireResponse.retryAfter`).
    var retryAfter: Int? = nil

    /// The answer that says so.
    var response: WireResponse {
        WireResponse(status: status, body: WireCoding.errorBody(status: status, message: message), retryAfter: retryAfter)
    }

    static func badRequest(_ message: String) -> BackendFailure { BackendFailure(status: 400, message: message) }

    static let weakPassword = badRequest("WEAK_PASSWORD : Password should be at least 6 characters")
    static let emailExists = badRequest("EMAIL_EXISTS")
    static let invalidEmail = badRequest("INVALID_EMAIL")
    static let missingEmail = badRequest("MISSING_EMAIL")
    static let missingPassword = badRequest("MISSING_PASSWORD")
    static let invalidLoginCredentials = badRequest("INVALID_LOGIN_CREDENTIALS")
    static let emailNotFound = badRequest("EMAIL_NOT_FOUND")
    static let invalidPassword = badRequest("INVALID_PASSWORD")
    static let userDisabled = badRequest("USER_DISABLED")
    static let tooManyAttempts = badRequest(
        "TOO_MANY_ATTEMPTS_TRY_LATER : Access to this account has been temporarily disabled due to many failed login attempts. "
            + "You can immediately restore it by resetting your password or you can try again later.")
    static let credentialTooOld = badRequest("CREDENTIAL_TOO_OLD_LOGIN_AGAIN")
    static let providerAlreadyLinked = badRequest("PROVIDER_ALREADY_LINKED")
    static let missingIdToken = badRequest("MISSING_ID_TOKEN")
    static let invalidIdToken = badRequest("INVALID_ID_TOKEN")
    static let tokenExpired = badRequest("TOKEN_EXPIRED")
    static let userNotFound = badRequest("USER_NOT_FOUND")
    static let missingLocalId = badRequest("MISSING_LOCAL_ID")
    static let invalidRefreshToken = badRequest("INVALID_REFRESH_TOKEN")
    static let missingRefreshToken = badRequest("MISSING_REFRESH_TOKEN")
    static let missingGrantType = badRequest("MISSING_GRANT_TYPE")
    static let invalidGrantType = badRequest("INVALID_GRANT_TYPE")
    static let invalidClaims = badRequest("INVALID_CLAIMS")
    static let claimsTooLarge = badRequest("CLAIMS_TOO_LARGE")
    static func forbiddenClaim(_ name: String) -> BackendFailure { badRequest("FORBIDDEN_CLAIM : \(name)") }
    static func invalidArgument(_ detail: String) -> BackendFailure { badRequest("INVALID_ARGUMENT : \(detail)") }

    static let missingAPIKey = BackendFailure(
        status: 403,
        message: "Method doesn't allow unregistered callers (callers without established identity). Please use API Key or other form of API consumer identity to call this API.")
    static let unauthenticated = BackendFailure(
        status: 401, message: "Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.")
    static func notFound(_ path: String) -> BackendFailure { BackendFailure(status: 404, message: "NOT_FOUND : no endpoint at \(path)") }
    static let internalError = BackendFailure(status: 500, message: "INTERNAL_ERROR")
    /// `sendOobCode` with a type a client cannot ask for: an unknown one, or `RECOVER_EMAIL`, which the backend
    /// itself sends when an address changes. 400 (the emulator answers 501; a shared backend answers no 5xx).
    static func invalidRequestType(_ type: String) -> BackendFailure {
        badRequest("INVALID_REQ_TYPE : \(type) cannot be requested with sendOobCode.")
    }
    /// `createAuthUri` with a `providerId` (the redirect flow's auth URI): the simulated providers are reached
    /// through `simulatedIdp:authorize` instead. The emulator's message, as a 400 rather than its 501.
    static let idpAuthUriUnsupported = badRequest("Sign-in with IDP is not yet supported.")
}

// Email actions, phone verification and multi-factor authentication.
extension BackendFailure {
    static let missingRequestType = badRequest("MISSING_REQ_TYPE")
    static let missingNewEmail = badRequest("MISSING_NEW_EMAIL")
    static let invalidNewEmail = badRequest("INVALID_NEW_EMAIL")
    static let insufficientPermission = badRequest("INSUFFICIENT_PERMISSION")
    static let invalidContinueUri = badRequest("INVALID_CONTINUE_URI")
    static let missingOobCode = badRequest("MISSING_OOB_CODE")
    static let invalidOobCode = badRequest("INVALID_OOB_CODE")
    static let expiredOobCode = badRequest("EXPIRED_OOB_CODE")
    static let invalidPhoneNumber = badRequest("INVALID_PHONE_NUMBER : Invalid format.")
    static let missingPhoneNumber = badRequest("MISSING_PHONE_NUMBER")
    static let phoneNumberExists = badRequest("PHONE_NUMBER_EXISTS")
    static let invalidTemporaryProof = badRequest("INVALID_TEMPORARY_PROOF")
    static let missingSessionInfo = badRequest("MISSING_SESSION_INFO")
    static let missingCode = badRequest("MISSING_CODE")
    static let invalidSessionInfo = badRequest("INVALID_SESSION_INFO")
    static let invalidCode = badRequest("INVALID_CODE")
    static let sessionExpired = badRequest("SESSION_EXPIRED")
    static let tooManyWrongCodes = badRequest(
        "TOO_MANY_ATTEMPTS_TRY_LATER : Too many wrong codes: this verification no longer accepts any. Request a new code, or wait.")
    static let phoneFirstFactorOnMultiFactorUser = badRequest(
        "UNSUPPORTED_FIRST_FACTOR : A phone number cannot be set as a first factor on an SMS based MFA user.")
    static let unsupportedFirstFactor = badRequest("UNSUPPORTED_FIRST_FACTOR : MFA is not available for the given first factor.")
    static let unverifiedEmail = badRequest("UNVERIFIED_EMAIL : Need to verify email first before enrolling second factors.")
    static let secondFactorExists = badRequest("SECOND_FACTOR_EXISTS : Phone number already enrolled as second factor for this account.")
    static let secondFactorLimitExceeded = badRequest(
        "SECOND_FACTOR_LIMIT_EXCEEDED : The maximum number of second factors (5) for this account has been reached.")
    static let missingMfaPendingCredential = badRequest("MISSING_MFA_PENDING_CREDENTIAL : Request does not have MFA pending credential.")
    static let missingPendingCredentialOnFinalize = badRequest("MISSING_CREDENTIAL : Please set MFA Pending Credential.")
    static let invalidMfaPendingCredential = badRequest("INVALID_MFA_PENDING_CREDENTIAL")
    static let expiredMfaPendingCredential = badRequest(
        "INVALID_MFA_PENDING_CREDENTIAL : The MFA pending credential has expired; sign in with the first factor again.")
    static let missingMfaEnrollmentId = badRequest("MISSING_MFA_ENROLLMENT_ID : No second factor identifier is provided.")
    static let mfaEnrollmentNotFound = badRequest("MFA_ENROLLMENT_NOT_FOUND")
    static let mfaProviderNotSupported = badRequest("INVALID_ARGUMENT : MFA provider not supported!")
}
