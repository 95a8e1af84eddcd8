import AuthAdmin
import Foundation
import IdentityEmulator
import IdentityTestSupport
import IdentityToolkit
import Testing

@Suite(.timeLimit(.minutes(3)))
struct ProjectSummaryTests {
    @Test func aServedBackendListsItsProjectsWithTheirOwnersAndEachIsAdministeredApart() async throws {
        try await withTestBackend(.http) { served in
            let projects = try #require(served.projects)
            let admin = AccountAdmin(backend: served.makeAdministratorTransport(), projectId: served.backend.projectId, capability: .authdeck)
            _ = try await admin.createUser(email: "own@example.com", password: "hunter22")
            let alpha = admin.inProject("room-alpha"), bravo = admin.inProject("room-bravo")
            let alphaUid = try await alpha.createUser(email: "same@example.com", password: "hunter22")
            _ = try await bravo.createUser(email: "same@example.com", password: "hunter22")
            _ = try await bravo.createUser(phoneNumber: "+15555550101")
            let seen = Date(timeIntervalSince1970: 1_800_000_000)
            try projects.setOwner(ProjectOwner(key: "SHA256:abc", address: "10.0.0.7", createdAt: seen, lastSeen: seen, name: "ada"), of: "room-alpha")

            let listed = try await admin.projects()
            #expect(listed.map(\.id) == [served.backend.projectId, "room-alpha", "room-bravo"])
            #expect(listed.map(\.accounts) == [1, 1, 2])
            #expect(listed[1].owner == .init(key: "SHA256:abc", name: "ada", address: "10.0.0.7", lastSeen: seen, leftAt: nil))
            #expect(listed[0].owner == nil && listed[2].owner == nil)

            let page = try await alpha.page(filter: .none, sort: AccountSort(), offset: 0, limit: 10)
            #expect(page.users.map(\.uid) == [alphaUid])
            // On loopback it is open, as the emulator's own endpoints are.
            #expect(try await served.makeTransport().call(ListProjectsRequest()).projects.count == 3)
        }
    }

    @Test func everyProjectsAccountsArePagedTogetherWithTheirProjects() async throws {
        try await withTestBackend(.http) { served in
            let admin = AccountAdmin(backend: served.makeAdministratorTransport(), projectId: served.backend.projectId, capability: .authdeck)
            let own = served.backend.projectId
            _ = try await admin.createUser(email: "carol@example.com", password: "hunter22")
            _ = try await admin.inProject("room-alpha").createUser(email: "alice@example.com", password: "hunter22")
            let bravo = admin.inProject("room-bravo")
            _ = try await bravo.createUser(email: "bob@example.com", password: "hunter22")
            _ = try await bravo.createUser(phoneNumber: "+15555550101")

            let byEmail = AccountSort(field: .email, descending: false)
            let all = try await admin.rowsInEveryProject(filter: .none, sort: byEmail, offset: 0, limit: 10)
            #expect(all.users.map(\.email) == [nil, "alice@example.com", "bob@example.com", "carol@example.com"])
            #expect(all.projects == ["room-bravo", "room-alpha", "room-bravo", own])
            #expect(all.totalCount == 4)

            let second = try await admin.rowsInEveryProject(filter: .none, sort: byEmail, offset: 2, limit: 1)
            #expect(second.users.map(\.email) == ["bob@example.com"] && second.projects == ["room-bravo"] && second.offset == 2)

            let filtered = try await admin.rowsInEveryProject(filter: AccountFilter(text: "alice"), sort: AccountSort(field: .email, descending: true), offset: 0, limit: 10)
            #expect(filtered.users.map(\.email) == ["alice@example.com"] && filtered.projects == ["room-alpha"] && filtered.totalCount == 1)
        }
    }

    @Test func aSharedServersListingNeedsTheAdminToken() async throws {
        var configuration = EmbeddedBackendConfiguration()
        configuration.adminToken = "s3cret-admin-token-0123"
        try await withTestBackend(.http, configuration: configuration) { served in
            let admin = AccountAdmin(backend: served.makeAdministratorTransport(StaticAdministratorCredential(token: "s3cret-admin-token-0123")),
                                     projectId: served.backend.projectId, capability: .authdeck)
            let listed = try await admin.projects()
            #expect(listed.map(\.id) == [served.backend.projectId])
            let wrong = AccountAdmin(backend: served.makeAdministratorTransport(StaticAdministratorCredential.owner), projectId: served.backend.projectId, capability: .authdeck)
            await #expect(throws: AuthAdminError.self) { try await wrong.projects() }
            await #expect(throws: (any Error).self) { try await served.makeTransport().call(ListProjectsRequest()) }
        }
    }
}
