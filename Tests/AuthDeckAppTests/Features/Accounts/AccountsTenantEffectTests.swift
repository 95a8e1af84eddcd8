import AppData
@testable import AuthDeckApp
import AuthAdmin
import AuthClient
import Foundation
import IdentityTestSupport
import Logging
import Testing

/// The accounts view's tenants as the runner performs them, over HTTP against `authdeck serve`: the
/// tenants listed and counted, and once one is chosen every call in it, until the project is chosen again.
@Suite("Accounts tenant effects against authdeck serve")
struct AccountsTenantEffectTests {
    @Test(.timeLimit(.minutes(3)))
    func aChosenTenantsPagesCountsDetailsActionsAndLockoutsAreItsOwn() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("authdeck-tenant-effects-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try await withTestBackend(.http) { served in
            let project = served.backend.projectId
            let admin = AccountAdmin(backend: served.makeAdministratorTransport(), projectId: project, capability: .authdeck)
            let audit = AuditLog(path: directory.appendingPathComponent("audit-log.jsonl").path)
            let runner = EffectRunner(auth: Auth(backend: served.makeTransport()), cart: try CartStore(),
                                      accounts: AccountsConnection(admin: admin, operatorName: "ops", audit: audit),
                                      logger: Logger(label: "test"), send: { _ in })
            #expect(await runner.perform(.loadTenants) == .tenantsLoaded(TenantListing(projectId: project, tenants: [])))

            // serve makes the tenant an administrator's request names, as the emulator does.
            let team = admin.inTenant("team-a")
            let ada = try await team.createUser(email: "ada@example.com", password: "correct horse")
            _ = try await team.createUser(email: "bob@example.com", password: "correct horse")
            let own = try await admin.createUser(email: "ada@example.com", password: "correct horse")
            let listing = TenantListing(projectId: project, tenants: [TenantSummary(id: "team-a", accounts: 2)])
            #expect(await runner.perform(.loadTenants) == .tenantsLoaded(listing))

            let tenant = listing.tenants[0]
            #expect(await runner.perform(.selectProject(project, tenant: tenant)) == .projectSelected(project, tenant: tenant))
            let query = AccountsQuery(filter: AccountFilter(), sort: AccountSort(field: .email, descending: false), offset: 0, limit: 100,
                                      project: project, tenant: tenant.id)
            #expect(try await runner.perform(.loadPage(query))?.page(for: query)?.users.map(\.email) == ["ada@example.com", "bob@example.com"])
            #expect(try await runner.perform(.countMatches(AccountFilter(text: "ada")))?.count(for: AccountFilter(text: "ada")) == 1)
            guard case let .detailLoaded(_, .success(detail))? = await runner.perform(.loadDetail(uid: ada)) else {
                Issue.record("no detail of the tenant's account")
                return
            }
            #expect(detail.user.uid == ada && detail.lockout?.isLocked == false)
            guard case let .actionFinished(.success(disabled))? = await runner.perform(.perform(.disable, uids: [ada])) else {
                Issue.record("not disabled")
                return
            }
            #expect(disabled.succeeded == [ada])
            #expect(try await team.user(uid: ada).disabled)
            #expect(try await admin.user(uid: own).disabled == false)
            guard case let .matchingFound(.mark, .success(marked))? = await runner.perform(.findMatching(AccountFilter(text: "ada"), purpose: .mark)) else {
                Issue.record("no matches")
                return
            }
            #expect(marked == [ada])

            // Wrong passwords in the tenant lock its address there; the view reads and lifts the tenant's.
            let client = Auth(backend: served.makeTransport(), tenantID: tenant.id)
            for _ in 0..<5 { _ = try? await client.signIn(email: "bob@example.com", password: "wrong") }
            let locked = try #require(try await runner.perform(.loadPage(query))?.page(for: query)?.lockouts)
            #expect(locked.map(\.email) == ["bob@example.com"])
            #expect(await runner.perform(.clearLockouts(locked, all: false)) == .lockoutsCleared(.success(1)))
            #expect(try await team.passwordLockouts().isEmpty)
            #expect(try await audit.entries().map(\.tenant) == ["team-a", "team-a"])

            // The project's row leads back to its own accounts.
            #expect(await runner.perform(.selectProject(project)) == .projectSelected(project))
            let projectsOwn = AccountsQuery(filter: AccountFilter(), sort: AccountSort(), offset: 0, limit: 100, project: project)
            #expect(try await runner.perform(.loadPage(projectsOwn))?.page(for: projectsOwn)?.users.map(\.uid) == [own])
            #expect(try await runner.perform(.countMatches(AccountFilter()))?.count(for: AccountFilter()) == 1)
        }
    }
}
