import Foundation
import IdentityToolkit

extension SignInWithEmailLinkResponse: FirstFactorResponse {}

/// Custom-token sign-in never asks for a second factor (a custom first factor cannot have one).
extension SignInWithCustomTokenResponse: FirstFactorResponse {
    var localId: String? { nil }
    var mfaPendingCredential: String? { nil }
    var mfaInfo: [MfaEnrollment]? { nil }
}

/// The pseudo-provider of custom-token sessions, as it appears in `firebase.sign_in_provider`.
public enum CustomAuthProvider {
    public static let id = "custom"
}

/// The email-link sign-in method, as `fetchSignInMethods(forEmail:)` names it.
public enum EmailLinkAuthSignInMethod {
    public static let id = "emailLink"
}

extension Auth {
    // MARK: Custom tokens

    /// Signs in with a token the app's server minted (the Admin SDK's `create_custom_token`); its
    /// developer claims appear in the ID token.
    public func signIn(withCustomToken token: String) async throws -> AuthDataResult {
        let response = try await perform(SignInWithCustomTokenRequest(token: token))
        let tokens = try firstFactorTokens(response, providerID: CustomAuthProvider.id, reauthenticating: nil)
        let user = try await establishSession(idToken: tokens.idToken, refreshToken: tokens.refreshToken,
                                              expiresIn: tokens.expiresIn, anonymous: false)
        return AuthDataResult(user: user, additionalUserInfo: AdditionalUserInfo(providerID: nil, isNewUser: tokens.isNewUser ?? false))
    }

    // MARK: Email links

    /// Sends a sign-in link to `email` (passwordless sign-in); `continueURL` is where it returns to.
    public func sendSignInLink(toEmail email: String, continueURL: String? = nil) async throws {
        _ = try await perform(SendOobCodeRequest(requestType: .emailSignIn, email: email, continueUrl: continueURL))
    }

    /// Whether `link` is an email sign-in link (its own, or nested in a `link` or `deep_link_id`
    /// parameter, as links through an app's domain are).
    public nonisolated func isSignIn(withEmailLink link: String) -> Bool {
        Self.emailLinkCode(in: link) != nil
    }

    /// Signs in to the account of `email` with a link sent to it, creating the account when there
    /// is none. The email must be the one the link was sent to.
    public func signIn(withEmail email: String, link: String) async throws -> AuthDataResult {
        try await signIn(with: EmailAuthProvider.credential(withEmail: email, link: link))
    }

    static func requireEmailLinkCode(_ link: String) throws -> String {
        guard let code = emailLinkCode(in: link) else { throw AuthError(.invalidActionCode, serverMessage: "not an email sign-in link") }
        return code
    }

    /// The `oobCode` of a sign-in link (`mode=signIn`).
    static func emailLinkCode(in link: String) -> String? {
        guard let items = URLComponents(string: link)?.queryItems else { return nil }
        func value(_ name: String) -> String? { items.first { $0.name == name }?.value.flatMap { $0.isEmpty ? nil : $0 } }
        if value("mode") == "signIn", let code = value("oobCode") { return code }
        for nested in ["link", "deep_link_id"] {
            if let inner = value(nested), inner != link, let code = emailLinkCode(in: inner) { return code }
        }
        return nil
    }

    // MARK: Looking up an email

    /// How `email` can sign in: `password`, `emailLink`, provider ids. With email-enumeration
    /// protection on (production's default) the backend says nothing, and this is empty.
    public func fetchSignInMethods(forEmail email: String) async throws -> [String] {
        try await perform(CreateAuthUriRequest(identifier: email)).signinMethods ?? []
    }

    // MARK: Changing the email

    /// Changes the signed-in user's email at once (needs a recent sign-in). The backend answers with
    /// new tokens, and sends the previous address a message that can undo the change.
    public func updateEmail(to email: String) async throws {
        try await updateCredentials { AccountsUpdateRequest(idToken: $0, email: email) }
    }

    /// Sends a link to `newEmail`; the email changes only when it is opened (needs a recent sign-in).
    public func verifyBeforeUpdateEmail(to newEmail: String) async throws {
        _ = try requireUser()
        let idToken = try await validIDToken()
        _ = try await performForCurrentUser(SendOobCodeRequest(requestType: .verifyAndChangeEmail, idToken: idToken, newEmail: newEmail))
    }
}
