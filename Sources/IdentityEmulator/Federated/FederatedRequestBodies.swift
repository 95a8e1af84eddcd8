import Foundation

// What the backend reads from the bodies of `accounts:signInWithIdp` and of the simulated
// providers' endpoints. Every field is optional so that a missing one gets a clear error.

struct IdpSignInBody: Decodable {
    var requestUri: String?
    var postBody: String?
    var pendingToken: String?
    var idToken: String?
    var returnIdpCredential: Bool?
    var autoCreate: Bool?
}

struct SimulatedIdpListBody: Decodable {
    var providerId: String?
    var ownerSecret: String?
}

struct SimulatedIdpAddIdentityBody: Decodable {
    var providerId: String?
    var displayName: String?
    var email: String?
    var ownerSecret: String?
}

struct SimulatedIdpAuthorizeBody: Decodable {
    var providerId: String?
    var subject: String?
    var scopes: [String]?
    var customParameters: [String: String]?
    var nonce: String?
    var hideEmail: Bool?
    var ownerSecret: String?
}

/// The provider's answer as `accounts:signInWithIdp` receives it: `postBody` is a query string, and
/// the same fields may also come in the `requestUri`'s query or `#fragment` (a redirect's URL).
struct IdpPostBody: Equatable {
    var providerId: String?
    var idToken: String?
    var accessToken: String?
    /// The raw nonce whose SHA-256 the provider put into the ID token.
    var nonce: String?
    /// Apple's first-authorization `user` JSON (the name is shared only then).
    var appleUser: String?
    var code: String?

    init(postBody: String?, requestUri: String?) {
        var items = FormEncoding.items(postBody ?? "")
        if let requestUri {
            // A redirect URL: the fields may be in the query or in the fragment.
            let fragmentSplit = requestUri.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
            let query = fragmentSplit[0].split(separator: "?", maxSplits: 1).dropFirst().first ?? ""
            items += FormEncoding.items(String(query)) + FormEncoding.items(fragmentSplit.count > 1 ? String(fragmentSplit[1]) : "")
        }
        func value(_ name: String) -> String? {
            items.first { $0.name == name && !($0.value ?? "").isEmpty }?.value
        }
        providerId = value("providerId")?.lowercased()
        idToken = value("id_token")
        accessToken = value("access_token")
        nonce = value("nonce")
        appleUser = value("user")
        code = value("code")
    }
}
