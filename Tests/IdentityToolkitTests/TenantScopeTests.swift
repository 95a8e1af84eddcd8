import Foundation
import IdentityToolkit
import Testing

/// How a request names its tenant: a client's body gains `tenantId` beside its own fields; an
/// administrator's path gains `tenants/{tenantId}` after the project, its query kept.
@Suite("Requests within a tenant")
struct TenantScopeTests {
    @Test func aClientRequestCarriesTheTenantBesideItsOwnFields() throws {
        let request = TenantScopedRequest(SignInWithPasswordRequest(email: "ada@example.com", password: "secret-1"), tenantId: "team-a")
        let body = try #require(try JSONSerialization.jsonObject(with: WireCoding.encoder().encode(request)) as? [String: Any])
        #expect(body["tenantId"] as? String == "team-a")
        #expect(body["email"] as? String == "ada@example.com")
        #expect(body["returnSecureToken"] as? Bool == true)
        #expect(request.resolvedEndpoint == SignInWithPasswordRequest.endpoint)
    }

    @Test func anAdministratorRequestGoesToTheTenantsPath() throws {
        let lookup = TenantAdministratorRequest(AdminLookupRequest(projectId: "demo-1", localId: ["u-1"]), tenantId: "team-a")
        #expect(lookup.resolvedEndpoint.path == "/v1/projects/demo-1/tenants/team-a/accounts:lookup")
        let page = TenantAdministratorRequest(BatchGetAccountsRequest(projectId: "demo-1", maxResults: 10, nextPageToken: "n"), tenantId: "team-a")
        #expect(page.resolvedEndpoint.path.hasPrefix("/v1/projects/demo-1/tenants/team-a/accounts:batchGet?"))
        #expect(page.resolvedEndpoint.path.contains("nextPageToken=n"))
        #expect(ListTenantsRequest(projectId: "demo-1", pageToken: "a/b").resolvedEndpoint.path
                == "/v2/projects/demo-1/tenants?pageSize=1000&pageToken=a%2Fb")
    }

    @Test func anEmulatorAdministratorRequestGoesToTheTenantsPathOnTheEmulatorHost() throws {
        let query = TenantEmulatorRequest(QueryLockoutRequest(projectId: "demo-1", email: "ada@example.com"), projectId: "demo-1", tenantId: "team-a")
        #expect(query.resolvedEndpoint == Endpoint(host: .emulator, path: "/v1/projects/demo-1/tenants/team-a/lockouts:query"))
        let body = try #require(try JSONSerialization.jsonObject(with: WireCoding.encoder().encode(query)) as? [String: Any])
        #expect(body["email"] as? String == "ada@example.com" && body["tenantId"] == nil)
    }
}
