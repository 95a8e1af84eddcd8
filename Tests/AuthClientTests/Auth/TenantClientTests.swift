@testable import AuthClient
import Foundation
import IdentityTestSupport
import IdentityToolkit
import Testing

/// A client with a tenant (`Auth.auth().tenantID`) against the served backend, which routes tenants:
/// its requests name the tenant, its users and tokens are the tenant's, and its saved session is
/// restored in that tenant only.
@Suite("A client within a tenant", .timeLimit(.minutes(2)))
struct TenantClientTests {
    private static func client(_ harness: Harness, tenant: String?, exchanges: ExchangeLog = ExchangeLog(), session: String = "session.json") -> Auth {
        Auth(backend: harness.served.makeTransport(exchanges: exchanges), tenantID: tenant,
             sessionStore: FileSessionStore(url: harness.directory.appendingPathComponent(session)), clock: harness.clock.read)
    }

    @Test func everyRequestNamesTheTenantAndItsAccountsAreApartFromTheProjects() async throws {
        try await withHarness(.http) { harness in
            let exchanges = ExchangeLog()
            let auth = Self.client(harness, tenant: "team-a", exchanges: exchanges)
            let created = try await auth.createUser(email: "same@example.com", password: "secret-1")
            #expect(created.user.tenantID == "team-a")
            #expect(try await auth.idTokenResult().claims["firebase"]?["tenant"]?.stringValue == "team-a")
            try await auth.sendEmailVerification()
            try await auth.updatePassword(to: "secret-2")
            await auth.signOut()
            let signedIn = try await auth.signIn(email: "same@example.com", password: "secret-2")
            #expect(signedIn.user.uid == created.user.uid && signedIn.user.tenantID == "team-a")
            try await auth.sendPasswordReset(withEmail: "same@example.com")
            try await auth.sendSignInLink(toEmail: "same@example.com")

            let calls = await exchanges.entries.filter { $0.path.contains("identitytoolkit.googleapis.com") }
            #expect(Set(calls.map { $0.path.components(separatedBy: "?")[0] }).count >= 5)
            for call in calls {
                let body = try JSONSerialization.jsonObject(with: call.requestBody) as? [String: Any]
                #expect(body?["tenantId"] as? String == "team-a", "\(call.path)")
            }
            // The tenant's outbox holds its messages; the project's does not.
            let outbox = AuthEmulatorOutbox(backend: harness.served.makeAdministratorTransport(), projectId: harness.served.backend.projectId,
                                            tenantId: "team-a")
            #expect(try await outbox.emails().map(\.action) == [.verifyEmail, .resetPassword, .signIn])
            let projectOutbox = AuthEmulatorOutbox(backend: harness.served.makeAdministratorTransport(), projectId: harness.served.backend.projectId)
            #expect(try await projectOutbox.emails().isEmpty)

            // The same address in the project is another account, with another password.
            let project = Self.client(harness, tenant: nil, session: "project.json")
            await expectAuthError(.invalidCredential) { _ = try await project.signIn(email: "same@example.com", password: "secret-2") }
            let own = try await project.createUser(email: "same@example.com", password: "secret-p")
            #expect(own.user.uid != created.user.uid && own.user.tenantID == nil)
            #expect(try await project.idTokenResult().claims["firebase"]?["tenant"] == nil)
        }
    }

    @Test func aSavedSessionIsRestoredInItsOwnTenantOnly() async throws {
        try await withHarness(.http) { harness in
            let user = try await Self.client(harness, tenant: "team-a").createUser(email: "a@example.com", password: "secret-1").user
            #expect(try await Self.client(harness, tenant: "team-b").restoreSession() == nil)
            #expect(try await Self.client(harness, tenant: nil).restoreSession() == nil)
            // Left where it was: the tenant's console still finds it, and its tokens still work there.
            let again = Self.client(harness, tenant: "team-a")
            #expect(try await again.restoreSession()?.uid == user.uid)
            #expect(try await again.reload().tenantID == "team-a")

            _ = try await Self.client(harness, tenant: nil, session: "project.json").createUser(email: "p@example.com", password: "secret-1")
            #expect(try await Self.client(harness, tenant: "team-a", session: "project.json").restoreSession() == nil)
        }
    }
}
