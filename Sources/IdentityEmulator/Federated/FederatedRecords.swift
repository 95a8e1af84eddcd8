import Foundation
import GRDB

/// A person known to a simulated identity provider.
struct SimulatedIdentityRecord: Codable, FetchableRecord, PersistableRecord, Sendable {
    static let databaseTableName = "simulatedIdentity"
    var providerId: String
    /// `sub`, or Microsoft's `oid`.
    var subject: String
    var displayName: String?
    /// Lower-cased.
    var email: String?
    /// Microsoft: `personal` or `work`.
    var accountType: String?
    /// Microsoft: the `tid` of the account's directory.
    var tenantId: String?
    /// Apple: the choice made on the first authorization, kept afterwards as Apple does.
    var emailHidden: Bool?
    /// Apple: the private relay address, made when the email is first hidden.
    var relayEmail: String?
    /// Seconds since 1970 of the first consent to this project's app; nil before.
    var authorizedAt: Int64?
    /// Milliseconds since 1970.
    var createdAt: Int64

    enum Columns {
        static let providerId = Column(CodingKeys.providerId)
        static let email = Column(CodingKeys.email)
        static let createdAt = Column(CodingKeys.createdAt)
    }
}

/// An opaque access token issued by a simulated provider, known by its SHA-256: what the backend
/// asks the provider about (Google's tokeninfo, Facebook's debug_token, Microsoft Graph).
struct IdpAccessTokenRecord: Codable, FetchableRecord, PersistableRecord, Sendable {
    static let databaseTableName = "idpAccessToken"
    var tokenHash: String
    var providerId: String
    var subject: String
    var clientId: String
    var scope: String
    /// Seconds since 1970.
    var expiresAt: Int64

    enum Columns {
        static let expiresAt = Column(CodingKeys.expiresAt)
    }
}

/// An ID token accepted once, for providers whose tokens may be used only once (Apple).
struct IdpTokenUseRecord: Codable, FetchableRecord, PersistableRecord, Sendable {
    static let databaseTableName = "idpTokenUse"
    var tokenHash: String
    /// Seconds since 1970: after this the token is refused as expired anyway, so the row can go.
    var expiresAt: Int64

    enum Columns {
        static let expiresAt = Column(CodingKeys.expiresAt)
    }
}

/// A provider identity the backend has verified but not signed in yet (link conflict, needConfirmation):
/// the `pendingToken` stands for it, so the client can finish without a second trip to the provider.
struct PendingIdpCredentialRecord: Codable, FetchableRecord, PersistableRecord, Sendable {
    static let databaseTableName = "pendingIdpCredential"
    var tokenHash: String
    /// The `VerifiedAssertion` as JSON.
    var assertion: Data
    /// Seconds since 1970.
    var expiresAt: Int64

    enum Columns {
        static let expiresAt = Column(CodingKeys.expiresAt)
    }
}

enum FederatedSchema {
    static let migrationName = "v2: simulated identity providers, IdP access tokens, used IdP tokens, pending IdP credentials"

    static func create(in db: Database) throws {
        try db.create(table: SimulatedIdentityRecord.databaseTableName) { t in
            t.column("providerId", .text).notNull()
            t.column("subject", .text).notNull()
            t.column("displayName", .text)
            t.column("email", .text)
            t.column("accountType", .text)
            t.column("tenantId", .text)
            t.column("emailHidden", .boolean)
            t.column("relayEmail", .text)
            t.column("authorizedAt", .integer)
            t.column("createdAt", .integer).notNull()
            t.primaryKey(["providerId", "subject"])
            t.uniqueKey(["providerId", "email"])
        }
        try db.create(table: IdpAccessTokenRecord.databaseTableName) { t in
            t.primaryKey("tokenHash", .text)
            t.column("providerId", .text).notNull()
            t.column("subject", .text).notNull()
            t.column("clientId", .text).notNull()
            t.column("scope", .text).notNull()
            t.column("expiresAt", .integer).notNull().indexed()
        }
        try db.create(table: IdpTokenUseRecord.databaseTableName) { t in
            t.primaryKey("tokenHash", .text)
            t.column("expiresAt", .integer).notNull().indexed()
        }
        try db.create(table: PendingIdpCredentialRecord.databaseTableName) { t in
            t.primaryKey("tokenHash", .text)
            t.column("assertion", .blob).notNull()
            t.column("expiresAt", .integer).notNull().indexed()
        }
    }
}
