import Foundation
import GRDB
import IdentityToolkit

extension EmbeddedBackend {
    /// `securetoken.googleapis.com/v1/token`: a fresh ID token for the same session (same
    /// `auth_time` and sign-in provider); the refresh token itself stays the same, as in production.
    func exchangeRefreshToken(_ body: SecureTokenBody) async throws -> SecureTokenResponse {
        guard let grantType = body.grantType, !grantType.isEmpty else { throw BackendFailure.missingGrantType }
        guard grantType == "refresh_token" else { throw BackendFailure.invalidGrantType }
        guard let refreshToken = body.refreshToken, !refreshToken.isEmpty else { throw BackendFailure.missingRefreshToken }
        // The MAC is checked before the transaction: the key may still be in the making.
        let carried = RefreshTokenSession(token: refreshToken, projectId: projectId, key: try signer.refreshTokenKey)
        if let carried, carried.tenantId != tenantId {
            if tenantId == nil, let tenant = carried.tenantId { throw TenantHandOff(tenantId: tenant) }
            throw BackendFailure.tenantIdMismatch
        }

        let (user, unsigned) = try await store.write { db -> (StoredAccount, UnsignedIdToken) in
            let session: RefreshTokenSession
            // A legacy token's row says whether it was revoked; the account says it for the others.
            let legacyRevoked: Bool?
            if let carried {
                (session, legacyRevoked) = (carried, nil)
            } else if let legacy = try RefreshTokenRecord.fetchOne(token: refreshToken, in: db) {
                (session, legacyRevoked) = (legacy.session, legacy.revoked)
            } else {
                throw BackendFailure.invalidRefreshToken
            }
            // The account first, as the emulator checks it: a deleted one's token is unknown, a
            // disabled one's says so; only then whether the session was revoked.
            guard let (user, cuts) = try StoredAccount.fetchWithSessionCuts(localId: session.localId, in: db) else {
                throw BackendFailure.invalidRefreshToken
            }
            guard !user.disabled else { throw BackendFailure.userDisabled }
            guard !(legacyRevoked ?? AccountSessions.revoked(session, of: user, cuts: cuts)) else { throw BackendFailure.tokenExpired }
            // An administrator's revocation (validSince) ends sessions started before it.
            guard session.createdAt >= user.validSince else { throw BackendFailure.tokenExpired }
            try StoredAccount.recordRefresh(localId: user.localId, at: nowMilliseconds, in: db)
            return (user, idToken(for: user, providers: try user.providers(in: db), signInProvider: session.signInProvider,
                                  authTime: session.authTime, secondFactor: session.secondFactor, extraClaims: session.extraClaims))
        }
        return SecureTokenResponse(idToken: try unsigned.signed(), refreshToken: refreshToken, expiresIn: IssuedTokens.expiresIn,
                                   userId: user.localId, projectId: projectId)
    }
}
