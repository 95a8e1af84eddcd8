import Foundation
import IdentityEmulator
import IdentityTestSupport
import IdentityToolkit
import Testing

/// A console reading the outboxes of an `authdeck serve --admin-token`: the HTTP transport sends
/// the token on the emulator's administrator endpoints and on nothing else.
@Suite("Emulator admin token", .timeLimit(.minutes(3)))
struct EmulatorAdminTokenTests {
    static let adminToken = "s3cret-admin-token-0123"

    @Test func theOutboxesAnswerOnlyWithTheTokenAndClientCallsNeverCarryIt() async throws {
        var configuration = EmbeddedBackendConfiguration()
        configuration.adminToken = Self.adminToken
        try await withTestBackend(.http, configuration: configuration) { served in
            let address = try #require(served.emulatorAddress)
            let exchanges = ExchangeLog()
            let others = ExchangeLog()
            let console = HTTPTransport(target: .emulator(address), apiKey: "authdeck", exchanges: exchanges, emulatorAdminToken: Self.adminToken)
            // A wrong token: the server refuses any bearer but its own, so client calls only succeed
            // if the transport leaves the header off them.
            let wrong = HTTPTransport(target: .emulator(address), apiKey: "authdeck", exchanges: others, emulatorAdminToken: "not-the-admin-token-0")
            let none = HTTPTransport(target: .emulator(address), apiKey: "authdeck", exchanges: others)
            do {
                try await Self.readOutboxes(served.backend.projectId, console: console, wrong: wrong, none: none)
            } catch {
                for transport in [console, wrong, none] { try? await transport.shutdown() }
                throw error
            }
            for transport in [console, wrong, none] { try await transport.shutdown() }

            // The inspector learns that a credential was sent, never the credential.
            let entries = await exchanges.entries
            #expect(entries.map(\.authorization) == [nil, "Bearer •••(23)", "Bearer •••(23)"])
            #expect(entries.map(\.status) == [200, 200, 200])
            for entry in entries {
                let text = String(decoding: entry.requestBody + entry.responseBody, as: UTF8.self) + (entry.authorization ?? "")
                #expect(!text.contains(Self.adminToken))
            }
            let refused = await others.entries
            #expect(refused.map(\.status) == [200, 200, 401, 401])
            #expect(refused.map(\.authorization) == [nil, nil, "Bearer •••(21)", nil])
        }
    }

    private static func readOutboxes(_ projectId: String, console: HTTPTransport, wrong: HTTPTransport, none: HTTPTransport) async throws {
        let signedUp = try await wrong.call(SignUpRequest(email: "ada@example.com", password: "hunter22"))
        _ = try await wrong.call(SendOobCodeRequest(requestType: .verifyEmail, idToken: signedUp.idToken))
        let sent = try await console.call(SendVerificationCodeRequest(phoneNumber: "+15555550100"))

        let mail = try await console.call(ListOobCodesRequest(projectId: projectId)).oobCodes
        #expect(mail.map(\.email) == ["ada@example.com"])
        let texts = try await console.call(ListVerificationCodesRequest(projectId: projectId)).verificationCodes
        #expect(texts.map(\.sessionInfo) == [sent.sessionInfo])

        for transport in [wrong, none] {
            await #expect(throws: IdentityToolkitError.self) { try await transport.call(ListOobCodesRequest(projectId: projectId)) }
        }
    }
}
