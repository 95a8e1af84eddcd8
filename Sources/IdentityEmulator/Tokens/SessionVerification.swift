import Foundation
import GRDB
import Synchronization

/// A signed-in user, as proven by a valid ID token.
struct VerifiedSession {
    var user: StoredAccount
    var signInProvider: String
    /// Seconds since 1970 of the sign-in that started the session.
    var authTime: Int64
    /// The second factor the session was started with, if any.
    var secondFactor: SecondFactor?
    /// What the ID token said, to check the account again inside a write (`currentUser(of:in:)`).
    var claims: IdTokenClaims
}

extension EmbeddedBackend {
    /// Checks an ID token as production does: signature, issuer, audience, expiry, then the account.
    func verifySession(idToken: String?) throws -> VerifiedSession {
        let claims = try verifiedClaims(idToken: idToken)
        return try store.read { db in try verifySession(claims, in: db) }
    }

    /// The token's claims once its signature, issuer, audience and expiry are checked. A token seen
    /// before skips the RSA verification and the JSON; the account is still checked every time
    /// (`verifySession(_:in:)`), and so is the expiry.
    func verifiedClaims(idToken: String?) throws -> IdTokenClaims {
        guard let idToken, !idToken.isEmpty else { throw BackendFailure.missingIdToken }
        let claims: IdTokenClaims
        if let known = verifiedIdTokens[idToken] {
            claims = known
        } else {
            guard let payload = signer.verifiedPayload(of: idToken),
                  let decoded = try? JSONDecoder().decode(IdTokenClaims.self, from: payload),
                  decoded.iss == "https://securetoken.google.com/\(projectId)", decoded.aud == projectId, !decoded.sub.isEmpty else {
                throw BackendFailure.invalidIdToken
            }
            // A token is its tenant's only: another tenant's account may have the same uid.
            if decoded.firebase.tenant != tenantId {
                if tenantId == nil, let tenant = decoded.firebase.tenant { throw TenantHandOff(tenantId: tenant) }
                throw BackendFailure.tenantIdMismatch
            }
            claims = decoded
            verifiedIdTokens[idToken] = claims
        }
        guard claims.exp > nowSeconds else { throw BackendFailure.tokenExpired }
        return claims
    }

    /// The session of verified claims, if their account still exists, is enabled and was not revoked since.
    func verifySession(_ claims: IdTokenClaims, in db: Database) throws -> VerifiedSession {
        guard let user = try StoredAccount.fetchOne(localId: claims.sub, in: db) else {
            throw BackendFailure.userNotFound
        }
        guard !user.disabled else { throw BackendFailure.userDisabled }
        // Tokens minted before a revocation (password change, admin revoke) are refused, those of its own second too.
        guard user.acceptsToken(issuedAt: claims.iat, milliseconds: claims.firebase.issuedAtMilliseconds) else { throw BackendFailure.tokenExpired }
        let secondFactor = claims.firebase.signInSecondFactor.flatMap(MfaEnrollmentRecord.Factor.init(rawValue:)).flatMap { factor in
            claims.firebase.secondFactorIdentifier.map { SecondFactor(factor: factor, mfaEnrollmentId: $0) }
        }
        return VerifiedSession(user: user, signInProvider: claims.firebase.signInProvider, authTime: claims.authTime,
                               secondFactor: secondFactor, claims: claims)
    }

    /// The session's account as a write transaction finds it, checked again as `verifySession` checks it:
    /// the ID token was checked before the transaction, and a revocation (a password change, a disable,
    /// an administrator's revoke) may have committed in between; what the write does on its strength
    /// (a new session above all) would outlive that revocation.
    func currentUser(of session: VerifiedSession, in db: Database) throws -> StoredAccount {
        try verifySession(session.claims, in: db).user
    }

    /// Password change, email change and deletion need a fresh sign-in.
    func requireRecentSignIn(_ session: VerifiedSession) throws {
        guard TimeInterval(nowSeconds - session.authTime) <= configuration.recentLoginWindow else {
            throw BackendFailure.credentialTooOld
        }
    }
}

struct IdTokenClaims: Decodable, Sendable {
    struct Firebase: Decodable, Sendable {
        let signInProvider: String
        let signInSecondFactor: String?
        let secondFactorIdentifier: String?
        /// When the token was issued, in milliseconds: `iat` alone cannot order it against a revocation in the same second.
        let issuedAtMilliseconds: Int64?
        let tenant: String?
        enum CodingKeys: String, CodingKey {
            case tenant
            case issuedAtMilliseconds = "iat_ms"
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

/// ID tokens whose signature and claims have been checked, by their text. Bounded: when full it
/// starts again empty (a token not found is only verified again).
final class VerifiedIdTokens: Sendable {
    static let capacity = 4096
    private let claims = Mutex<[String: IdTokenClaims]>([:])

    subscript(token: String) -> IdTokenClaims? {
        get { claims.withLock { $0[token] } }
        set {
            claims.withLock { known in
                if known.count >= Self.capacity { known.removeAll(keepingCapacity: true) }
                known[token] = newValue
            }
        }
    }
}
