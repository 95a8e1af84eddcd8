import Foundation
import IdentityToolkit
import GRDB
import Testing
@testable import IdentityEmulator

@Suite struct AccountQueryTests {
    /// Six accounts of every kind, created at known times (ms) by an import.
    private func seeded() async throws -> Harness {
        let harness = try Harness()
        let day: Int64 = 86_400_000
        let now = Int64(harness.clock.now.timeIntervalSince1970 * 1000)
        let users: [[String: Any]] = [
            ["localId": "u-ann", "email": "Ann@Example.com", "emailVerified": true, "displayName": "Ann", "createdAt": "\(now - 5 * day)",
             "lastLoginAt": "\(now - 1 * day)"],
            ["localId": "u-bob", "email": "bob@example.com", "displayName": "Bob", "createdAt": "\(now - 4 * day)", "disabled": true],
            ["localId": "u-cat", "phoneNumber": "+15555550123", "createdAt": "\(now - 3 * day)", "lastLoginAt": "\(now - 2 * day)"],
            ["localId": "anon-old", "createdAt": "\(now - 40 * day)"],
            ["localId": "anon-new", "createdAt": "\(now - 2 * day)"],
            ["localId": "u-dan", "email": "annex@other.org", "emailVerified": true, "createdAt": "\(now - 1 * day)",
             "providerUserInfo": [["providerId": "google.com", "rawId": "g-1", "email": "annex@other.org"]],
             "mfaInfo": [["phoneInfo": "+15555550199"]]],
        ]
        let answer = try await harness.adminCall("/accounts:batchCreate", ["users": users], as: UploadAccountResponse.self)
        #expect(answer.error?.isEmpty != false)
        return harness
    }

    private func query(_ harness: Harness, _ request: QueryAccountsRequest) async throws -> QueryAccountsResponse {
        try await harness.backend.administratorTransport().call(request)
    }

    private func ids(_ harness: Harness, sortBy: QueryAccountsRequest.SortBy? = nil, order: QueryAccountsRequest.Order? = nil,
                     limit: Int? = nil, offset: Int? = nil, expression: QueryAccountsRequest.Expression? = nil,
                     filter: QueryAccountsRequest.Filter? = nil) async throws -> [String] {
        let request = QueryAccountsRequest(projectId: harness.backend.projectId, limit: limit, offset: offset,
                                           expression: expression.map { [$0] }, sortBy: sortBy, order: order, authdeckFilter: filter)
        return try await query(harness, request).userInfo?.map(\.localId) ?? []
    }

    @Test func sortsByEachDocumentedFieldBothWaysAndPagesWithLimitAndOffset() async throws {
        let harness = try await seeded()
        defer { harness.remove() }
        #expect(try await ids(harness) == ["anon-new", "anon-old", "u-ann", "u-bob", "u-cat", "u-dan"])
        #expect(try await ids(harness, sortBy: .userId, order: .descending) == ["u-dan", "u-cat", "u-bob", "u-ann", "anon-old", "anon-new"])
        #expect(try await ids(harness, sortBy: .createdAt) == ["anon-old", "u-ann", "u-bob", "u-cat", "anon-new", "u-dan"])
        #expect(try await ids(harness, sortBy: .createdAt, order: .descending) == ["u-dan", "anon-new", "u-cat", "u-bob", "u-ann", "anon-old"])
        // Accounts without the field come first ascending (SQLite's NULL order), ties in the order the accounts were stored.
        #expect(try await ids(harness, sortBy: .lastLoginAt, order: .descending).prefix(2) == ["u-ann", "u-cat"])
        #expect(try await ids(harness, sortBy: .userEmail, order: .descending).prefix(3) == ["u-bob", "u-dan", "u-ann"])
        #expect(try await ids(harness, sortBy: .name, order: .descending).prefix(2) == ["u-bob", "u-ann"])

        #expect(try await ids(harness, sortBy: .createdAt, limit: 2) == ["anon-old", "u-ann"])
        #expect(try await ids(harness, sortBy: .createdAt, limit: 2, offset: 2) == ["u-bob", "u-cat"])
        #expect(try await ids(harness, sortBy: .createdAt, limit: 2, offset: 6) == [])
    }

