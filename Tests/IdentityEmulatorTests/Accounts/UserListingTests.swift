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
}
