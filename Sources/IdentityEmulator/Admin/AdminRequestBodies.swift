import Foundation
import IdentityToolkit

// What the administrator and emulator endpoints read from request bodies. As in
// RequestBodies.swift, every field is optional so that a missing one gets Firebase's own error.

/// `projects/{projectId}/accounts` (the Admin SDK's `create_user`).
struct CreateAccountBody: Decodable {
    var localId: String?
    var email: String?
    var password: String?
    var displayName: String?
    var photoUrl: String?
    var phoneNumber: String?
    var emailVerified: Bool?
    var disabled: Bool?
    var mfaInfo: [AdminMfaEnrollment]?
}

/// `projects/{projectId}/accounts:batchCreate` (the Admin SDK's `import_users`).
struct BatchCreateBody: Decodable {
    var users: [ImportedUser]?
    var hashAlgorithm: String?
    /// Web-safe base64.
    var signerKey: String?
    /// Web-safe base64.
    var saltSeparator: String?
    var rounds: Int?
    var memoryCost: Int?
    var allowOverwrite: Bool?
    /// Refuse the whole request when it lists an email or a provider identity twice.
    var sanityCheck: Bool?
}

struct ImportedUser: Decodable {
    var localId: String?
    var email: String?
    var emailVerified: Bool?
    var displayName: String?
    var photoUrl: String?
    var phoneNumber: String?
    var disabled: Bool?
    /// Web-safe base64.
    var passwordHash: String?
    /// Web-safe base64.
    var salt: String?
    /// A password in clear, hashed here with this project's parameters.
    var rawPassword: String?
    var customAttributes: String?
    /// Milliseconds since 1970.
    var createdAt: Int64Text?
    /// Milliseconds since 1970.
    var lastLoginAt: Int64Text?
    var providerUserInfo: [ImportedProvider]?
    var mfaInfo: [AdminMfaEnrollment]?
}

struct ImportedProvider: Decodable {
    var providerId: String?
    var rawId: String?
    var federatedId: String?
    var email: String?
    var displayName: String?
    var photoUrl: String?
    var phoneNumber: String?
}

/// `linkProviderUserInfo` of an administrator's `accounts:update`: a federated identity to attach.
struct LinkProviderBody: Decodable {
    var providerId: String?
    var rawId: String?
    var email: String?
    var displayName: String?
    var photoUrl: String?
}

/// The `mfa` of an administrator's `accounts:update`: the account's second factors, replaced whole.
struct AdminMfaBody: Decodable {
    var enrollments: [AdminMfaEnrollment]?
    /// `enrollments` given as something else than a list, `null` included: the emulator's schema refuses it.
    var enrollmentsAreNotAList = false

    private enum CodingKeys: String, CodingKey { case enrollments }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        guard container.contains(.enrollments) else { return }
        if try container.decodeNil(forKey: .enrollments) {
            enrollmentsAreNotAList = true
        } else if (try? container.nestedUnkeyedContainer(forKey: .enrollments)) == nil {
            enrollmentsAreNotAList = true
        } else {
            enrollments = try container.decode([AdminMfaEnrollment].self, forKey: .enrollments)
        }
    }
}

/// One second factor as an administrator sets it (`mfa.enrollments[]`, or `mfaInfo[]` on create and import).
struct AdminMfaEnrollment: Decodable {
    var mfaEnrollmentId: String?
    var displayName: String?
    var phoneInfo: String?
    /// RFC 3339.
    var enrolledAt: String?
    var totpInfo: JSONValue?
}

/// `projects/{projectId}/accounts:batchDelete`.
struct BatchDeleteBody: Decodable {
    var localIds: [String]?
    var force: Bool?
}

/// `projects/{projectId}:createSessionCookie`.
struct SessionCookieBody: Decodable {
    var idToken: String?
    /// Seconds.
    var validDuration: Int64Text?
}

/// `POST /emulator/v1/projects/{projectId}/lockouts:query` and `…:clear`: one address, or `all`.
struct LockoutBody: Decodable {
    var email: String?
    var all: Bool?
}

/// `PATCH /emulator/v1/projects/{projectId}/config`.
struct EmulatorConfigBody: Decodable {
    struct SignIn: Decodable { var allowDuplicateEmails: Bool? }
    struct EmailPrivacyConfig: Decodable { var enableImprovedEmailPrivacy: Bool? }

    init() {}

    var signIn: SignIn?
    var emailPrivacyConfig: EmailPrivacyConfig?
}
