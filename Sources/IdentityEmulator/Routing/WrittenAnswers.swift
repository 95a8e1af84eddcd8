import Foundation
import IdentityToolkit

// The two answers every sign-up and refresh return, written as `JSONEncoder` with sorted keys
// writes them (a nil field left out) but without its containers, sorting and boxing: a tenth
// of a sign-up's CPU outside RSA.

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
