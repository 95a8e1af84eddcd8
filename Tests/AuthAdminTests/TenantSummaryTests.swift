import AuthAdmin
import Foundation
import IdentityEmulator
import IdentityTestSupport
import IdentityToolkit
import Testing

/// A project's tenants as the operator's list reads them from `authdeck serve`, and each tenant's
/// accounts and lock-outs administered apart from the project's.
@Suite(.timeLimit(.minutes(3)))
struct TenantSummaryTests {
    /// `POST /v2/projects/{p}/tenants`, as the Admin SDK's `tenant_mgt.create_tenant` sends it.
    struct CreateTenant: AdministratorRequest {
        struct Created: Decodable, Sendable { var name: String }
        typealias Response = Created
        static let projectMethod = "/tenants"
        static var endpoint: Endpoint { .v2("projects/{projectId}/tenants") }
        var projectId: String
        var displayName: String?
        var allowPasswordSignup = true
        var resolvedEndpoint: Endpoint { .v2("projects/\(projectId)/tenants") }
        enum CodingKeys: String, CodingKey { case displayName, allowPasswordSignup }
    }

    static func makeTenant(_ backend: any IdentityBackend, project: String, displayName: String?) async throws -> String {
        let created = try await backend.call(CreateTenant(projectId: project, displayName: displayName))
        return String(created.name.split(separator: "/").last ?? "")
    }

    @Test func aProjectsTenantsAreListedCountedAndAdministeredApartLockoutsIncluded() async throws {
        try await withTestBackend(.http) { served in
            let administrator = served.makeAdministratorTransport()
            let project = served.backend.projectId
            let admin = AccountAdmin(backend: administrator, projectId: project, capability: .authdeck)
            #expect(await admin.tenants() == TenantListing(projectId: project, tenants: []))

            let teamA = try await Self.makeTenant(administrator, project: project, displayName: "Team A")
            let plain = try await Self.makeTenant(administrator, project: project, displayName: nil)
            let inA = admin.inTenant(teamA)
            _ = try await inA.createUser(email: "ada@example.com", password: "correct horse")
            _ = try await inA.createUser(email: "bob@example.com", password: "correct horse")
            _ = try await admin.createUser(email: "own@example.com", password: "correct horse")

            let listed = await admin.tenants()
            #expect(listed.unavailable == nil && listed.projectId == project)
            #expect(Set(listed.tenants.map(\.id)) == [teamA, plain])
            #expect(listed.tenants.first { $0.id == teamA } == TenantSummary(id: teamA, displayName: "Team A", accounts: 2))
            #expect(listed.tenants.first { $0.id == plain } == TenantSummary(id: plain, displayName: nil, accounts: 0))
            // The listing is the project's, whichever tenant the administration is of.
            #expect(await inA.tenants() == listed)
            #expect(try await inA.page(filter: .none, sort: AccountSort(field: .email, descending: false), offset: 0, limit: 10).users.map(\.email)
                    == ["ada@example.com", "bob@example.com"])
            #expect(try await admin.count(matching: .none) == 1)
            #expect(try await admin.inTenant(nil).count(matching: .none) == 1)
            await #expect(throws: AuthAdminError.backend(status: 404, message: "this backend does not show a tenant's password-hash parameters")) {
                try await inA.passwordHashParameters()
            }

            // Wrong passwords lock the tenant's address, not the project's; the tenant's lift is its own and audited as its.
            let client = served.makeTransport()
            for _ in 0..<5 {
                _ = try? await client.call(TenantScopedRequest(SignInWithPasswordRequest(email: "ada@example.com", password: "wrong"), tenantId: teamA))
            }
            #expect(try await inA.passwordLockouts().map(\.email) == ["ada@example.com"])
            #expect(try await inA.passwordLockout(email: "ada@example.com")?.isLocked == true)
            #expect(try await admin.passwordLockouts().isEmpty)
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("authdeck-tenant-audit-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            let audit = AuditLog(path: directory.appendingPathComponent("audit-log.jsonl").path)
            #expect(try await inA.clearPasswordLockouts(nil, audit: audit, operator: "ops") == ["ada@example.com"])
            #expect(try await inA.passwordLockouts().isEmpty)
            let outcome = try await inA.perform(.disable, on: [try await inA.uids(matching: AccountFilter(text: "bob")).first ?? ""], audit: audit, operator: "ops")
            #expect(outcome.failed.isEmpty)
            let entries = try await audit.entries()
            #expect(entries.map(\.tenant) == [teamA, teamA] && entries.map(\.project) == [project, project])
        }
    }

    @Test func everyPageOfTenantsIsReadAndSoManyAreNotCounted() async throws {
        try await withTestBackend(.http) { served in
            let administrator = served.makeAdministratorTransport()
            let project = served.backend.projectId
            // One more than the largest page the listing asks for.
            let total = ListTenantsRequest.pageSize + 1
            try await withThrowingTaskGroup(of: Void.self) { group in
                for start in stride(from: 0, to: total, by: total / 8 + 1) {
                    group.addTask {
                        for index in start..<min(start + total / 8 + 1, total) {
                            _ = try await Self.makeTenant(administrator, project: project, displayName: "Room \(index)")
                        }
                    }
                }
                try await group.waitForAll()
            }
            let listed = await AccountAdmin(backend: administrator, projectId: project, capability: .authdeck).tenants()
            #expect(listed.unavailable == nil)
            #expect(listed.tenants.count == total)
            #expect(Set(listed.tenants.compactMap(\.displayName)).count == total)
            #expect(listed.tenants.allSatisfy { $0.accounts == nil })
        }
    }

    @Test func aServeThatKeepsItsTenantsFromTheCredentialSaysSoInTheListing() async throws {
        var configuration = EmbeddedBackendConfiguration()
        configuration.adminToken = "s3cret-admin-token-0123"
        try await withTestBackend(.http, configuration: configuration) { served in
            let wrong = AccountAdmin(backend: served.makeAdministratorTransport(StaticAdministratorCredential.owner),
                                     projectId: served.backend.projectId, capability: .authdeck)
            let listed = await wrong.tenants()
            #expect(listed.tenants.isEmpty)
            #expect(listed.unavailable?.isEmpty == false)
        }
    }
}
