import Foundation

/// Shortens secrets so that they never appear whole on screen or in a log.
public enum Redaction {
    /// Keys whose values are secret wherever they appear in a request or response body.
    public static let secretKeys: Set<String> = [
        "password", "newPassword", "oldPassword", "idToken", "id_token", "refreshToken", "refresh_token",
        "access_token", "accessToken", "oauthIdToken", "oauthAccessToken", "oauthTokenSecret", "pendingToken",
        "postBody", "oobCode", "oobLink", "mfaPendingCredential", "sessionInfo", "code", "verificationCode",
        "sharedSecretKey", "passwordHash", "salt", "temporaryProof", "token", "signerKey", "secret", "apiKey",
    ]

    /// Keys whose values say nothing useful even shortened: shown only as a length.
    static let hiddenKeys: Set<String> = ["password", "newPassword", "oldPassword", "passwordHash", "salt", "sharedSecretKey", "signerKey", "secret", "code", "verificationCode"]

    /// `eyJhbGciOi…(812)`: enough to tell two tokens apart, never enough to use one.
    public static func shorten(_ secret: String, keep: Int = 10) -> String {
        guard secret.count > keep else { return "…(\(secret.count))" }
        return String(secret.prefix(keep)) + "…(\(secret.count))"
    }

    public static func hide(_ secret: String) -> String { "•••(\(secret.count))" }

    /// A JSON body with every secret value shortened; a body that is not JSON is shortened whole.
    public static func redactJSON(_ data: Data) -> String {
        guard !data.isEmpty else { return "" }
        guard let object = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) else {
            return shorten(String(decoding: data, as: UTF8.self), keep: 40)
        }
        let redacted = redact(object, key: nil)
        guard let out = try? JSONSerialization.data(withJSONObject: redacted, options: [.sortedKeys, .withoutEscapingSlashes, .fragmentsAllowed]) else {
            return ""
        }
        return String(decoding: out, as: UTF8.self)
    }

    static func redact(_ value: Any, key: String?) -> Any {
        switch value {
        case let dict as [String: Any]:
            return dict.reduce(into: [String: Any]()) { result, pair in result[pair.key] = redact(pair.value, key: pair.key) }
        case let array as [Any]:
            return array.map { redact($0, key: key) }
        case let string as String:
            guard let key, secretKeys.contains(key) else { return string }
            return hiddenKeys.contains(key) ? hide(string) : shorten(string)
        default:
            return value
        }
    }
}
