import AuthAdmin
import Foundation
import IdentityEmulator
import IdentityTestSupport
import IdentityToolkit
import Synchronization
import Testing

// Generous: in the whole parallel suite these wait behind scrypt-heavy tests for the cooperative pool.
@Suite(.timeLimit(.minutes(5)))
struct AccountFileTests {
    private func temporaryDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("authdeck-files-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    @Test func csvHasFirebasesColumnsAndReadsBack() throws {
        let user = ExportedUser(
            localId: "u-1", email: "a@example.com", emailVerified: true, passwordHash: "aGFzaA+/", salt: "c2FsdA==",
            displayName: "Smith, \"Al\"", photoUrl: "https://p/x.png", lastSignedInAt: "1700000000000", createdAt: "1600000000000",
            phoneNumber: "+15555550100", disabled: false, customAttributes: #"{"role":"a,b"}"#,
            providerUserInfo: [.init(providerId: "github.com", rawId: "gh-1", email: "a@gh", displayName: "Al", photoUrl: nil)])
        let line = try AccountFileWriter.record(user, format: .csv, first: true)
        let rows = AccountFileReader.csvRows(line)
        #expect(rows.count == 1)
        let fields = rows[0].fields
        #expect(fields.count == 28)
        #expect(fields[0] == "u-1" && fields[3] == "aGFzaA+/" && fields[5] == "Smith, \"Al\"")
        #expect(fields[19] == "gh-1" && fields[20] == "a@gh")
        #expect(fields[23] == "1600000000000" && fields[24] == "1700000000000" && fields[25] == "+15555550100" && fields[26] == "false")
        #expect(line.hasSuffix(",\n"))
        let read = AccountFileReader.read(Data(line.utf8), format: .csv)
        #expect(read.problems.isEmpty)
        #expect(read.users.map(\.user) == [user])
    }

