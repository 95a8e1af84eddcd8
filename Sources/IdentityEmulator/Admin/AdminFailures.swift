import Foundation

/// The error answers of the administrator and emulator endpoints. Text in `((…))` is ours, as
/// the Firebase Auth Emulator marks its own explanations; clients read only the code before ` : `.
extension BackendFailure {
    static let requiresAdministrator = badRequest("INSUFFICIENT_PERMISSION")
    static let tenantNotFound = badRequest("TENANT_NOT_FOUND")
    static func invalidTenantId(_ id: String) -> BackendFailure {
        invalidArgument("Invalid tenant id '\(id.prefix(70))': 1 to 63 letters, digits and hyphens, not starting with a hyphen.")
    }
    static let duplicateLocalId = badRequest("DUPLICATE_LOCAL_ID")
    static let localIdTooLong = badRequest("INVALID_LOCAL_ID : The uid must be at most \(StoredAccount.maximumLocalIdLength) characters.")
    static let missingProviderId = badRequest("MISSING_PROVIDER_ID")
    static let missingRawId = badRequest("MISSING_RAW_ID")
    static let federatedUserIdAlreadyLinked = badRequest("FEDERATED_USER_ID_ALREADY_LINKED")
    static func duplicateEmailInRequest(_ email: String) -> BackendFailure { badRequest("DUPLICATE_EMAIL : \(email)") }
    static func duplicateRawIdInRequest(providerId: String, rawId: String) -> BackendFailure {
        badRequest("DUPLICATE_RAW_ID : Provider id(\(providerId)), Raw id(\(rawId))")
    }
    static let unsupportedUpdateRequest = badRequest("INVALID_REQ_TYPE : Unsupported request parameters.")
    static let operationNotAllowed = badRequest("OPERATION_NOT_ALLOWED")
    static let unexpectedUserId = badRequest("UNEXPECTED_PARAMETER : User ID")
    static let targetProjectNeedsAdministrator = badRequest("INSUFFICIENT_PERMISSION : Only authenticated requests can specify target_project_id.")
    static let phoneNumberTaken = badRequest("PHONE_NUMBER_EXISTS")
    static let malformedPhoneNumber = badRequest("INVALID_PHONE_NUMBER : Invalid format.")
    static let missingUserAccount = badRequest("MISSING_USER_ACCOUNT")
    static let invalidDuration = badRequest("INVALID_DURATION")
    static let localIdListExceedsLimit = badRequest("LOCAL_ID_LIST_EXCEEDS_LIMIT")
    static func duplicateLocalIdInRequest(_ localId: String) -> BackendFailure { badRequest("DUPLICATE_LOCAL_ID : \(localId)") }
    // A request this backend will not honour is the client's to change, so 400, never a 5xx.
    static let duplicateEmailsUnsupported = invalidArgument("((AuthDeck keeps one account per email; signIn.allowDuplicateEmails cannot be turned on))")

    /// The emulator's answer in single-project mode (`singleProjectMode: ERROR`): one data directory is one project.
    static func otherProject(_ requested: String, served: String) -> BackendFailure {
        badRequest("Multiple projectIds are not recommended in single project mode. Requested project ID \(requested), "
            + "but the emulator is configured for \(served).")
    }

    static func unsupportedHashAlgorithm(_ name: String) -> BackendFailure {
        badRequest("INVALID_HASH_ALGORITHM : ((AuthDeck imports Firebase SCRYPT password hashes only, not \(name)))")
    }
}
