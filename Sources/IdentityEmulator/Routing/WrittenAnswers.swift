import Foundation
import IdentityToolkit

// The answers of the hottest calls (sign-up, refresh, look-up), written as `JSONEncoder` with
// sorted keys writes them (a nil field left out) but without its containers, sorting and boxing:
// a tenth of a sign-up's CPU outside RSA, and of a look-up's.

extension SignUpResponse {
    var json: Data {
        JSONWriter.object(capacity: 1400) { json in
            json.field("displayName", displayName)
            json.field("email", email)
            json.field("expiresIn", expiresIn)
            json.field("idToken", idToken)
            json.field("kind", kind)
            json.field("localId", localId)
            json.field("refreshToken", refreshToken)
        }
    }
}

extension SecureTokenResponse {
    var json: Data {
        JSONWriter.object(capacity: 2400) { json in
            json.field("access_token", accessToken)
            json.field("expires_in", expiresIn)
            json.field("id_token", idToken)
            json.field("project_id", projectId)
            json.field("refresh_token", refreshToken)
            json.field("token_type", tokenType)
            json.field("user_id", userId)
        }
    }
}

/// `accounts:lookup`, the call every signed-in client makes most.
extension AccountsLookupResponse {
    var json: Data {
        JSONWriter.object(capacity: 600) { json in
            json.field("kind", kind)
            json.field("users", users) { user, json in user.write(to: &json) }
        }
    }
}

extension AccountInfo {
    func write(to json: inout JSONWriter) {
        json.object { json in
            json.field("createdAt", createdAt)
            json.field("customAttributes", customAttributes)
            json.field("disabled", disabled)
            json.field("displayName", displayName)
            json.field("email", email)
            json.field("emailLinkSignin", emailLinkSignin)
            json.field("emailVerified", emailVerified)
            json.field("initialEmail", initialEmail)
            json.field("lastLoginAt", lastLoginAt)
            json.field("lastRefreshAt", lastRefreshAt)
            json.field("localId", localId)
            json.field("mfaInfo", mfaInfo) { enrollment, json in enrollment.write(to: &json) }
            json.field("passwordHash", passwordHash)
            if let passwordUpdatedAt {
                // Milliseconds, always whole: `JSONEncoder` writes a whole Double without its ".0".
                json.key("passwordUpdatedAt")
                if let whole = Int64(exactly: passwordUpdatedAt) { json.integer(whole) } else { json.raw(passwordUpdatedAt.description.utf8) }
            }
            json.field("phoneNumber", phoneNumber)
            json.field("photoUrl", photoUrl)
            json.field("providerUserInfo", providerUserInfo) { provider, json in provider.write(to: &json) }
            json.field("salt", salt)
            json.field("tenantId", tenantId)
            json.field("validSince", validSince)
        }
    }
}

extension ProviderUserInfo {
    func write(to json: inout JSONWriter) {
        json.object { json in
            json.field("displayName", displayName)
            json.field("email", email)
            json.field("federatedId", federatedId)
            json.field("phoneNumber", phoneNumber)
            json.field("photoUrl", photoUrl)
            json.field("providerId", providerId)
            json.field("rawId", rawId)
            json.field("screenName", screenName)
        }
    }
}

extension MfaEnrollment {
    func write(to json: inout JSONWriter) {
        json.object { json in
            json.field("displayName", displayName)
            json.field("enrolledAt", enrolledAt)
            json.field("mfaEnrollmentId", mfaEnrollmentId)
            json.field("phoneInfo", phoneInfo)
            if totpInfo != nil {
                json.key("totpInfo")
                json.object { _ in }
            }
            json.field("unobfuscatedPhoneInfo", unobfuscatedPhoneInfo)
        }
    }
}
