import Foundation
import Testing

/// design.md's layers: the app reaches the backend through AuthClient only, so neither it nor its
/// tests import the wire layer. The build's dependency check cannot say so (it accepts a module
/// that a dependency brings along), so this test reads the sources.
@Suite("Layers")
struct LayerTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test(arguments: ["Sources/AuthDeckApp", "Tests/AuthDeckAppTests"])
    func theAppNeverImportsTheWireLayer(_ folder: String) throws {
        let files = try #require(FileManager.default.enumerator(at: Self.root.appendingPathComponent(folder), includingPropertiesForKeys: nil))
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
        #expect(files.count > 10)
        let importLine = /^\s*(@\w+\s+)*(\w+\s+)?import\s+(\w+\s+)?IdentityToolkit\b/
        for file in files {
            for line in try String(contentsOf: file, encoding: .utf8).split(separator: "\n") where line.contains(importLine) {
                Issue.record("\(file.lastPathComponent) imports IdentityToolkit: \(line)")
            }
        }
    }
}
