import Foundation
import IdentityToolkit
import Testing
@testable import IdentityEmulator

@Suite struct EmulatorEndpointTests {
    @Test func deletingAllAccountsNeedsNoCredentialsAndEndsEverySession() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        let first = try await harness.signUp("ray@example.com")
        _ = try await harness.signUp("sue@example.com")
        // Only DELETE wipes.
        #expect(try await harness.send("GET", harness.emulatorPath + "/accounts", headers: [:]).status == 404)
        let wiped = try await harness.send("DELETE", harness.emulatorPath + "/accounts", headers: [:])
        #expect(wiped.status == 200)
        #expect(String(decoding: wiped.body, as: UTF8.self) == "{}")
        #expect(try await harness.adminCall("/accounts:batchGet?maxResults=-1", method: "GET", as: DownloadAccountResponse.self).users ?? [] == [])
        await #expect(throws: server("INVALID_REFRESH_TOKEN")) { try await harness.refresh(first.refreshToken) }
        _ = try await harness.signUp("ray@example.com")
        #expect(try await harness.send("DELETE", "/emulator/v1/projects/other/accounts", headers: [:]).status == 400)
    }

    @Test func emailPrivacyIsReadAndChangedThroughTheConfigAndPersisted() async throws {
        let harness = try Harness(configuration: .init(emailEnumerationProtection: false))
        defer { harness.remove() }
        let path = harness.emulatorPath + "/config"
        func config(_ response: WireResponse) throws -> EmulatorProjectConfig { try WireCoding.decode(EmulatorProjectConfig.self, from: response) }

        let initial = try config(try await harness.send("GET", path, headers: [:]))
        #expect(initial == EmulatorProjectConfig(signIn: .init(allowDuplicateEmails: false),
                                                 emailPrivacyConfig: .init(enableImprovedEmailPrivacy: false)))
        await #expect(throws: server("EMAIL_NOT_FOUND")) { try await harness.signIn("nobody@example.com") }
        let resetForNobody = SendOobCodeRequest(requestType: .passwordReset, email: "nobody@example.com")
        await #expect(throws: server("EMAIL_NOT_FOUND")) { _ = try await harness.api.call(resetForNobody) }

        let patched = try config(try await harness.send("PATCH", path, ["emailPrivacyConfig": ["enableImprovedEmailPrivacy": true]], headers: [:]))
        #expect(patched.emailPrivacyConfig?.enableImprovedEmailPrivacy == true)
        await #expect(throws: server("INVALID_LOGIN_CREDENTIALS")) { try await harness.signIn("nobody@example.com") }
        // A reset for an unknown address is answered like one for a known address.
        #expect(try await harness.api.call(resetForNobody).email == "nobody@example.com")

        // A PATCH without the field keeps it; the setting survives a restart whatever the default.
        #expect(try config(try await harness.send("PATCH", path, ["signIn": ["allowDuplicateEmails": false]], headers: [:]))
            .emailPrivacyConfig?.enableImprovedEmailPrivacy == true)
        let reopened = try harness.reopened(configuration: .init(emailEnumerationProtection: false))
        await #expect(throws: server("INVALID_LOGIN_CREDENTIALS")) { try await reopened.signIn("nobody@example.com") }

        let duplicates = try await harness.send("PATCH", path, ["signIn": ["allowDuplicateEmails": true]], headers: [:])
        #expect(duplicates.status == 400)
        #expect(try await harness.send("POST", path, [:], headers: [:]).status == 404)
    }
}

@Suite struct EmulatorEndpointsWithAnAdminTokenTests {
    @Test func onAServerOthersCanReachTheEmulatorEndpointsNeedTheToken() async throws {
        let token = "interop-admin-token-0123456789"
        let harness = try Harness(configuration: .init(adminToken: token))
        defer { harness.remove() }
        _ = try await harness.signUp("tia@example.com")
        let wipe = harness.emulatorPath + "/accounts"
        #expect(try await harness.send("DELETE", wipe, headers: [:]).status == 403)
        #expect(try await harness.send("DELETE", wipe, headers: ["Authorization": "Bearer owner"]).status == 401)
        #expect(try await harness.send("PATCH", harness.emulatorPath + "/config", ["emailPrivacyConfig": ["enableImprovedEmailPrivacy": false]],
                                       headers: ["x-goog-api-key": "key"]).status == 401)
        #expect(try await harness.send("DELETE", wipe, headers: ["Authorization": "Bearer \(token)"]).status == 200)
        await #expect(throws: server("INVALID_LOGIN_CREDENTIALS")) { try await harness.signIn("tia@example.com") }
    }

    /// The list of lock-outs and clearing them all are refused as the other emulator paths are.
    @Test func theLockoutsNeedTheTokenToo() async throws {
        let token = "interop-admin-token-0123456789"
        let harness = try Harness(configuration: .init(adminToken: token))
        defer { harness.remove() }
        let wipe = harness.emulatorPath + "/accounts"
        for path in ["/lockouts:query", "/lockouts:clear"] {
            for headers in [[:], ["Authorization": "Bearer owner"]] {
                let lockouts = try await harness.send("POST", harness.emulatorPath + path, ["all": true], headers: headers)
                let other = try await harness.send("DELETE", wipe, headers: headers)
                #expect(lockouts.status == other.status && lockouts.body == other.body, "\(path) \(headers)")
            }
            #expect(try await harness.send("POST", harness.emulatorPath + path, ["all": true], headers: ["Authorization": "Bearer \(token)"]).status == 200)
        }
    }
}
