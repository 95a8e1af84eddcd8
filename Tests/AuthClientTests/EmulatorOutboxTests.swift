@testable import AuthClient
import Foundation
import IdentityEmulator
import IdentityTestSupport
import IdentityToolkit
import Testing

@Suite("The emulator's outbox: another project, an administrators-only server", .timeLimit(.minutes(5)))
struct EmulatorOutboxTests {
    @Test(arguments: BackendTransport.allCases)
    func anOutboxAskedForAnotherProjectFollowsTheServerToItsOwn(_ transport: BackendTransport) async throws {
        try await withHarness(transport, EmbeddedBackendConfiguration(projectId: "demo-x")) { harness in
            let auth = harness.auth()
            try await auth.sendSignInLink(toEmail: "served@example.com")
            let outbox = AuthEmulatorOutbox(backend: harness.served.makeTransport(), projectId: "authdeck-local")
            let emails = try await outbox.emails()
            #expect(emails.map(\.to) == ["served@example.com"])
            #expect(emails.map(\.action) == [.signIn])
            #expect(outbox.projectId == "demo-x")
            #expect(try await outbox.texts() == [])
        }
    }

    @Test(arguments: BackendTransport.allCases)
    func aServerWithAnAdminTokenSaysItsOutboxIsForAdministrators(_ transport: BackendTransport) async throws {
        try await withHarness(transport, EmbeddedBackendConfiguration(adminToken: "0123456789abcdef-admin")) { harness in
            let outbox = AuthEmulatorOutbox(backend: harness.served.makeTransport(), projectId: harness.served.backend.projectId)
            do {
                _ = try await outbox.emails()
                Issue.record("read an administrators-only outbox without the token")
            } catch let failure as AuthEmulatorOutbox.ReadFailure {
                #expect(failure.reason == .administratorsOnly)
            }
        }
    }

    @Test func aMissingProjectIsNamedInTheFailure() {
        let missing = AuthEmulatorOutbox.failure(IdentityToolkitError.server(status: 404, message: "PROJECT_NOT_FOUND"), project: "demo-y")
        #expect(missing.reason == .unknownProject("demo-y"))
        let unreachable = AuthEmulatorOutbox.failure(IdentityToolkitError.network("connection refused"), project: "demo-y")
        #expect(unreachable.reason == .failed)
        #expect(unreachable.error.code == .networkError)
        #expect(AuthEmulatorOutbox.servedProject(in: "Multiple projectIds are not recommended in single project mode. Requested project ID a, but the emulator is configured for demo-x.") == "demo-x")
    }
}
