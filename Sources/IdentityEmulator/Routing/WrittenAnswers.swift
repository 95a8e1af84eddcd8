import Foundation
import IdentityToolkit

// The answers of the hottest calls (sign-up, refresh, look-up), written as `JSONEncoder` with
// sorted keys writes them (a nil field left out) but without its containers, sorting and boxing:
// a tenth of a sign-up's CPU outside RSA, and of a look-up's.

extension SignUpResponse {
    var json: Data {
        var json = JSONWriter(capacity: 1400)
        json.beginObject()
        json.field("displayName", displayName)
        json.field("email", email)
        json.field("expiresIn", expiresIn)
        json.field("idToken", idToken)
        json.field("kind", kind)
        json.field("localId", localId)
        json.field("refreshToken", refreshToken)
        json.endObject()
        return Data(json.bytes)
    }
}

extension SecureTokenResponse {
    var json: Data {
        var json = JSONWriter(capacity: 2400)
        json.beginObject()
        json.field("access_token", accessToken)
        json.field("expires_in", expiresIn)
        json.field("id_token", idToken)
        json.field("project_id", projectId)
        json.field("refresh_token", refreshToken)
        json.field("token_type", tokenType)
        json.field("user_id", userId)
        json.endObject()
        return Data(json.bytes)
    }
}

/// `accounts:lookup`, the call every signed-in client makes most.
extension AccountsLookupResponse {
    var json: Data {
        var json = JSONWriter(capacity: 600)
        json.beginObject()
        json.field("kind", kind)
        if let users {
            json.key("users")
            json.beginArray()
            for user in users { user.write(to: &json) }
            json.endArray()
        }
        json.endObject()
        return Data(json.bytes)
    }
}

extension AccountInfo {
    func write(to json: inout JSONWriter) {
        json.beginObject()
        json.field("createdAt", createdAt)
        json.field("customAttributes", customAttributes)
        if let disabled { json.field("disabled", disabled) }
        json.field("displayName", displayName)
        json.field("email", email)
        if let emailVerified { json.field("emailVerified", emailVerified) }
        json.field("lastLoginAt", lastLoginAt)
        json.field("lastRefreshAt", lastRefreshAt)
        json.field("localId", localId)
        if let mfaInfo {
            json.key("mfaInfo")
            json.beginArray()
            for enrollment in mfaInfo { enrollment.write(to: &json) }
            json.endArray()
        }
        json.field("passwordHash", passwordHash)
        if let passwordUpdatedAt {
            // Milliseconds, always whole: `JSONEncoder` writes a whole Double without its ".0".
            json.key("passwordUpdatedAt")
            if let whole = Int64(exactly: passwordUpdatedAt) { json.integer(whole) } else { json.raw(passwordUpdatedAt.description.utf8) }
        }
        json.field("phoneNumber", phoneNumber)
        json.field("photoUrl", photoUrl)
        if let providerUserInfo {
            json.key("providerUserInfo")
            json.beginArray()
            for provider in providerUserInfo { provider.write(to: &json) }
            json.endArray()
        }
        json.field("salt", salt)
        json.field("validSince", validSince)
        json.endObject()
    }
}

extension ProviderUserInfo {
    func write(to json: inout JSONWriter) {
        json.beginObject()
        json.field("displayName", displayName)
        json.field("email", email)
        json.field("federatedId", federatedId)
        json.field("phoneNumber", phoneNumber)
        json.field("photoUrl", photoUrl)
        json.field("providerId", providerId)
        json.field("rawId", rawId)
        json.field("screenName", screenName)
        json.endObject()
    }
}

extension MfaEnrollment {
    func write(to json: inout JSONWriter) {
        json.beginObject()
        json.field("displayName", displayName)
        json.field("enrolledAt", enrolledAt)
        json.field("mfaEnrollmentId", mfaEnrollmentId)
        json.field("phoneInfo", phoneInfo)
        if totpInfo != nil {
            json.key("totpInfo")
            json.beginObject()
            json.endObject()
        }
        json.field("unobfuscatedPhoneInfo", unobfuscatedPhoneInfo)
        json.endObject()
    }
}
