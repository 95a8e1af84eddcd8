import Foundation
import GRDB

/// A signed-in user, as proven by a valid ID token.
struct VerifiedSession {
    var user: UserRecord
    var signInProvider: String
    /// Seconds since 1970 of the sign-in that started the session.
    var authTime: Int64
    /// The second factor the session was started with, if any.
    var secondFactor: SecondFactor?
}

extension EmbeddedBackend {
    /// Checks an ID token as production does: signature, issuer, audience, expiry, then the account.
    func verifySession(idToken: String?) throws -> VerifiedSession {
        guard let idToken, !idToken.isEmpty else { throw BackendFailure.missingIdToken }
        guard let payload = signer.verifiedPayload(of: idToken),
              let claims = try? JSONDecoder().decode(IdTokenClaims.self, from: payload),
              claims.iss == "https://securetoken.google.com/\(projectId)", claims.aud == projectId, !claims.sub.isEmpty else {
            throw BackendFailure.invalidIdToken
        }
        guard claims.exp > nowSeconds else { throw BackendFailure.tokenExpired }
        guard let user = try store.read({ try UserRecord.fetchOne($0, key: claims.sub) }) else { throw BackendFailure.userNotFound }
        guard !user.disabled else { throw BackendFailure.userDisabled }
        // Tokens minted before a revocation (password change, admin revoke) are refused.
        guard claims.iat >= user.validSince else { throw BackendFailure.tokenExpired }
        let secondFactor = claims.firebase.signInSecondFactor.flatMap(MfaEnrollmentRecord.Factor.init(rawValue:)).flatMap { factor in
            claims.firebase.secondFactorIdentifier.map { SecondFactor(factor: factor, mfaEnrollmentId: $0) }
        }
        return VerifiedSession(user: user, signInProvider: claims.firebase.signInProvider, authTime: claims.authTime,
                               secondFactor: secondFactor)
    }

    /// Password change, email change and deletion need a fresh sign-in.
    func requireRecentSignIn(_ session: VerifiedSession) throws {
        guard TimeInterval(nowSeconds - session.authTime) <= configuration.recentLoginWindow else {
            throw BackendFailure.credentialTooOld
        }
    }
}

private struct IdTokenClaims: Decodable {
    struct Firebase: Decodable {
        let signInProvider: String
        let signInSecondFactor: String?
        let secondFactorIdentifier: String?
        enum CodingKeys: String, CodingKey {
            case signInProvider = "sign_in_provider"
            case signInSecondFactor = "sign_in_second_factor"
            case secondFactorIdentifier = "second_factor_identifier"
        }
    }

    let iss: String
    let aud: String
    let sub: String
    let iat: Int64
    let exp: Int64
    let authTime: Int64
    let firebase: Firebase

    enum CodingKeys: String, CodingKey {
        case iss, aud, sub, iat, exp, firebase
        case authTime = "auth_time"
    }
}
