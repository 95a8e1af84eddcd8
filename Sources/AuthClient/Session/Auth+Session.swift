import Foundation
import IdentityToolkit

/// The session's tokens: adopted from a sign-in, refreshed before they expire, persisted after
/// every change.
extension Auth {
    func establishSession(idToken: String?, refreshToken: String?, expiresIn: String?, anonymous: Bool) async throws -> User {
        guard let idToken, let refreshToken else {
            throw AuthError(.internalError, serverMessage: "the backend returned no tokens")
        }
        let response = try await perform(AccountsLookupRequest(idToken: idToken))
        guard let account = response.users?.first else { throw AuthError(.userNotFound) }
        let user = User(account: account, wasAnonymous: anonymous)
        sessionEndReason = nil
        session = PersistedSession(user: user, idToken: idToken, refreshToken: refreshToken,
                                   expirationDate: expiration(of: idToken, expiresIn: expiresIn))
        persist()
        notify()
        return user
    }

    func adoptTokens(idToken: String, refreshToken: String, expiresIn: String?) {
        session?.idToken = idToken
        session?.refreshToken = refreshToken
        session?.expirationDate = expiration(of: idToken, expiresIn: expiresIn)
        persist()
    }

    func expiration(of idToken: String, expiresIn: String?) -> Date {
        if let exp = IDTokenResult(token: idToken)?.expirationDate { return exp }
        return clock().addingTimeInterval(expiresIn.flatMap(TimeInterval.init) ?? 3600)
    }

    func validIDToken() async throws -> String {
        guard let current = session else { throw AuthError(.userNotFound, serverMessage: "no signed-in user") }
        if current.expirationDate.timeIntervalSince(clock()) <= Self.refreshMargin {
            try await refreshTokens()
        }
        guard let token = session?.idToken else { throw AuthError(.userNotFound, serverMessage: "no signed-in user") }
        return token
    }

    func refreshTokens() async throws {
        guard let refreshToken = session?.refreshToken else { throw AuthError(.userNotFound, serverMessage: "no signed-in user") }
        let response: SecureTokenResponse
        do {
            response = try await perform(SecureTokenRequest(refreshToken: refreshToken))
        } catch let error as AuthError {
            if Self.endsSession(error.code) || error.serverMessage?.hasPrefix("INVALID_REFRESH_TOKEN") == true {
                signOutLocally(endedBy: error.code)
            }
            throw error
        }
        adoptTokens(idToken: response.idToken, refreshToken: response.refreshToken, expiresIn: response.expiresIn)
    }

    func signOutLocally(endedBy reason: AuthErrorCode? = nil) {
        guard session != nil else { return }
        sessionEndReason = reason
        session = nil
        persist()
        notify()
    }

    /// A failed write is not fatal to the operation that changed the user: the account itself
    /// lives on the backend. The next successful write catches up.
    func persist() {
        try? store?.save(session)
    }
}
