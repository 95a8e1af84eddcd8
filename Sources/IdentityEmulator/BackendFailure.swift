import Foundation

/// An error answer, with the exact message production Firebase Auth sends.
struct BackendFailure: Error, Equatable {
    let status: Int
    let message: String

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
}
