import Foundation
import GRDB

/// The second factor a session was started with (`firebase.sign_in_second_factor`).
struct SecondFactor: Equatable {
    var factor: MfaEnrollmentRecord.Factor
    var mfaEnrollmentId: String
}

/// ID-token claims gathered inside a transaction, signed once it has committed: RSA inside the
/// write transaction made every other writer wait for each signature.
struct UnsignedIdToken {
    /// The claims, JSON.
    fileprivate let payload: [UInt8]
    fileprivate let signer: TokenSigner

    func signed() throws -> String { try signer.sign(payload: payload) }
}

/// The tokens a successful sign-in returns.
struct IssuedTokens {
    static let lifetime: Int64 = 3600
    static let expiresIn = String(lifetime)

    let unsignedIdToken: UnsignedIdToken
    let unsealedRefreshToken: UnsealedRefreshToken

    /// Signs: read it after the transaction that started the session.
    var idToken: String { get throws { try unsignedIdToken.signed() } }
    /// Read it after the transaction too.
    var refreshToken: String { get throws { try unsealedRefreshToken.sealed() } }
}

// The statements a refresh and a verified ID token run are prepared once per connection: GRDB's
// query interface built and compiled each anew (SQLite's authorizer included), a tenth of a refresh.
extension StoredAccount {
    /// Sets `lastRefreshAt` alone: rewriting the whole row touched every index of the user table.
    static func recordRefresh(localId: String, at milliseconds: Int64, in db: Database) throws {
        try db.cachedStatement(sql: "UPDATE \(databaseTableName) SET lastRefreshAt = ? WHERE localId = ?")
            .execute(arguments: [milliseconds, localId])
    }

    // Rows are read in place, never copied: a copied row (GRDB's `Row.fetchOne`) finds a column by
    // lower-casing the name of every column before it, ~400 strings per account read.
    static func fetchOne(localId: String, in db: Database) throws -> StoredAccount? {
        try fetchOne(db.cachedStatement(sql: selectByLocalId), arguments: [localId])
    }

    /// The account and its revocations (`AccountSessions`' cuts), from one read of its row.
    static func fetchWithSessionCuts(localId: String, in db: Database) throws -> (user: StoredAccount, cuts: SessionCuts)? {
        let rows = try Row.fetchCursor(db.cachedStatement(sql: selectByLocalId), arguments: [localId])
        guard let row = try rows.next() else { return nil }
        return (try StoredAccount(row: row), SessionCuts(row["sessionCuts"]))
    }

    private static let selectByLocalId = "SELECT * FROM \(databaseTableName) WHERE localId = ?"
}

extension EmbeddedBackend {
    /// Claims that only the backend sets; custom claims never replace them.
    static let forbiddenCustomClaims: Set<String> = [
        "iss", "aud", "sub", "iat", "exp", "nbf", "jti", "nonce", "azp", "acr", "amr", "cnf", "auth_time", "firebase", "at_hash", "c_hash",
    ]
    private static let backendClaims: Set<String> = forbiddenCustomClaims.union([
        "user_id", "email", "email_verified", "name", "picture", "phone_number", "provider_id",
    ])

    /// A new ID token and refresh token for one session of `user`, which is numbered in the account
    /// (`AccountSessions`); every sign-in counts as a token refresh (`lastRefreshAt`), as in Firebase.
    /// `extraClaims` (a JSON object: a custom token's developer claims) go into every ID token of the session.
    func startSession(for user: StoredAccount, signInProvider: String, authTime: Int64, secondFactor: SecondFactor? = nil,
                      extraClaims: String? = nil, in db: Database) throws -> IssuedTokens {
        let providers = try user.providers(in: db)
        let (number, seal) = try AccountSessions.start(localId: user.localId, at: nowMilliseconds, in: db)
        return tokens(for: user, providers: providers, session: RefreshTokenSession(
            localId: user.localId, seal: seal, number: number, createdAt: nowSeconds, authTime: authTime,
            signInProvider: signInProvider, secondFactor: secondFactor, extraClaims: extraClaims))
    }

