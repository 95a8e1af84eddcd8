import Foundation
import IdentityToolkit
import Testing
@testable import IdentityEmulator

/// Only a database that never completed its first start is made anew; one that did, emptied or gone,
/// is refused every time and left as it is, however early after its first write the backend stopped.
@Suite struct FirstStartTests {
    /// What an operator's recovery test did 30 times by hand: a new directory, an administrator's
    /// `accounts:batchCreate` of 50 accounts (no token signed, so the signing key may not be written
    /// yet), a stop at once, the database truncated.
    static let repetitions = 50

    private static func fiftyAccounts(_ round: Int) -> [[String: Any]] {
        (0..<50).map { ["localId": "uid-\(round)-\($0)", "email": "user\($0)@example.com"] }
    }

    /// The name, size and contents of every file under `directory` but the signing keys, which a
    /// thread of the first backend may still be writing.
    private static func files(under directory: URL) throws -> [String: Data] {
        var found: [String: Data] = [:]
        for name in try FileManager.default.subpathsOfDirectory(atPath: directory.path) where !name.hasPrefix("keys") {
            var isDirectory: ObjCBool = false
            let path = directory.appendingPathComponent(name).path
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else { continue }
            found[name] = FileManager.default.contents(atPath: path) ?? Data()
        }
        return found
    }

    @Test func anEmptiedDatabaseAfterAnImportIsRefusedEveryTime() async throws {
        var refused = 0
        for round in 0..<Self.repetitions {
            let harness = try Harness()
            defer { harness.remove() }
            let imported = try await harness.adminCall("/accounts:batchCreate", ["users": Self.fiftyAccounts(round)], as: UploadAccountResponse.self)
            #expect(imported.error ?? [] == [])
            try harness.backend.close()
            let path = harness.directory.appendingPathComponent("identity.sqlite").path
            #expect(truncate(path, 0) == 0)
            let before = try Self.files(under: harness.directory)
            do {
                _ = try harness.reopened()
            } catch let error as EmbeddedBackendError {
                #expect(error == .emptiedDatabase(path))
                refused += 1
            }
            #expect(try Self.files(under: harness.directory) == before, "round \(round): every file is left as it was")
        }
        #expect(refused == Self.repetitions)
    }

    @Test func aMissingDatabaseThatCompletedItsFirstStartIsRefusedAndNothingIsMade() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        _ = try await harness.adminCall("/accounts:batchCreate", ["users": Self.fiftyAccounts(0)], as: UploadAccountResponse.self)
        try harness.backend.close()
        let path = harness.directory.appendingPathComponent("identity.sqlite").path
        try FileManager.default.removeItem(atPath: path)
        #expect(throws: EmbeddedBackendError.missingDatabase(path)) { _ = try harness.reopened() }
        #expect(!FileManager.default.fileExists(atPath: path))
        #expect(EmbeddedBackend.exists(in: harness.directory), "the directory still reads as a backend's, so that the refusal is told")
    }

    /// A project of a served backend, under `projects/<id>/`, the same way.
    @Test func anEmptiedProjectDatabaseIsRefusedEveryTime() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        var answered: [Int] = []
        for round in 0..<Self.repetitions {
            let id = "room-\(round)-alpha"
            let projects = BackendProjects(defaultProject: harness.backend, dataDirectory: harness.directory)
            let path = "/identitytoolkit.googleapis.com/v1/projects/\(id)/accounts:batchCreate"
            let body = try JSONSerialization.data(withJSONObject: ["users": Self.fiftyAccounts(round)])
            let imported = await projects.handle(WireRequest(path: path, headers: Harness.ownerHeaders, body: body))
            #expect(imported.status == 200)
            projects.closeOtherProjects()
            let database = projects.projectDirectory(id).appendingPathComponent("identity.sqlite").path
            #expect(truncate(database, 0) == 0)
            let before = try Self.files(under: projects.projectDirectory(id))

            let again = BackendProjects(defaultProject: harness.backend, dataDirectory: harness.directory)
            #expect(throws: EmbeddedBackendError.emptiedDatabase(database)) { _ = try again.project(id) }
            let signUp = await again.handle(WireRequest(path: "/identitytoolkit.googleapis.com/v1/projects/\(id)/accounts:signUp",
                                                        headers: ["x-goog-api-key": "k"], body: Data(#"{"email":"new@example.com"}"#.utf8)))
            answered.append(signUp.status)
            #expect(try Self.files(under: projects.projectDirectory(id)) == before, "round \(round): every file is left as it was")
        }
        #expect(answered == Array(repeating: 503, count: Self.repetitions))
    }

    /// A kill before the first commit leaves an empty file (or none) and no marker: that start is made again.
    @Test func anInterruptedFirstStartStartsAgain() async throws {
        for leftBehind in [Data?.some(Data()), nil] {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("authdeck-emu-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: directory) }
            try FileManager.default.createDirectory(at: directory.appendingPathComponent("keys"), withIntermediateDirectories: true)
            let database = directory.appendingPathComponent("identity.sqlite").path
            if let leftBehind { #expect(FileManager.default.createFile(atPath: database, contents: leftBehind)) }
            let harness = try Harness(directory: directory)
            #expect(FirstStartMarker.exists(forDatabaseAt: database))
            _ = try await harness.signUp("first@example.com")
        }
    }

    /// A database from before the marker (or one whose start stopped between its commit and the
    /// marker) holds data: it opens, and is marked from then on.
    @Test func aDatabaseWithoutItsMarkerIsMarkedAtItsNextStart() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        _ = try await harness.signUp("ada@example.com")
        try harness.backend.close()
        let database = harness.directory.appendingPathComponent("identity.sqlite").path
        #expect(unlink(FirstStartMarker.path(forDatabaseAt: database)) == 0)
        let reopened = try harness.reopened()
        #expect(FirstStartMarker.exists(forDatabaseAt: database))
        _ = try await reopened.signIn("ada@example.com")
    }

    /// The presenter's reset empties a project on purpose: it is made anew at its next request.
    @Test func anEmptiedProjectIsMadeAnew() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        let projects = BackendProjects(defaultProject: harness.backend, dataDirectory: harness.directory)
        _ = try projects.project("room-alpha")
        try projects.emptyProject("room-alpha")
        #expect(try projects.project("room-alpha").accountCount() == 0)
    }
}