    @Test func countsWithoutUserInfo() async throws {
        let harness = try await seeded()
        defer { harness.remove() }
        let all = try await query(harness, QueryAccountsRequest(projectId: harness.backend.projectId, returnUserInfo: false))
        #expect(all == QueryAccountsResponse(recordsCount: "6", userInfo: nil))
        let anonymous = try await query(harness, QueryAccountsRequest(projectId: harness.backend.projectId, returnUserInfo: false,
                                                                       authdeckFilter: .init(anonymous: true)))
        #expect(anonymous.recordsCount == "2")
        let page = try await query(harness, QueryAccountsRequest(projectId: harness.backend.projectId, limit: 4))
        #expect(page.recordsCount == "4")
    }

    @Test func expressionsMatchExactlyAndOnlyTheFirstCounts() async throws {
        let harness = try await seeded()
        defer { harness.remove() }
        #expect(try await ids(harness, expression: .init(email: "ANN@example.COM")) == ["u-ann"])
        #expect(try await ids(harness, expression: .init(email: "ann@")) == [])
        #expect(try await ids(harness, expression: .init(phoneNumber: "+15555550123")) == ["u-cat"])
        #expect(try await ids(harness, expression: .init(userId: "u-bob")) == ["u-bob"])
        // The email wins over the uid in one expression.
        #expect(try await ids(harness, expression: .init(email: "bob@example.com", userId: "u-ann")) == ["u-bob"])
        let twoExpressions = QueryAccountsRequest(projectId: harness.backend.projectId,
                                                  expression: [.init(userId: "u-cat"), .init(userId: "u-ann")])
        #expect(try await query(harness, twoExpressions).userInfo?.map(\.localId) == ["u-cat"])
    }

    @Test func theConsoleFiltersSelectInSQL() async throws {
        let harness = try await seeded()
        defer { harness.remove() }
        // Prefix: email case-insensitively, uid, phone with or without the +.
        #expect(try await ids(harness, filter: .init(prefix: "ANN")) == ["u-ann", "u-dan"])
        #expect(try await ids(harness, filter: .init(prefix: "anon-")) == ["anon-new", "anon-old"])
        #expect(try await ids(harness, filter: .init(prefix: "1555555")) == ["u-cat"])
        #expect(try await ids(harness, filter: .init(prefix: "+1555")) == ["u-cat"])
        #expect(try await ids(harness, filter: .init(anonymous: true)) == ["anon-new", "anon-old"])
        #expect(try await ids(harness, filter: .init(anonymous: false)).count == 4)
        #expect(try await ids(harness, filter: .init(disabled: true)) == ["u-bob"])
        #expect(try await ids(harness, filter: .init(emailVerified: false)) == ["u-bob"])
        #expect(try await ids(harness, filter: .init(hasSecondFactor: true)) == ["u-dan"])
        #expect(try await ids(harness, filter: .init(providerId: "google.com")) == ["u-dan"])
        #expect(try await ids(harness, filter: .init(providerId: "phone")) == ["u-cat"])
        let thirtyDaysAgo = Int64(harness.clock.now.timeIntervalSince1970 * 1000) - 30 * 86_400_000
        #expect(try await ids(harness, filter: .init(anonymous: true, createdBefore: String(thirtyDaysAgo))) == ["anon-old"])
        // Conditions combine, with the expression too.
        #expect(try await ids(harness, filter: .init(prefix: "ann", hasSecondFactor: false)) == ["u-ann"])
        #expect(try await ids(harness, expression: .init(userId: "u-ann"), filter: .init(disabled: true)) == [])
    }

    @Test func pastedJunkIsOnlyEverAValue() async throws {
        let harness = try await seeded()
        defer { harness.remove() }
        for junk in ["'; DROP TABLE user; --", "%", "_", "\" OR 1=1 --", "\u{0}", "\u{10FFFF}", String(repeating: "ä", count: 5000), "a' OR 'a'='a"] {
            #expect(try await ids(harness, filter: .init(prefix: junk, providerId: junk)) == [], "\(junk.prefix(20))")
            #expect(try await ids(harness, expression: .init(email: junk)) == [])
        }
        #expect(try await ids(harness).count == 6)
    }