    /// The first session of an account not yet inserted (number 0, as its row's `sessionCount` says), made
    /// without the database: a new anonymous account's tokens are made before its transaction.
    func firstSession(of user: StoredAccount, signInProvider: String, authTime: Int64) -> IssuedTokens {
        tokens(for: user, providers: [], session: RefreshTokenSession(
            localId: user.localId, seal: user.sessionSeal, number: 0, createdAt: nowSeconds, authTime: authTime,
            signInProvider: signInProvider))
    }

    private func tokens(for user: StoredAccount, providers: [ProviderRecord], session: RefreshTokenSession) -> IssuedTokens {
        IssuedTokens(unsignedIdToken: idToken(for: user, providers: providers, signInProvider: session.signInProvider,
                                              authTime: session.authTime, secondFactor: session.secondFactor,
                                              extraClaims: session.extraClaims),
                     unsealedRefreshToken: unsealedRefreshToken(for: session))
    }

    func idToken(for user: StoredAccount, providers: [ProviderRecord], signInProvider: String, authTime: Int64,
                 secondFactor: SecondFactor? = nil, extraClaims: String? = nil) -> UnsignedIdToken {
        var claims = JSONWriter()
        claims.beginObject()
        // The account's custom claims, then the session's developer claims over them; reserved names never.
        var custom: [String: Any] = [:]
        for source in [user.customAttributes, extraClaims] {
            guard let source, let object = try? JSONSerialization.jsonObject(with: Data(source.utf8)) as? [String: Any] else { continue }
            for (name, value) in object where !Self.backendClaims.contains(name) { custom[name] = value }
        }
        for (name, value) in custom.sorted(by: { $0.key < $1.key }) {
            guard let json = try? JSONSerialization.data(withJSONObject: value, options: [.fragmentsAllowed, .sortedKeys, .withoutEscapingSlashes])
            else { continue }
            claims.key(name)
            claims.raw(json)
        }
        let issued = nowMilliseconds
        let now = issued / 1000
        claims.field("iss", "https://securetoken.google.com/\(projectId)")
        claims.field("aud", projectId)
        claims.field("sub", user.localId)
        claims.field("user_id", user.localId)
        claims.field("auth_time", authTime)
        claims.field("iat", now)
        claims.field("exp", now + IssuedTokens.lifetime)
        if let email = user.email {
            claims.field("email", email)
            claims.field("email_verified", user.emailVerified)
        }
        claims.field("name", user.displayName)
        claims.field("picture", user.photoUrl)
        claims.field("phone_number", user.phoneNumber)

        claims.key("firebase")
        claims.beginObject()
        claims.key("identities")
        claims.beginObject()
        var identities: [(provider: String, id: String)] = []
        if let email = user.email { identities.append(("email", email)) }
        if let phone = user.phoneNumber { identities.append(("phone", phone)) }
        for provider in providers where provider.providerId != "password" && provider.providerId != "phone" {
            identities.append((provider.providerId, provider.rawId))
        }
        for identity in identities {
            claims.key(identity.provider)
            claims.beginArray()
            claims.string(identity.id)
            claims.endArray()
        }
        claims.endObject()
        claims.field("sign_in_provider", signInProvider)
        if let tenantId { claims.field("tenant", tenantId) }
        // The issue time to the millisecond, beside `iat`'s second: a revocation later in the same second ends the token.
        claims.field("iat_ms", issued)
        if let secondFactor {
            claims.field("sign_in_second_factor", secondFactor.factor.rawValue)
            claims.field("second_factor_identifier", secondFactor.mfaEnrollmentId)
        }
        claims.endObject()
        if signInProvider == "anonymous" && user.isAnonymous(providers: providers) { claims.field("provider_id", "anonymous") }
        claims.endObject()
        return UnsignedIdToken(payload: claims.bytes, signer: signer)
    }
}
