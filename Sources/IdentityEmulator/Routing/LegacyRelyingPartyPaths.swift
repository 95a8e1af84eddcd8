import Foundation
import IdentityToolkit

/// The legacy Identity Toolkit v3 names the iOS SDK still calls
/// (`/www.googleapis.com/identitytoolkit/v3/relyingparty/<name>`), rewritten to the v1
/// `accounts:*` endpoints as the Firebase Auth Emulator does. A name maps to its v1 endpoint
/// whether or not that endpoint is served yet: an unserved one answers 404 like any unknown path.
enum LegacyRelyingPartyPaths {
    static let prefix = "/www.googleapis.com/identitytoolkit/v3/relyingparty/"

    /// Legacy name → v1 method. signInWithGameCenter and verifyClient have no rewrite (404), as in the emulator.
    static let v1Methods: [String: String] = [
        "signupNewUser": "accounts:signUp",
        "verifyPassword": "accounts:signInWithPassword",
        "verifyAssertion": "accounts:signInWithIdp",
        "verifyCustomToken": "accounts:signInWithCustomToken",
        "getAccountInfo": "accounts:lookup",
        "setAccountInfo": "accounts:update",
        "deleteAccount": "accounts:delete",
        "getOobConfirmationCode": "accounts:sendOobCode",
        "emailLinkSignin": "accounts:signInWithEmailLink",
        "verifyPhoneNumber": "accounts:signInWithPhoneNumber",
        "resetPassword": "accounts:resetPassword",
        "sendVerificationCode": "accounts:sendVerificationCode",
        "createAuthUri": "accounts:createAuthUri",
        "getRecaptchaParam": "recaptchaParams",
    ]

    /// The v1 emulator path for a legacy path, or nil when `path` is not a rewritten legacy one.
    static func v1Path(for path: String) -> String? {
        guard path.hasPrefix(prefix), let method = v1Methods[String(path.dropFirst(prefix.count))] else { return nil }
        return Endpoint.v1(method).emulatorPath
    }

    /// Legacy names that older Admin SDKs call with the project in the body (`targetProjectId`, keys in
    /// snake_case or camelCase), and the project-scoped v1 method and HTTP method each becomes.
    static let projectScopedMethods: [String: (method: String, httpMethod: String)] = [
        "downloadAccount": ("accounts:batchGet", "GET"),
        "uploadAccount": ("accounts:batchCreate", "POST"),
    ]

    /// A `downloadAccount` or `uploadAccount` call rewritten as the emulator rewrites it: to the body's
    /// project's `accounts:batchGet` (a GET, the body's fields its query) or `accounts:batchCreate` (the
    /// body without the project); nil for any other request. No `targetProjectId` is production's
    /// `INSUFFICIENT_PERMISSION`.
    static func projectScopedRequest(for request: WireRequest) throws -> WireRequest? {
        let parts = request.path.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        let path = String(parts[0])
        guard request.method == "POST", path.hasPrefix(prefix),
              let target = projectScopedMethods[String(path.dropFirst(prefix.count))] else { return nil }
        let blank = request.body.allSatisfy { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }
        guard let parsed = try? JSONSerialization.jsonObject(with: blank ? Data("{}".utf8) : request.body),
              var body = camelCased(parsed) as? [String: Any] else {
            throw BackendFailure.invalidArgument("Invalid JSON payload received.")
        }
        guard let project = body.removeValue(forKey: "targetProjectId") as? String, !project.isEmpty else {
            throw BackendFailure.insufficientPermission
        }
        var query = parts.count > 1 ? [String(parts[1])] : []
        var rewritten = request
        rewritten.method = target.httpMethod
        if target.httpMethod == "GET" {
            var components = URLComponents()
            components.queryItems = body.keys.sorted().compactMap { key in
                guard let value = body[key], !(value is [Any]), !(value is [String: Any]) else { return nil }
                return URLQueryItem(name: key, value: "\(value)")
            }
            if let encoded = components.percentEncodedQuery, !encoded.isEmpty { query.append(encoded) }
            rewritten.body = Data()
        } else {
            rewritten.body = try JSONSerialization.data(withJSONObject: body)
        }
        let projectSegment = project.addingPercentEncoding(withAllowedCharacters: projectIdCharacters) ?? project
        rewritten.path = "/identitytoolkit.googleapis.com/v1/projects/\(projectSegment)/\(target.method)"
            + (query.filter { !$0.isEmpty }.isEmpty ? "" : "?" + query.filter { !$0.isEmpty }.joined(separator: "&"))
        return rewritten
    }

    /// What a project id is made of; anything else is escaped, so that it stays one path segment.
    private static let projectIdCharacters = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-._~"))

    /// `max_results` → `maxResults`, in every object of the value.
    private static func camelCased(_ value: Any) -> Any {
        if let object = value as? [String: Any] {
            return Dictionary(object.map { (camelCased(key: $0.key), camelCased($0.value)) }, uniquingKeysWith: { first, _ in first })
        }
        if let array = value as? [Any] { return array.map(camelCased) }
        return value
    }

    private static func camelCased(key: String) -> String {
        let words = key.split(separator: "_", omittingEmptySubsequences: true)
        guard let first = words.first, words.count > 1 else { return key }
        return String(first) + words.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }
}
