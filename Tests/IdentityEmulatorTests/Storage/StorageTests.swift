import Foundation
import IdentityToolkit
import Testing
@testable import IdentityEmulator

@Suite struct StorageTests {
    @Test func reopeningKeepsUsersAndKeys() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        let created = try await harness.signUp("rae@example.com")
        let keys = harness.backend.publicKeysJWKS()

        let reopened = try harness.reopened()
        #expect(reopened.backend.publicKeysJWKS() == keys)
        #expect(try await reopened.lookup(created.idToken)?.localId == created.localId)
        #expect(try await reopened.signIn("rae@example.com").localId == created.localId)
        _ = try await reopened.refresh(created.refreshToken)
    }

    @Test func filesAreOwnerOnlyAndRefreshTokensAreNotStored() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        let created = try await harness.signUp("sam@example.com")
        func mode(_ path: String) throws -> Int {
            try #require(FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber).intValue & 0o777
        }
        let root = harness.directory.path
        #expect(try mode(root) == 0o700)
        #expect(try mode(root + "/identity.sqlite") == 0o600)
        #expect(try mode(root + "/keys") == 0o700)
        #expect(try mode(root + "/keys/securetoken.pem") == 0o600)
        for companion in ["/identity.sqlite-wal", "/identity.sqlite-shm"] where FileManager.default.fileExists(atPath: root + companion) {
            #expect(try mode(root + companion) == 0o600)
        }

        // A token carries its session under a MAC: nothing of it is in the database, whose copy cannot make one.
        let refreshToken = try #require(created.refreshToken)
        #expect(Data(base64URLEncoded: refreshToken)?.count ?? 0 >= 32 + RefreshTokenSession.macLength)
        #expect(try harness.backend.store.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM refreshToken") } == 0)
        try harness.backend.close()
        let files = try FileManager.default.contentsOfDirectory(atPath: root).filter { $0.hasPrefix("identity.sqlite") }
        for file in files {
            let bytes = try #require(FileManager.default.contents(atPath: root + "/" + file))
            #expect(bytes.range(of: Data(refreshToken.utf8)) == nil)
            #expect(bytes.range(of: try #require(Data(base64URLEncoded: refreshToken)).suffix(RefreshTokenSession.macLength)) == nil)
        }
    }

    @Test func concurrentCallersEachGetTheirOwnAccount() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        let api = harness.api
        let localIds = try await withThrowingTaskGroup(of: String.self) { group in
            for index in 0..<8 {
                group.addTask {
                    index.isMultiple(of: 2)
                        ? try await api.call(SignUpRequest()).localId
                        : try await api.call(SignUpRequest(email: "user\(index)@example.com", password: "secret-1")).localId
                }
            }
            return try await group.reduce(into: Set<String>()) { $0.insert($1) }
        }
        #expect(localIds.count == 8)
    }

    @Test func aCorruptDatabaseIsRefusedAndLeftUntouched() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("authdeck-emu-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent("identity.sqlite").path
        let bytes = Data("these are somebody's notes, not a database\n".utf8) + Data((0..<4000).map { UInt8($0 % 251) })
        #expect(FileManager.default.createFile(atPath: path, contents: bytes))

        #expect(throws: EmbeddedBackendError.corruptDatabase(path)) {
            try EmbeddedBackend(dataDirectory: directory)
        }
        #expect(FileManager.default.contents(atPath: path) == bytes)
        #expect(EmbeddedBackendError.corruptDatabase(path).description.contains(path))
    }

    @Test func aDamagedSQLiteFileIsRefusedAndLeftUntouched() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("authdeck-emu-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent("identity.sqlite").path
        // The right magic, then garbage: only SQLite itself can tell.
        let bytes = Data("SQLite format 3\u{0}".utf8) + Data(repeating: 0xFF, count: 4080)
        #expect(FileManager.default.createFile(atPath: path, contents: bytes))

        #expect(throws: EmbeddedBackendError.corruptDatabase(path)) {
            try EmbeddedBackend(dataDirectory: directory)
        }
        #expect(FileManager.default.contents(atPath: path) == bytes)
    }

    @Test func aDataPathThatIsAFileIsRefused() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("authdeck-emu-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: file) }
        #expect(FileManager.default.createFile(atPath: file.path, contents: Data("x".utf8)))
        #expect(throws: EmbeddedBackendError.dataDirectoryNotWritable(file.path)) {
            try EmbeddedBackend(dataDirectory: file)
        }
    }
}
