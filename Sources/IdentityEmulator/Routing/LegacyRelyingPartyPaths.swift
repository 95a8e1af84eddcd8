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
}