    @Test func jsonUsesFirebasesKeys() throws {
        let user = ExportedUser(localId: "u-1", email: "a@example.com", emailVerified: false, lastSignedInAt: "5", createdAt: "4")
        let text = AccountFileWriter.header(.json) + (try AccountFileWriter.record(user, format: .json, first: true))
            + (try AccountFileWriter.record(ExportedUser(localId: "u-2"), format: .json, first: false)) + AccountFileWriter.footer(.json)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: [[String: Any]]])
        let first = try #require(object["users"]?.first)
        #expect(first["lastSignedInAt"] as? String == "5")
        #expect(first["lastLoginAt"] == nil)
        #expect(first["localId"] as? String == "u-1")
        let read = AccountFileReader.read(Data(text.utf8), format: .json)
        #expect(read.users.map(\.user.localId) == ["u-1", "u-2"])
        #expect(read.users.map(\.line) == [2, 3])
    }

    @Test func badRecordsAreNamedWithTheirLines() {
        let json = """
            {"users": [
              {"localId": "a", "email": "x@example.com"},
              {"localId": "b", "email": "X@example.com"},
              {"localId": "a"},
              {"email": "no-id@example.com"},
              {"localId": "c", "passwordHash": "***"},
              {"localId": "d", "customAttributes": "{\\"sub\\": 1}"},
              {"localId": "e", "disabled": "maybe"}
            ]}
            """
        let read = AccountFileReader.read(Data(json.utf8), format: .json)
        #expect(read.problems.map(\.description) == [
            "line 3 (b): duplicate email x@example.com (also on line 2)",
            "line 4 (a): duplicate uid (also on line 2)",
            "line 5: localId is missing",
            "line 6 (c): passwordHash is not base64",
            "line 7 (d): custom claims refused: reserved claim sub",
            "line 8: disabled has the wrong type",
        ])
        let csv = "a,x@example.com,true,,,,,,,,,,,,,,,,,,,,,1,2,,false,,\nb,short\nc,,perhaps,,,,,,,,,,,,,,,,,,,,,yesterday,,,false,,\n"
        #expect(AccountFileReader.read(Data(csv.utf8), format: .csv).problems.map(\.description) == [
            "line 2 (b): 2 columns, expected 28 (firebase auth:export's CSV)",
            "line 3 (c): email verified is 'perhaps', not true or false",
            "line 3 (c): 'yesterday' is not a time in milliseconds",
        ])
        #expect(AccountFileReader.read(Data("[1,2]".utf8), format: .json).problems.map(\.description) == [
            "line 1: not a JSON file with a \"users\" list",
        ])
    }

    @Test(arguments: BackendTransport.allCases, AccountFileFormat.allCases)
    func anExportImportsElsewhereAndItsUsersSignIn(_ transport: BackendTransport, _ format: AccountFileFormat) async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("users.\(format.rawValue)").path
        let (hash, count) = try await withAdmin(transport) { admin, _ in
            for index in 0..<8 {
                _ = try await admin.createUser(uid: "u-\(index)", email: "user\(index)@example.com", password: "password-\(index)",
                                               displayName: index == 3 ? "Comma, Name" : nil)
            }
            _ = try await admin.createUser(uid: "anon-1")
            let progress = ProgressRecord()
            let summary = try await admin.export(to: file, format: format) { progress.set($0) }
            #expect(progress.value == 9)
            #expect(summary.leftOutNote == nil)
            return (try await admin.passwordHashParameters(), summary.count)
        }
        #expect(count == 9)
        let attributes = try FileManager.default.attributesOfItem(atPath: file)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["users.\(format.rawValue)"])

        try await withAdmin(transport) { admin, served in
            let read = AccountFileReader.read(try Data(contentsOf: URL(fileURLWithPath: file)), format: format)
            #expect(read.problems.isEmpty)
            // Standard, padded base64, as firebase auth:export writes it.
            #expect(read.users.filter { $0.user.passwordHash.flatMap { Data(base64Encoded: $0) } != nil }.count == 8)
            #expect(read.users.filter { $0.user.salt.flatMap { Data(base64Encoded: $0) } != nil }.count == 8)
            #expect(try await admin.importUsers(read.users, hash: hash).isEmpty)
            #expect(try await admin.page(filter: .none, sort: AccountSort(), offset: 0, limit: 50).totalCount == 9)
            #expect(try await admin.user(uid: "u-3").displayName == "Comma, Name")
            let client = served.makeTransport()
            let signedIn = try await client.call(SignInWithPasswordRequest(email: "user7@example.com", password: "password-7"))
            #expect(signedIn.localId == "u-7")
        }
    }

    /// Firebase's formats carry passwords, phone numbers and Google, Facebook, Twitter and GitHub
    /// sign-ins: what else an account has is counted and named, not dropped without a word.
    @Test func anExportNamesWhatTheFormatHasNoPlaceFor() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("users.json").path
        let summary = try await withAdmin(.inProcess) { admin, served in
            let federated = ExportedUser(localId: "u-apple", email: "apple@example.com", providerUserInfo: [
                .init(providerId: "apple.com", rawId: "apple-1"), .init(providerId: "google.com", rawId: "google-1"),
            ])
            #expect(try await admin.importUsers([(line: 1, user: federated)], hash: nil).isEmpty)
            _ = try await admin.createUser(uid: "u-dan", email: "dan@example.com", password: "secret-dan", emailVerified: true)
            let update = AdminUpdateRequest(projectId: admin.projectId, localId: "u-dan",
                                            mfa: .init(enrollments: [AdminMfaEnrollment(mfaEnrollmentId: "factor-work", displayName: "work",
                                                                                        phoneInfo: "+15555550999")]))
            _ = try await served.makeAdministratorTransport().call(update)
            _ = try await admin.createUser(uid: "u-cat", phoneNumber: "+15555550123")
            return try await admin.export(to: file, format: .json)
        }
        #expect(summary.count == 3)
        #expect(summary.providersLeftOut == ["apple.com": 1])
        #expect(summary.secondFactorsLeftOut == 1)
        #expect(summary.leftOutNote == "Not in the file, which Firebase's format has no place for: apple.com sign-ins of 1 account, "
            + "the second factors of 1 account. Accounts imported from it come without them.")
        let read = AccountFileReader.read(try Data(contentsOf: URL(fileURLWithPath: file)), format: .json)
        #expect(read.users.first { $0.user.localId == "u-apple" }?.user.providerUserInfo?.map(\.providerId) == ["google.com"])
    }

    /// An export to the name of an earlier one replaces it (Foundation's replaceItemAt on Linux deletes it and fails).
    @Test func anExportReplacesAnEarlierOneOfTheSameName() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("users.json").path
        try await withAdmin(.inProcess) { admin, _ in
            _ = try await admin.createUser(uid: "first")
            #expect(try await admin.export(to: file, format: .json).count == 1)
            _ = try await admin.createUser(uid: "second")
            #expect(try await admin.export(to: file, format: .json).count == 2)
            #expect(try await admin.export(to: file, format: .json).count == 2)
        }
        let read = AccountFileReader.read(try Data(contentsOf: URL(fileURLWithPath: file)), format: .json)
        #expect(read.users.map(\.user.localId).sorted() == ["first", "second"])
        let attributes = try FileManager.default.attributesOfItem(atPath: file)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["users.json"])
    }

    @Test(arguments: BackendTransport.allCases)
    func anImportTheBackendRefusesInPartLeavesNothing(_ transport: BackendTransport) async throws {
        try await withAdmin(transport) { admin, _ in
            _ = try await admin.createUser(uid: "taken", email: "taken@example.com")
            // Past the first batch of 1000, so that undoing reaches an earlier call's accounts.
            let users = (0..<1001).map { (line: $0 + 2, user: ExportedUser(localId: "new-\($0)", email: "new\($0)@example.com")) }
                + [(line: 1003, user: ExportedUser(localId: "late", email: "taken@example.com"))]
            let refused = try await admin.importUsers(users, hash: nil)
            #expect(refused == [AccountFileProblem(line: 1003, uid: "late", reason: "email exists in other account in database")])
            #expect(try await admin.page(filter: .none, sort: AccountSort(), offset: 0, limit: 10).totalCount == 1)

            let kept = try await admin.importUsers(users, hash: nil, keepAccepted: true)
            #expect(kept.count == 1)
            #expect(try await admin.page(filter: .none, sort: AccountSort(), offset: 0, limit: 10).totalCount == 1002)
        }
    }

    @Test(arguments: BackendTransport.allCases)
    func anonymousCleanUpDeletesOnlyOldAnonymousAccounts(_ transport: BackendTransport) async throws {
        let clock = MovableClock()
        try await withAdmin(transport, clock: clock) { admin, _ in
            let day: Double = 86_400_000
            let now = clock.now.timeIntervalSince1970 * 1000
            let users = (0..<30).map { index in
                (line: index + 2, user: ExportedUser(localId: "anon-\(index)", createdAt: String(Int64(now - Double(index * 2) * day))))
            } + [(line: 40, user: ExportedUser(localId: "old-named", email: "old@example.com", createdAt: String(Int64(now - 90 * day))))]
            #expect(try await admin.importUsers(users, hash: nil).isEmpty)
            let old = try await admin.uids(matching: AccountFilter(anonymousOlderThanDays: 30))
            #expect(old.count == 14)
            #expect(try await admin.delete(uids: old).isEmpty)
            #expect(try await admin.page(filter: AccountFilter(anonymous: true), sort: AccountSort(), offset: 0, limit: 50).totalCount == 16)
            #expect(try await admin.user(uid: "old-named").email == "old@example.com")
        }
    }
}

/// The last progress figure reported.
final class ProgressRecord: Sendable {
    private let stored = Mutex(0)
    var value: Int { stored.withLock { $0 } }
    func set(_ value: Int) { stored.withLock { $0 = value } }
}
