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

    @Test func anAdministratorReadsEveryProjectsMessagesInSendingOrderAndAVisitorOnlyTheirOwn() async throws {
        let adminToken = "0123456789abcdef-admin"
        try await withTestBackend(.http, configuration: EmbeddedBackendConfiguration(adminToken: adminToken)) { served in
            let projects = try #require(served.projects)
            let address = try #require(served.emulatorAddress)
            try await Auth(backend: served.makeTransport()).sendSignInLink(toEmail: "own@example.com")
            for id in ["room-alpha", "room-bravo"] {
                let transport = HTTPTransport(target: .emulator(address), apiKey: try projects.project(id).apiKey())
                try await Auth(backend: transport).sendSignInLink(toEmail: "same@example.com")
                try await transport.shutdown()
            }
            let own = served.backend.projectId
            let administrator = served.makeAdministratorTransport(StaticAdministratorCredential(token: adminToken))
            let everyProject = AuthEmulatorOutbox(backend: administrator, projectId: own, reach: .everyProject)
            let all = try await everyProject.messages()
            #expect(all.emails.count == 3)
            #expect(Set(all.emails.map { "\($0.project) \($0.to)" }) == ["\(own) own@example.com", "room-alpha same@example.com", "room-bravo same@example.com"])
            let times = all.emails.compactMap(\.sentAt)
            #expect(times.count == 3 && times == times.sorted())

            // A visitor's project key, even asking for every project, reads its own project's outbox only.
            let visitorTransport = HTTPTransport(target: .emulator(address), apiKey: try projects.project("room-alpha").apiKey())
            let visitor = AuthEmulatorOutbox(backend: visitorTransport, projectId: "room-alpha", reach: .everyProject)
            #expect(try await visitor.messages().emails.map(\.project) == ["room-alpha"])
            try await visitorTransport.shutdown()
        }
    }

    @Test(arguments: BackendTransport.allCases)
    func aChangeOfEmailGoesToTheNewAddressAndNamesTheAccountsCurrentOne(_ transport: BackendTransport) async throws {
        try await withHarness(transport) { harness in
            let auth = harness.auth()
            _ = try await auth.createUser(email: "current@example.com", password: "hunter22")
            try await auth.verifyBeforeUpdateEmail(to: "next@example.com")
            let outbox = AuthEmulatorOutbox(backend: harness.served.makeTransport(), projectId: harness.served.backend.projectId)
            let change = try #require(try await outbox.emails().last)
            #expect(change.action == .verifyAndChangeEmail)
            #expect(change.to == "next@example.com")
            #expect(change.account == "current@example.com")
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
