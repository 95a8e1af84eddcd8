import Foundation
import IdentityEmulator
import IdentityTestSupport
import IdentityToolkit
import Testing

/// `projects/{p}/tenants`, answered as the Firebase Auth Emulator answers it.
@Suite("Tenant management", .timeLimit(.minutes(2)))
struct TenantManagementTests {
    static let owner = ["Content-Type": "application/json", "Authorization": "Bearer owner"]

    /// `mfaConfig` as its state then its providers ("-" for a field left out).
    private static func mfa(_ answer: RawAnswer) -> [String] {
        let config = answer.json?["mfaConfig"] as? [String: Any]
        return [config?["state"] as? String ?? "-"] + (config?["enabledProviders"] as? [String] ?? ["-"])
    }

    private static func tenants(_ served: TestBackend) -> String {
        "/identitytoolkit.googleapis.com/v2/projects/\(served.backend.projectId)/tenants"
    }

    @Test func aTenantIsCreatedReadPatchedAndDeleted() async throws {
        try await withTestBackend(.http) { served in
            let created = try await served.raw(.POST, Self.tenants(served), json: """
                {"displayName":"Room A","allowPasswordSignup":true,"enableEmailLinkSignin":true,
                 "mfaConfig":{"state":"ENABLED","enabledProviders":["PROVIDER_UNSPECIFIED","PHONE_SMS"]},
                 "testPhoneNumbers":{"+15555550100":"123456"}}
                """, headers: Self.owner)
            #expect(created.status == 200, "\(created.errorMessage ?? "")")
            let id = try #require(created.json?["tenantId"] as? String)
            #expect(id.count == 28)
            #expect(created.json?["name"] as? String == "projects/\(served.backend.projectId)/tenants/\(id)")
            #expect(created.json?["displayName"] as? String == "Room A")
            #expect(created.json?["enableAnonymousUser"] as? Bool == false)
            #expect(created.json?["disableAuth"] as? Bool == false)
            #expect(Self.mfa(created) == ["ENABLED", "PROVIDER_UNSPECIFIED", "PHONE_SMS"])
            #expect(created.json?["testPhoneNumbers"] as? [String: String] == ["+15555550100": "123456"])

            let path = Self.tenants(served) + "/" + id
            let read = try await served.raw(.GET, path, headers: Self.owner)
            #expect(read.json as NSDictionary? == created.json as NSDictionary?)

            // With a mask: only the fields it names; one the body leaves out, or a path into a plain value, changes nothing.
            let masked = try await served.raw(.PATCH, path + "?updateMask=displayName,enableAnonymousUser,allowPasswordSignup,mfaConfig.state.x",
                                              json: #"{"displayName":"Room B","enableAnonymousUser":true,"mfaConfig":{"state":"DISABLED"}}"#,
                                              headers: Self.owner)
            #expect(masked.json?["displayName"] as? String == "Room B")
            #expect(masked.json?["enableAnonymousUser"] as? Bool == true)
            #expect(masked.json?["allowPasswordSignup"] as? Bool == true)
            #expect((masked.json?["mfaConfig"] as? [String: Any])?["state"] as? String == "ENABLED")
            // Without: the whole tenant, what is left out back to production's defaults.
            let full = try await served.raw(.PATCH, path, json: #"{"disableAuth":true}"#, headers: Self.owner)
            #expect(full.json?["disableAuth"] as? Bool == true)
            #expect(full.json?["displayName"] == nil)
            #expect(full.json?["allowPasswordSignup"] as? Bool == false)
            #expect(Self.mfa(full) == ["DISABLED"])

            #expect(try await served.raw(.DELETE, path, headers: Self.owner).body == Data("{}".utf8))
            let listed = try await served.raw(.GET, Self.tenants(served), headers: Self.owner)
            #expect((listed.json?["tenants"] as? [Any])?.isEmpty == true)
        }
    }

    @Test func aTenantNamedBeforeItsCreationIsMadeWithEveryMethodOn() async throws {
        try await withTestBackend(.http) { served in
            let named = try await served.raw(.GET, Self.tenants(served) + "/room-42", headers: Self.owner)
            #expect(named.json?["tenantId"] as? String == "room-42")
            #expect(named.json?["allowPasswordSignup"] as? Bool == true)
            #expect(named.json?["enableEmailLinkSignin"] as? Bool == true)
            #expect(named.json?["enableAnonymousUser"] as? Bool == true)
            #expect(Self.mfa(named) == ["ENABLED", "PHONE_SMS"])
            let listed = try await served.raw(.GET, Self.tenants(served), headers: Self.owner)
            #expect((listed.json?["tenants"] as? [[String: Any]])?.map { $0["tenantId"] as? String } == ["room-42"])
        }
    }

    @Test func tenantsAreListedInPagesByIdAndTheirSettingsChecked() async throws {
        try await withTestBackend(.http) { served in
            var ids: [String] = []
            for _ in 0..<3 {
                let created = try await served.raw(.POST, Self.tenants(served), json: "{}", headers: Self.owner)
                ids.append(try #require(created.json?["tenantId"] as? String))
            }
            ids.sort()
            let first = try await served.raw(.GET, Self.tenants(served) + "?pageSize=2", headers: Self.owner)
            #expect((first.json?["tenants"] as? [[String: Any]])?.map { $0["tenantId"] as? String } == Array(ids.prefix(2)))
            let token = try #require(first.json?["nextPageToken"] as? String)
            let second = try await served.raw(.GET, Self.tenants(served) + "?pageSize=2&pageToken=\(token)", headers: Self.owner)
            #expect((second.json?["tenants"] as? [[String: Any]])?.map { $0["tenantId"] as? String } == [ids[2]])
            #expect(second.json?["nextPageToken"] == nil)

            let badState = try await served.raw(.POST, Self.tenants(served), json: #"{"mfaConfig":{"state":"SOMETIMES"}}"#, headers: Self.owner)
            #expect(badState.status == 400)
            #expect(badState.errorMessage?.hasPrefix("INVALID_ARGUMENT : Invalid value at 'mfaConfig.state'") == true)
            let badType = try await served.raw(.POST, Self.tenants(served), json: #"{"disableAuth":"yes"}"#, headers: Self.owner)
            #expect(badType.errorMessage == "INVALID_ARGUMENT : Invalid value at 'disableAuth'")
            let badId = try await served.raw(.GET, Self.tenants(served) + "/bad_id", headers: Self.owner)
            #expect(badId.status == 400)
            let all = try await served.raw(.GET, Self.tenants(served), headers: Self.owner)
            #expect((all.json?["tenants"] as? [Any])?.count == 3, "refused bodies made no tenant")
        }
    }

    @Test func aListingWhileTenantsAreDeletedIsNeverAServerError() async throws {
        try await withTestBackend(.http) { served in
            for _ in 0..<3 {
                var ids: [String] = []
                for _ in 0..<40 {
                    let created = try await served.raw(.POST, Self.tenants(served), json: "{}", headers: Self.owner)
                    ids.append(try #require(created.json?["tenantId"] as? String))
                }
                let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                    for id in ids {
                        group.addTask { try await served.raw(.DELETE, Self.tenants(served) + "/" + id, headers: Self.owner).status }
                        group.addTask { try await served.raw(.GET, Self.tenants(served) + "?pageSize=-1", headers: Self.owner).status }
                        group.addTask { try await served.raw(.GET, Self.tenants(served) + "?pageSize=-1", headers: Self.owner).status }
                    }
                    return try await group.reduce(into: [Int]()) { $0.append($1) }
                }
                #expect(statuses.allSatisfy { $0 == 200 }, "\(statuses)")
            }
        }
    }

    @Test func onlyAnAdministratorManagesTenants() async throws {
        try await withTestBackend(.http) { served in
            let byApp = try await served.raw(.POST, Self.tenants(served) + "?key=fake-api-key", json: "{}")
            #expect(byApp.errorMessage == "INSUFFICIENT_PERMISSION : Only authenticated requests can specify target_project_id.")
            let listed = try await served.raw(.GET, Self.tenants(served) + "?key=fake-api-key", headers: [:])
            #expect(listed.status == 400)
            let other = try await served.raw(.GET, "/identitytoolkit.googleapis.com/v2/projects/no-such-project/tenants", headers: Self.owner)
            #expect(other.status == 404)
        }
    }
}
