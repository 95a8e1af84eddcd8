@testable import AppData
import Foundation
import Testing

@Suite("Cart store (app data on SQLite)")
struct CartStoreTests {
    func temporaryPath() throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("authdeck-cart-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory.appendingPathComponent("appdata.sqlite").path
    }

    @Test func addingTheSameItemRaisesItsQuantityAndRemovingLowersIt() async throws {
        let store = try CartStore()
        try await store.add("apple", to: "u1")
        try await store.add(" apple ", to: "u1")
        try await store.add("pear", to: "u1")
        try await store.add("plum", to: "u2")
        #expect(try await store.items(of: "u1") == [CartItem(uid: "u1", name: "apple", quantity: 2), CartItem(uid: "u1", name: "pear", quantity: 1)])
        try await store.removeOne("apple", from: "u1")
        try await store.removeOne("pear", from: "u1")
        #expect(try await store.items(of: "u1") == [CartItem(uid: "u1", name: "apple", quantity: 1)])
        #expect(try await store.items(of: "u2").count == 1)
    }

    @Test func mergingMovesItemsAndAddsQuantities() async throws {
        let store = try CartStore()
        try await store.add("apple", to: "anon")
        try await store.add("pear", to: "anon")
        try await store.add("apple", to: "main")
        try await store.merge(from: "anon", into: "main")
        #expect(try await store.items(of: "main") == [CartItem(uid: "main", name: "apple", quantity: 2), CartItem(uid: "main", name: "pear", quantity: 1)])
        #expect(try await store.items(of: "anon").isEmpty)
    }

    @Test func junkNamesAreRefused() async throws {
        let store = try CartStore()
        await #expect(throws: CartStoreError.invalidItemName) { try await store.add("  \u{1B}\u{7} ", to: "u") }
        await #expect(throws: CartStoreError.invalidItemName) { try await store.add(String(repeating: "x", count: 41), to: "u") }
        try await store.add("tea\u{1B}[31m", to: "u")
        #expect(try await store.items(of: "u").map(\.name) == ["tea[31m"])
    }

    @Test func itemsSurviveReopeningTheFile() async throws {
        let path = try temporaryPath()
        try await CartStore(path: path).add("apple", to: "u1")
        #expect(try await CartStore(path: path).items(of: "u1").map(\.name) == ["apple"])
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
    }

    @Test func aCorruptFileIsReportedAndLeftUntouched() throws {
        let path = try temporaryPath()
        let junk = Data(repeating: 0x41, count: 8192)
        try junk.write(to: URL(fileURLWithPath: path))
        #expect(throws: CartStoreError.self) { try CartStore(path: path) }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == junk)
    }

    @Test func aStoreOpeningAtFirstUseTouchesNoFileUntilThenAndOpensOnceForCallsTogether() async throws {
        let path = try temporaryPath()
        let store = CartStore(openingAtFirstUse: path)
        #expect(!FileManager.default.fileExists(atPath: path))
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<8 { group.addTask { try await store.add("item \(index % 2)", to: "u1") } }
            try await group.waitForAll()
        }
        #expect(try await store.items(of: "u1") == [CartItem(uid: "u1", name: "item 0", quantity: 4), CartItem(uid: "u1", name: "item 1", quantity: 4)])
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
    }

    @Test func aCorruptFileFoundAtFirstUseIsReportedLeftUntouchedAndTriedAgainAtTheNext() async throws {
        let path = try temporaryPath()
        let junk = Data(repeating: 0x41, count: 8192)
        try junk.write(to: URL(fileURLWithPath: path))
        let store = CartStore(openingAtFirstUse: path)
        await #expect {
            try await store.items(of: "u1")
        } throws: { error in
            guard case let .unreadable(reported, _) = error as? CartStoreError else { return false }
            return reported == path
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == junk)
        // Once the file is moved aside, the next use creates a new one.
        try FileManager.default.removeItem(atPath: path)
        try await store.add("apple", to: "u1")
        #expect(try await store.items(of: "u1").map(\.name) == ["apple"])
    }
}
