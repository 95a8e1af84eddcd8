import Foundation
import IdentityToolkit
import Testing
@testable import IdentityEmulator

/// A data directory that is damaged, emptied, newer, or another project's is refused on open with
/// a clear message, and nothing is written to it.
@Suite struct DamagedDataTests {
    /// A backend that has run and been shut down, with a few accounts, so the database has pages to damage.
    private func usedHarness(_ configuration: EmbeddedBackendConfiguration = .init()) async throws -> Harness {
        let harness = try Harness(configuration: configuration)
        for index in 0..<40 {
            _ = try await harness.signUp("user\(index)@example.com")
        }
        try harness.backend.close()
        return harness
    }

    private func databasePath(_ harness: Harness) -> String { harness.directory.appendingPathComponent("identity.sqlite").path }

    /// After reads (a console's lookups) no WAL or shared-memory file stays at shutdown: GRDB closes the writer
    /// before its read-only readers, and the last connection to close, if read-only, cannot remove them.
    @Test func closingAfterReadsLeavesNoWALBehind() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        let account = try await harness.signUp("ada@example.com")
        _ = try await harness.lookup(account.idToken)
        _ = try await harness.signIn("ada@example.com")
        try harness.backend.close()
        let files = try FileManager.default.contentsOfDirectory(atPath: harness.directory.path)
        #expect(files.contains("identity.sqlite"))
        #expect(!files.contains("identity.sqlite-wal"))
        #expect(!files.contains("identity.sqlite-shm"))
    }

    @Test func anEmptiedDatabaseBesideItsKeysIsRefused() async throws {
        let harness = try await usedHarness()
        defer { harness.remove() }
        let path = databasePath(harness)
        #expect(truncate(path, 0) == 0)
        #expect(throws: EmbeddedBackendError.emptiedDatabase(path)) { _ = try harness.reopened() }
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber == 0)
        #expect(EmbeddedBackendError.emptiedDatabase(path).description.contains("every account would be gone"))
    }

    @Test func anEmptyDatabaseWithoutKeysIsAnInterruptedFirstStart() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("authdeck-emu-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: directory.appendingPathComponent("identity.sqlite").path, contents: Data()))
        let harness = try Harness(directory: directory)
        _ = try await harness.signUp("first@example.com")
    }

    @Test func damageInsideAnIntactHeaderIsCaughtOnOpenAndNothingIsWritten() async throws {
        let harness = try await usedHarness()
        defer { harness.remove() }
        let path = databasePath(harness)
        var bytes = try #require(FileManager.default.contents(atPath: path))
        let pageSize = 4096
        #expect(bytes.count >= 4 * pageSize)
        // Junk over the third page: the header is intact, the tree is not.
        bytes.replaceSubrange(2 * pageSize..<3 * pageSize, with: Data(repeating: 0xA5, count: pageSize))
        #expect(FileManager.default.createFile(atPath: path, contents: bytes))

        #expect(throws: EmbeddedBackendError.corruptDatabase(path)) { _ = try harness.reopened() }
        #expect(FileManager.default.contents(atPath: path) == bytes)
    }

    /// `quick_check` reads every page (0.4 s at 100,000 accounts), so a start skips it when the files
    /// are exactly as stamped by the last check or clean close, and runs it whenever they are not.
    @Test func theFullCheckRunsOnlyWhenTheFilesAreNotAsStamped() throws {
        let harness = try Harness()
        defer { harness.remove() }
        // A table no start reads fills the file's last pages: damage there shows only to a full read.
        try harness.backend.store.writeBlocking { db in
            try db.execute(sql: "CREATE TABLE filler (bytes BLOB)")
            for _ in 0..<64 { try db.execute(sql: "INSERT INTO filler VALUES (randomblob(2000))") }
        }
        try harness.backend.close()
        let path = databasePath(harness)
        #expect(IntegrityStamp.stored(forDatabaseAt: path) == IntegrityStamp.current(databaseAt: path), "a clean close stamps the files")
        var status = stat()
        #expect(stat(path, &status) == 0)
        let pageSize = 4096
        let handle = try #require(FileHandle(forUpdatingAtPath: path))
        try handle.seek(toOffset: UInt64(status.st_size) - UInt64(pageSize))
        try handle.write(contentsOf: Data(repeating: 0xA5, count: pageSize))
        try handle.close()

        // The modification time put back: the files are as stamped, and the start reads only what it needs.
        var times = [status.st_atim, status.st_mtim]
        #expect(utimensat(AT_FDCWD, path, &times, 0) == 0)
        try harness.reopened().backend.close()

        // Touched, they are not: every page is read and the damage is found.
        #expect(utimensat(AT_FDCWD, path, nil, 0) == 0)
        #expect(throws: EmbeddedBackendError.corruptDatabase(path)) { _ = try harness.reopened() }
    }

    @Test func aDatabaseOfANewerAuthDeckIsRefused() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        try harness.backend.store.writeBlocking { db in
            try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v99: from a later version')")
        }
        try harness.backend.close()
        let path = databasePath(harness)
        let before = FileManager.default.contents(atPath: path)
        #expect(throws: EmbeddedBackendError.newerDatabase(path)) { _ = try harness.reopened() }
        #expect(FileManager.default.contents(atPath: path) == before)
    }

    @Test func dataKeepsItsProjectAndIsNeverRelabelled() async throws {
        let harness = try await usedHarness(.init(projectId: "alpha-project"))
        defer { harness.remove() }
        let path = databasePath(harness)
        #expect(throws: EmbeddedBackendError.projectMismatch(path: path, stored: "alpha-project", requested: "beta-project")) {
            _ = try harness.reopened(configuration: .init(projectId: "beta-project"))
        }
        #expect(EmbeddedBackendError.projectMismatch(path: path, stored: "alpha-project", requested: "beta-project").description
            .contains("--project alpha-project"))
        // Without a project asked for, the data's own is served.
        let reopened = try harness.reopened()
        #expect(reopened.backend.projectId == "alpha-project")
        let signedIn = try await reopened.signIn("user1@example.com")
        #expect(claims(of: signedIn.idToken)["aud"] as? String == "alpha-project")
        // A new directory without a project asked for is the default project.
        let fresh = try Harness()
        defer { fresh.remove() }
        #expect(fresh.backend.projectId == EmbeddedBackendConfiguration.defaultProjectId)
    }

    @Test func aDamagedSigningCertificateIsRefusedNotReplaced() async throws {
        let harness = try await usedHarness()
        defer { harness.remove() }
        let path = harness.directory.appendingPathComponent("keys/securetoken.crt").path
        let junk = Data("-----BEGIN CERTIFICATE-----\nnot a certificate\n-----END CERTIFICATE-----\n".utf8)
        try junk.write(to: URL(fileURLWithPath: path))
        #expect(throws: EmbeddedBackendError.unreadableFile(path)) { _ = try harness.reopened() }
        #expect(FileManager.default.contents(atPath: path) == junk)
    }
}
