import Foundation
import IdentityToolkit
import Testing
@testable import IdentityEmulator

@Suite struct UserListingTests {
    /// Imports `count` users named `user-0000`… in batches of 1000, as the Admin SDK's import_users takes them.
    private func importUsers(_ harness: Harness, count: Int) async throws -> [String] {
        let ids = (0..<count).map { String(format: "user-%04d", $0) }.shuffled()
        for start in stride(from: 0, to: count, by: 1000) {
            let batch = ids[start..<min(start + 1000, count)].map { ["localId": $0, "email": "\($0)@example.com"] }
            #expect(try await harness.adminCall("/accounts:batchCreate", ["users": batch], as: UploadAccountResponse.self).error == [])
        }
        return ids.sorted()
    }

    private func page(_ harness: Harness, _ query: String) async throws -> DownloadAccountResponse {
        try await harness.adminCall("/accounts:batchGet" + query, method: "GET", as: DownloadAccountResponse.self)
    }

    @Test func pagesWalkEveryUserInAscendingLocalIdOrder() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        let ids = try await importUsers(harness, count: 45)
        var seen: [String] = []
        var sizes: [Int] = []
        var token: String?
        repeat {
            let response = try await page(harness, "?maxResults=20" + (token.map { "&nextPageToken=\($0)" } ?? ""))
            let users = response.users ?? []
            sizes.append(users.count)
            seen += users.map(\.localId)
            #expect(response.nextPageToken == (users.count == 20 ? users.last?.localId : nil))
            token = response.nextPageToken
        } while token != nil
        #expect(sizes == [20, 20, 5])
        #expect(seen == ids)
        #expect(try await page(harness, "").users?.count == 20)
        #expect(try await page(harness, "?maxResults=-1").users?.map(\.localId) == ids)
        #expect(try await page(harness, "?maxResults=5&nextPageToken=user-0040").users?.map(\.localId)
            == ["user-0041", "user-0042", "user-0043", "user-0044"])
        let exported = try #require(try await page(harness, "?maxResults=1").users?.first)
        #expect(exported.email == "user-0000@example.com")
        #expect(exported.validSince != nil)
        #expect(errorMessage(try await harness.send("GET", harness.projectPath + "/accounts:batchGet?maxResults=many"))?
            .hasPrefix("INVALID_ARGUMENT") == true)
    }

    @Test func aFullLastPageEndsWithAnEmptyPage() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        _ = try await importUsers(harness, count: 10)
        let first = try await page(harness, "?maxResults=10")
        #expect(first.users?.count == 10)
        let token = try #require(first.nextPageToken)
        let last = try await page(harness, "?maxResults=10&nextPageToken=\(token)")
        #expect(last.users ?? [] == [])
        #expect(last.nextPageToken == nil)
    }

    @Test func pagesHoldAtMostAThousandUsers() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        let ids = try await importUsers(harness, count: 2500)
        let first = try await page(harness, "?maxResults=5000")
        #expect(first.users?.count == 1000)
        let second = try await page(harness, "?maxResults=1000&nextPageToken=\(try #require(first.nextPageToken))")
        let third = try await page(harness, "?maxResults=1000&nextPageToken=\(try #require(second.nextPageToken))")
        #expect(third.nextPageToken == nil)
        #expect(((first.users ?? []) + (second.users ?? []) + (third.users ?? [])).map(\.localId) == ids)
    }

    /// `batchGet` writes its JSON by hand: for accounts of every shape (awkward strings, providers,
    /// second factors, custom claims, disabled; a signed-up and refreshed one with its hash) and on every page, its answer holds
    /// exactly what `accountInfo` describes, as `JSONEncoder` would write it.
    @Test func pagesHoldWhatAccountInfoDescribes() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        let awkward = "Zoë \"Q\" \\ /\n\t\u{0}\u{1F}\u{7F} 漢字 👩‍👩‍👧 \u{2028}"
        let users: [[String: Any]] = [
            ["localId": "a-plain"],
            ["localId": "b-everything", "email": "bee@example.com", "emailVerified": true, "displayName": awkward,
             "photoUrl": "https://example.com/p?q=\"1\"&r=ü", "phoneNumber": "+15555550100", "disabled": true,
             "customAttributes": #"{"role":"ädmin","n":[1,{"x":null}]}"#,
             "providerUserInfo": [["providerId": "google.com", "rawId": "g-1", "email": "bee@gmail.com", "displayName": awkward],
                                  ["providerId": "github.com", "rawId": "gh\"1"]],
             "mfaInfo": [["mfaEnrollmentId": "bee-phone", "phoneInfo": "+15555550199", "displayName": awkward,
                          "enrolledAt": "2023-05-06T07:08:09.123Z"]]],
            ["localId": "c-\(awkward)", "email": "cee@example.com", "displayName": ""],
        ]
        #expect(try await harness.adminCall("/accounts:batchCreate", ["users": users], as: UploadAccountResponse.self).error == [])
        let signedUp = try await harness.signUp("dee@example.com")
        _ = try await harness.refresh(signedUp.refreshToken)

        let stored = try harness.backend.store.read { db in
            try harness.backend.accountInfos(StoredAccount.order(StoredAccount.Columns.localId).fetchAll(db), in: db)
        }
        #expect(stored.count == 4)
        for (query, expectedUsers, next) in [("?maxResults=-1", stored, nil), ("?maxResults=2", Array(stored[0..<2]), stored[1].localId),
                                             ("?maxResults=2&nextPageToken=\(stored[1].localId)", Array(stored[2...]), stored[3].localId),
                                             ("?maxResults=2&nextPageToken=\(stored[3].localId)", [], nil)] {
            let answer = try await harness.send("GET", harness.projectPath + "/accounts:batchGet" + query)
            #expect(answer.status == 200)
            let expected = try WireCoding.encoder().encode(DownloadAccountResponse(users: expectedUsers, nextPageToken: next))
            let written = try #require(try JSONSerialization.jsonObject(with: answer.body) as? NSDictionary)
            #expect(written == (try JSONSerialization.jsonObject(with: expected) as? NSDictionary), "\(query)")
            #expect(try WireCoding.decoder().decode(DownloadAccountResponse.self, from: answer.body)
                == DownloadAccountResponse(users: expectedUsers, nextPageToken: next))
        }
    }
}
