import Foundation
import IdentityToolkit

/// The backend calls behind the public API: the first factor's exchange, and every request's errors as `AuthError`.
extension Auth {
    struct SignInTokens {
        var localId: String?
        var idToken: String?
        var refreshToken: String?
        var expiresIn: String?
        var isNewUser: Bool?
        var additionalUserInfo: AdditionalUserInfo?
        var providerCredential: OAuthCredential?
    }

    /// The first factor's exchange. `autoCreate: false` (reauthentication) never creates an account for
    /// an unknown provider identity; `reauthenticating` names the user a reauthentication must stay on.
    func exchange(_ credential: AuthCredential, autoCreate: Bool = true, reauthenticating uid: String? = nil) async throws -> SignInTokens {
        switch credential {
        case let .password(email, password):
            let response = try await perform(SignInWithPasswordRequest(email: email, password: password))
            return try firstFactorTokens(response, providerID: credential.provider, reauthenticating: uid)
        case let .phone(phone):
            return try firstFactorTokens(try await perform(phone.signInRequest(idToken: nil)), providerID: credential.provider,
                                         reauthenticating: uid)
        case let .emailLink(email, link):
            let response = try await perform(SignInWithEmailLinkRequest(email: email, oobCode: try Self.requireEmailLinkCode(link)))
            return try firstFactorTokens(response, providerID: credential.provider, reauthenticating: uid)
        case let .oauth(oauth):
            let response = try await perform(SignInWithIdpRequest(credential: oauth, autoCreate: autoCreate ? nil : false))
            if let refusal = response.refusal { throw refusal }
            var tokens = try firstFactorTokens(response, providerID: credential.provider, reauthenticating: uid)
            tokens.additionalUserInfo = response.additionalUserInfo
            tokens.providerCredential = response.providerCredential
            return tokens
        }
    }

    /// The one place every sign-in response passes through: an answer with `mfaPendingCredential`
    /// and no tokens becomes `secondFactorRequired`, carrying the challenge (hints and pending credential).
    func firstFactorTokens(_ response: some FirstFactorResponse, providerID: String, reauthenticating uid: String?) throws -> SignInTokens {
        if response.idToken == nil, let pending = response.mfaPendingCredential {
            var error = AuthError(.secondFactorRequired)
            error.multiFactorChallenge = MultiFactorChallenge(hints: (response.mfaInfo ?? []).compactMap(MultiFactorInfo.init),
                                                              firstFactorProviderID: providerID, mfaPendingCredential: pending,
                                                              reauthenticatingUID: uid)
            throw error
        }
        return SignInTokens(localId: response.localId, idToken: response.idToken, refreshToken: response.refreshToken,
                            expiresIn: response.expiresIn, isNewUser: response.isNewUser)
    }

    func requireUser() throws -> User {
        guard let user = session?.user else { throw AuthError(.userNotFound, serverMessage: "no signed-in user") }
        return user
    }

    /// Within a tenant, every Identity Toolkit call with a body names it, as the SDKs send
    /// `tenantId`; the token endpoint finds it in the refresh token.
    func perform<R: IdentityRequest>(_ request: R) async throws -> R.Response {
        do {
            if let tenantID, R.endpoint.host == .identityToolkit, R.httpMethod == "POST" {
                return try await backend.call(TenantScopedRequest(request, tenantId: tenantID))
            }
            return try await backend.call(request)
        } catch {
            throw AuthError.from(error)
        }
    }

    /// Like `perform`, and signs out when the backend says the session is gone for good
    /// (the user was deleted or disabled, or its tokens were revoked), as the SDKs do.
    func performForCurrentUser<R: IdentityRequest>(_ request: R) async throws -> R.Response {
        do {
            return try await perform(request)
        } catch let error as AuthError {
            if Self.endsSession(error.code) { signOutLocally(endedBy: error.code) }
            throw error
        }
    }

    static func endsSession(_ code: AuthErrorCode) -> Bool {
        [.userTokenExpired, .userNotFound, .userDisabled, .invalidUserToken].contains(code)
    }
}
