import Foundation

// What the backend reads from request bodies. Every field is optional so that a missing field
// gets Firebase's own error (MISSING_PASSWORD, …) rather than a decoding failure.

struct SignUpBody: Decodable {
    var email: String?
    var password: String?
    var displayName: String?
    var photoUrl: String?
    var idToken: String?
    // Honoured for administrators only (a privileged sign-up creates the account as given).
    var localId: String?
    var phoneNumber: String?
    var emailVerified: Bool?
    var disabled: Bool?
    var mfaInfo: [AdminMfaEnrollment]?
}

struct PasswordSignInBody: Decodable {
    var email: String?
    var password: String?
}

struct LookupBody: Decodable {
    var idToken: String?
    var localId: [String]?
    var email: [String]?
    var phoneNumber: [String]?
    var federatedUserId: [FederatedUserIdentifier]?
}

struct FederatedUserIdentifier: Decodable {
    var providerId: String?
    var rawId: String?
}

struct UpdateBody: Decodable {
    var idToken: String?
    /// An email action to apply (verify the email) instead of an update.
    var oobCode: String?
    var localId: String?
    var email: String?
    var password: String?
    var displayName: String?
    var photoUrl: String?
    var deleteAttribute: [EnumField<UserAttributeNames>]?
    var deleteProvider: [String]?
    var emailVerified: Bool?
    var disableUser: Bool?
    var customAttributes: String?
    var validSince: Int64Text?
    var phoneNumber: String?
    var mfa: AdminMfaBody?
    var linkProviderUserInfo: LinkProviderBody?
}

struct DeleteBody: Decodable {
    var idToken: String?
    var localId: String?
}

/// The token endpoint: the iOS SDK sends camelCase JSON, other clients snake_case JSON or a form.
struct SecureTokenBody: Decodable {
    var grantType: String?
    var refreshToken: String?

    enum CodingKeys: String, CodingKey {
        case grantType, refreshToken
        case grantTypeSnake = "grant_type"
        case refreshTokenSnake = "refresh_token"
    }

    init(grantType: String?, refreshToken: String?) {
        self.grantType = grantType
        self.refreshToken = refreshToken
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        grantType = try container.decodeIfPresent(String.self, forKey: .grantType)
            ?? container.decodeIfPresent(String.self, forKey: .grantTypeSnake)
        refreshToken = try container.decodeIfPresent(String.self, forKey: .refreshToken)
            ?? container.decodeIfPresent(String.self, forKey: .refreshTokenSnake)
    }

    /// `grant_type=refresh_token&refresh_token=…` (what the JS SDK sends).
    init(form body: Data) {
        let items = FormEncoding.items(String(decoding: body, as: UTF8.self))
        func value(_ name: String) -> String? { items.first { $0.name == name }?.value }
        self.init(grantType: value("grant_type") ?? value("grantType"), refreshToken: value("refresh_token") ?? value("refreshToken"))
    }
}

/// An int64 field, which Google's JSON mapping writes as a string but clients also send as a number.
struct Int64Text: Decodable {
    var value: Int64

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let number = try? container.decode(Int64.self) {
            value = number
        } else if let parsed = Int64(try container.decode(String.self)) {
            value = parsed
        } else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not an int64")
        }
    }
}

// Email actions, phone verification and multi-factor authentication.

struct SendOobCodeBody: Decodable {
    var requestType: EnumField<OobRequestTypeNames>?
    var email: String?
    var idToken: String?
    var newEmail: String?
    var continueUrl: String?
    var returnOobLink: Bool?
}

struct ResetPasswordBody: Decodable {
    var oobCode: String?
    var newPassword: String?
}

struct SendVerificationCodeBody: Decodable {
    var phoneNumber: String?
}

struct PhoneSignInBody: Decodable {
    var sessionInfo: String?
    var code: String?
    var temporaryProof: String?
    var phoneNumber: String?
    var idToken: String?
}

struct StartMfaEnrollmentBody: Decodable {
    struct Phone: Decodable { var phoneNumber: String? }
    struct Totp: Decodable {}
    var idToken: String?
    var phoneEnrollmentInfo: Phone?
    var totpEnrollmentInfo: Totp?
}

struct PhoneVerificationBody: Decodable {
    var sessionInfo: String?
    var code: String?
}

struct TotpVerificationBody: Decodable {
    var sessionInfo: String?
    var verificationCode: String?
}

struct FinalizeMfaEnrollmentBody: Decodable {
    var idToken: String?
    var displayName: String?
    var phoneVerificationInfo: PhoneVerificationBody?
    var totpVerificationInfo: TotpVerificationBody?
}

struct WithdrawMfaBody: Decodable {
    var idToken: String?
    var mfaEnrollmentId: String?
}

struct StartMfaSignInBody: Decodable {
    var mfaPendingCredential: String?
    var mfaEnrollmentId: String?
}

struct FinalizeMfaSignInBody: Decodable {
    var mfaPendingCredential: String?
    var mfaEnrollmentId: String?
    var phoneVerificationInfo: PhoneVerificationBody?
    var totpVerificationInfo: TotpVerificationBody?
}
