import Foundation
import GRDB
import Testing
@testable import IdentityEmulator

/// The records are read and written column by column (for speed, not through Codable): every stored
/// property must have its column both ways, or a new one would silently keep its default.
@Suite struct RecordColumnsTests {
    private static let user = StoredAccount(
        localId: "user-1", email: "ada@example.com", emailVerified: true, displayName: "Ada", photoUrl: "https://example.com/a.png",
        phoneNumber: "+15555550100", passwordHash: Data([1, 2, 3]), salt: Data([4, 5]), passwordUpdatedAt: 11, disabled: true,
        customAttributes: #"{"admin":true}"#, validSince: 12, createdAt: 13, lastLoginAt: 14, lastRefreshAt: 15, customAuth: true,
        emailLinkSignin: true, initialEmail: "first@example.com", sessionSeal: 16)
    private static let provider = ProviderRecord(localId: "user-1", providerId: "google.com", rawId: "g-1", federatedId: "fed-1",
                                                 email: "ada@gmail.com", displayName: "Ada G", photoUrl: "https://example.com/g.png",
                                                 phoneNumber: "+15555550101")

    @Test func everyPropertyIsAColumn() throws {
        #expect(try Self.columns(of: Self.user) == Self.properties(of: Self.user))
        #expect(try Self.columns(of: Self.provider) == Self.properties(of: Self.provider))
    }

    @Test func rowsComeBackAsWritten() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("record-columns-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let backend = try EmbeddedBackend(dataDirectory: directory, configuration: EmbeddedBackendConfiguration())
        let (user, provider) = try backend.store.writeBlocking { db in
            try Self.user.insert(db)
            try Self.provider.insert(db)
            return (try StoredAccount.fetchOne(db, key: "user-1"),
                    try ProviderRecord.fetchOne(db, key: ["localId": "user-1", "providerId": "google.com"]))
        }
        #expect(try user?.databaseDictionary == Self.user.databaseDictionary)
        #expect(try provider?.databaseDictionary == Self.provider.databaseDictionary)
    }

    @Test func preparedInsertsWriteEveryColumn() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("record-columns-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let backend = try EmbeddedBackend(dataDirectory: directory, configuration: EmbeddedBackendConfiguration())
        var otherUser = Self.user
        otherUser.localId = "user-2"
        otherUser.email = nil
        otherUser.phoneNumber = nil
        let users = try backend.store.writeBlocking { db in
            // Two, so that the second runs the statement the first prepared.
            try Self.user.insertPrepared(db)
            try otherUser.insertPrepared(db)
            return try StoredAccount.order(Column("localId")).fetchAll(db)
        }
        #expect(users.count == 2)
        for (read, written) in zip(users, [Self.user, otherUser]) { #expect(try read.databaseDictionary == written.databaseDictionary) }
        // A second row with the same key is refused, as GRDB's `insert` refuses it.
        #expect(throws: DatabaseError.self) { try backend.store.writeBlocking { db in try Self.user.insertPrepared(db) } }
    }

    private static func columns(of record: some EncodableRecord) throws -> Set<String> { Set(try record.databaseDictionary.keys) }

    private static func properties(of record: Any) -> Set<String> { Set(Mirror(reflecting: record).children.compactMap(\.label)) }
}
