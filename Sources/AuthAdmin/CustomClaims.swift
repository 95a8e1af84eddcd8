import Foundation

/// Custom claims as Firebase accepts them: a JSON object, at most 1000 bytes serialised, with none
/// of the names an ID token reserves. Checked before anything is sent.
public enum CustomClaims {
    public static let maximumBytes = 1000

    /// The ID token's own claims, which Firebase refuses as custom claims.
    public static let reservedNames: Set<String> = [
        "acr", "amr", "at_hash", "aud", "auth_time", "azp", "cnf", "c_hash", "exp", "iat", "iss", "jti", "nbf", "nonce", "sub", "firebase",
    ]

    /// The claims in the compact form that is stored and counted; `{}` clears them.
    public static func validated(_ text: String) throws -> String {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.isEmpty { return "{}" }
        // Foundation's parser alone would take `{"admin": true,}`; the text as typed, so positions are the editor's.
        if let problem = StrictJSON.problem(in: text) { throw AuthAdminError.invalidClaims("not valid JSON: \(problem)") }
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: Data(trimmed.utf8))
        } catch {
            throw AuthAdminError.invalidClaims("not valid JSON")
        }
        guard let claims = object as? [String: Any] else { throw AuthAdminError.invalidClaims("must be a JSON object") }
        let reserved = claims.keys.filter(reservedNames.contains).sorted()
        guard reserved.isEmpty else { throw AuthAdminError.invalidClaims("reserved claim \(reserved.joined(separator: ", "))") }
        let compact = try JSONSerialization.data(withJSONObject: claims, options: [.sortedKeys, .withoutEscapingSlashes])
        guard compact.count <= maximumBytes else {
            throw AuthAdminError.invalidClaims("\(compact.count) bytes, more than Firebase's \(maximumBytes)")
        }
        return String(decoding: compact, as: UTF8.self)
    }

    /// Indented, for the detail screen and the editor.
    public static func pretty(_ text: String?) -> String {
        guard let text, let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)),
              let data = try? JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
        else { return text ?? "{}" }
        return String(decoding: data, as: UTF8.self)
    }
}
