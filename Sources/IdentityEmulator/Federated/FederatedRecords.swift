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
    /// The SHA-256 (hex) of the creator's owner secret on a shared backend; empty for identities of
    /// the administrator or of a backend that is not shared.
    var ownerHash: String = ""
    /// Whether the provider vouches for the email (Apple's and Google's `email_verified`): not for
    /// identities that anyone but the administrator added on a shared backend.
    var emailVerified: Bool = true

    enum Columns {
        static let providerId = Column(CodingKeys.providerId)
        static let email = Column(CodingKeys.email)
        static let createdAt = Column(CodingKeys.createdAt)
        static let ownerHash = Column(CodingKeys.ownerHash)
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
    static let ownershipMigrationName = "v3: simulated identities belong to their creator and may not vouch for their email"

    static func create(in db: Database) throws {
        try db.create(table: SimulatedIdentityRecord.databaseTableName) { t in
            simulatedIdentityColumns(t)
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

    /// SQLite cannot change a unique key in place: the table is rebuilt with the email unique per
    /// owner (one caller's identities never reveal or block another's), existing rows unowned and vouched for.
    static func addOwnership(in db: Database) throws {
        let columns = "providerId, subject, displayName, email, accountType, tenantId, emailHidden, relayEmail, authorizedAt, createdAt"
        try db.create(table: "simulatedIdentity_new") { t in
            simulatedIdentityColumns(t)
            t.column("ownerHash", .text).notNull().defaults(to: "")
            t.column("emailVerified", .boolean).notNull().defaults(to: true)
            t.uniqueKey(["providerId", "ownerHash", "email"])
        }
        try db.execute(sql: "INSERT INTO simulatedIdentity_new (\(columns)) SELECT \(columns) FROM \(SimulatedIdentityRecord.databaseTableName)")
        try db.drop(table: SimulatedIdentityRecord.databaseTableName)
        try db.rename(table: "simulatedIdentity_new", to: SimulatedIdentityRecord.databaseTableName)
    }

    private static func simulatedIdentityColumns(_ t: TableDefinition) {
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
    }
}
