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

    @Test func addingTheSameItemRaisesItsQuantityAndRemovingLowersIt() throws {
        let store = try CartStore()
        try store.add("apple", to: "u1")
        try store.add(" apple ", to: "u1")
        try store.add("pear", to: "u1")
        try store.add("plum", to: "u2")
        #expect(try store.items(of: "u1") == [CartItem(uid: "u1", name: "apple", quantity: 2), CartItem(uid: "u1", name: "pear", quantity: 1)])
        try store.removeOne("apple", from: "u1")
        try store.removeOne("pear", from: "u1")
        #expect(try store.items(of: "u1") == [CartItem(uid: "u1", name: "apple", quantity: 1)])
        #expect(try store.items(of: "u2").count == 1)
    }

    @Test func mergingMovesItemsAndAddsQuantities() throws {
        let store = try CartStore()
        try store.add("apple", to: "anon")
        try store.add("pear", to: "anon")
        try store.add("apple", to: "main")
        try store.merge(from: "anon", into: "main")
        #expect(try store.items(of: "main") == [CartItem(uid: "main", name: "apple", quantity: 2), CartItem(uid: "main", name: "pear", quantity: 1)])
        #expect(try store.items(of: "anon").isEmpty)
    }

    @Test func junkNamesAreRefused() throws {
        let store = try CartStore()
        #expect(throws: CartStoreError.invalidItemName) { try store.add("  \u{1B}\u{7} ", to: "u") }
        #expect(throws: CartStoreError.invalidItemName) { try store.add(String(repeating: "x", count: 41), to: "u") }
        try store.add("tea\u{1B}[31m", to: "u")
        #expect(try store.items(of: "u").map(\.name) == ["tea[31m"])
    }

    @Test func itemsSurviveReopeningTheFile() throws {
        let path = try temporaryPath()
        try CartStore(path: path).add("apple", to: "u1")
        #expect(try CartStore(path: path).items(of: "u1").map(\.name) == ["apple"])
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
}