    @Test func badArgumentsAre400NeverAServerError() async throws {
        let harness = try await seeded()
        defer { harness.remove() }
        let bodies: [[String: Any]] = [
            ["limit": "501"], ["limit": "-1"], ["offset": "-5"], ["limit": "lots"], ["sortBy": "PASSWORD"],
            ["sortBy": "localId; DROP TABLE user"], ["order": "SIDEWAYS"], ["expression": "nope"], ["authdeckFilter": ["anonymous": "yes"]],
            ["tenantId": "t-1"],
        ]
        for body in bodies {
            let answer = try await harness.send("POST", harness.projectPath + "/accounts:query", body)
            #expect(answer.status == 400, "\(body)")
            #expect(errorMessage(answer)?.hasPrefix("INVALID_ARGUMENT") == true || errorMessage(answer)?.hasPrefix("TENANT_NOT_FOUND") == true, "\(body)")
        }
        let asApp = await harness.raw(harness.projectPath + "/accounts:query", body: "{}")
        #expect(asApp.status != 200)
    }

    @Test func indexesAnswerTheTablesQueries() throws {
        let harness = try Harness()
        defer { harness.remove() }
        func plan(_ json: String, countOnly: Bool = false) throws -> String {
            let body = try harness.backend.decode(QueryAccountsBody.self, Data(json.utf8))
            let (sql, arguments) = try EmbeddedBackend.accountQuery(body, countOnly: countOnly, now: Date().timeIntervalSince1970)
            return try harness.backend.store.read { db in
                try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + sql, arguments: arguments).map { $0["detail"] as String }.joined(separator: " | ")
            }
        }
        // The prefix reads through the email, uid and phone indexes; the rest through the new ones.
        let prefix = try plan(#"{"authdeckFilter": {"prefix": "15"}}"#)
        #expect(prefix.contains("MULTI-INDEX OR") && prefix.contains("phoneNumber>?"), "\(prefix)")
        let lastLogin = try plan(#"{"sortBy": "LAST_LOGIN_AT", "order": "DESC", "limit": "50"}"#)
        #expect(lastLogin.contains("user_lastLoginAt"), "\(lastLogin)")
        // A deep page walks an index: no sort of the rows the offset skips.
        for sortBy in ["CREATED_AT", "LAST_LOGIN_AT", "USER_EMAIL", "NAME", "USER_ID"] {
            let deep = try plan(#"{"sortBy": "\#(sortBy)", "order": "DESC", "limit": "50", "offset": "900000"}"#)
            #expect(!deep.contains("TEMP B-TREE"), "\(sortBy): \(deep)")
        }
        let anonymous = try plan(#"{"authdeckFilter": {"anonymous": true}}"#, countOnly: true)
        #expect(anonymous.contains("user_anonymous"), "\(anonymous)")
        let oldAnonymous = try plan(#"{"sortBy": "CREATED_AT", "authdeckFilter": {"anonymous": true, "createdBefore": "5"}}"#)
        #expect(oldAnonymous.contains("user_anonymous (createdAt<?)"), "\(oldAnonymous)")
        let disabled = try plan(#"{"authdeckFilter": {"disabled": true}}"#, countOnly: true)
        #expect(disabled.contains("user_disabled"), "\(disabled)")
        let provider = try plan(#"{"authdeckFilter": {"providerId": "google.com"}}"#, countOnly: true)
        #expect(provider.contains("provider_providerId"), "\(provider)")
    }

    @Test func hashParametersComeFromTheV2ConfigForAdministratorsOnly() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        let config = try await harness.backend.administratorTransport().call(ProjectConfigRequest(projectId: harness.backend.projectId))
        let hash = try #require(config.signIn?.hashConfig)
        #expect(hash.algorithm == "SCRYPT")
        #expect(Data(base64Encoded: hash.signerKey ?? "") == harness.backend.store.scrypt.signerKey)
        #expect(hash.rounds == harness.backend.store.scrypt.rounds)
        #expect(hash.memoryCost == harness.backend.store.scrypt.memCost)
        let asApp = try await harness.api.call(ProjectConfigRequest(projectId: harness.backend.projectId))
        #expect(asApp.signIn != nil && asApp.signIn?.hashConfig == nil)
    }
}
