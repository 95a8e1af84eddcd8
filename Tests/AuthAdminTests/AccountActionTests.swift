import AuthAdmin
import Foundation
import IdentityTestSupport
import Testing

@Suite(.timeLimit(.minutes(3)))
struct AccountActionTests {
    @Test(arguments: BackendTransport.allCases)
    func bulkActionsReportPerAccountAndAreAudited(_ transport: BackendTransport) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("authdeck-audit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let audit = AuditLog(path: directory.appendingPathComponent("audit.jsonl").path)
        try await withAdmin(transport) { admin, _ in
            for index in 0..<3 { _ = try await admin.createUser(uid: "u-\(index)", email: "u\(index)@example.com") }
            let disabled = try await admin.perform(.disable, on: ["u-0", "u-1", "ghost"], audit: audit, operator: "ops")
            #expect(disabled.succeeded == ["u-0", "u-1"])
            #expect(disabled.failed.keys.sorted() == ["ghost"])
            #expect(try await admin.user(uid: "u-1").disabled)

            await #expect(throws: AuthAdminError.invalidClaims("reserved claim iss")) {
                _ = try await admin.perform(.setCustomClaims(#"{"iss": "me"}"#), on: ["u-2"], audit: audit, operator: "ops")
            }
            let deleted = try await admin.perform(.delete, on: ["u-0", "u-1"], audit: audit, operator: "ops")
            #expect(deleted.failed.isEmpty)
            #expect(try await admin.page(filter: .none, sort: AccountSort(), offset: 0, limit: 10).users.map(\.uid) == ["u-2"])
        }
        let entries = try await audit.entries()
        #expect(entries.map(\.action) == ["delete", "disable"])
        #expect(entries[1].uids == ["u-0", "u-1", "ghost"])
        #expect(entries[1].failed == 1)
        #expect(entries.allSatisfy { $0.operator == "ops" })
        let mode = try FileManager.default.attributesOfItem(atPath: audit.path)[.posixPermissions] as? NSNumber
        #expect(mode?.intValue == 0o600)
    }
}
