import Foundation
import GRDB

/// A password hash imported with another project's scrypt parameters (`accounts:batchCreate`).
/// It is checked with those parameters until the first successful sign-in re-hashes the password
/// with this project's, as Firebase does. The row applies only while the user's stored hash is
/// still `passwordHash`, so any later password change makes it stale without further bookkeeping.
struct ImportedPasswordHashRecord: Codable, FetchableRecord, PersistableRecord, Sendable {
    static let databaseTableName = "importedPasswordHash"
    var localId: String
    var passwordHash: Data
    var signerKey: Data
    var saltSeparator: Data
    var rounds: Int
    var memCost: Int

    init(localId: String, passwordHash: Data, parameters: ScryptParameters) {
        self.localId = localId
        self.passwordHash = passwordHash
        signerKey = parameters.signerKey
        saltSeparator = parameters.saltSeparator
        rounds = parameters.rounds
        memCost = parameters.memCost
    }

    var parameters: ScryptParameters {
        ScryptParameters(signerKey: signerKey, saltSeparator: saltSeparator, rounds: rounds, memCost: memCost)
    }
}

extension ScryptParameters {
    func isSame(as other: ScryptParameters) -> Bool {
        signerKey == other.signerKey && saltSeparator == other.saltSeparator && rounds == other.rounds && memCost == other.memCost
    }
}

extension EmbeddedBackend {
    /// The parameters `user`'s current hash was imported with, or nil when it is this project's own.
    func importedHashParameters(of user: StoredAccount, in db: Database) throws -> ScryptParameters? {
        guard let hash = user.passwordHash, let imported = try ImportedPasswordHashRecord.fetchOne(db, key: user.localId),
              imported.passwordHash == hash else { return nil }
        return imported.parameters
    }

    /// After a sign-in proved `password`: replaces an imported hash by one made with this project's
    /// parameters. `rehash` was computed outside the transaction; it is applied only if the hash it
    /// replaces is still the one that was checked.
    func replaceImportedHash(of user: inout StoredAccount, checked: Data, with rehash: (hash: Data, salt: Data), in db: Database) throws {
        guard user.passwordHash == checked else { return }
        user.passwordHash = rehash.hash
        user.salt = rehash.salt
        try ImportedPasswordHashRecord.deleteOne(db, key: user.localId)
        logger.info("imported password hash re-hashed with the project's parameters", metadata: ["localId": "\(user.localId)"])
    }
}
