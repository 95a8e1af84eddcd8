import Foundation
import Testing

/// The rules of docs/architecture.md the compiler cannot check, read from the sources: the app
/// reaches the backend through AuthClient only, and each feature folder is a vertical slice that
/// knows only its own actions, effects and results (the root wraps and routes them).
@Suite("Layers")
struct LayerTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let app = root.appendingPathComponent("Sources/AuthDeckApp")

    static func swiftFiles(in folder: URL) throws -> [URL] {
        try #require(FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil))
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
    }

    /// A feature: a folder of `Sources/AuthDeckApp` (but the root's) with an `XFeature.swift` that declares `XFeature`,
    /// and the case of the root's `ConsoleAction` that carries its actions.
    struct Feature: CustomStringConvertible {
        var folder: URL
        var type: String
        var scope: String
        var sources: [(name: String, text: String)]
        var description: String { type }

        /// The cases of the feature's own `Action` enum.
        var actionCases: [String] {
            guard let main = sources.first(where: { $0.name == "\(type).swift" })?.text,
                  let start = main.range(of: "public enum Action"),
                  let end = main.range(of: "\n    }\n", range: start.upperBound..<main.endIndex) else { return [] }
            let body = main[start.upperBound..<end.lowerBound]
            return body.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { $0.hasPrefix("case ") }
                .flatMap { $0.dropFirst(5).split(separator: ",").map { String($0.trimmingCharacters(in: .whitespaces).prefix { $0.isLetter || $0.isNumber }) } }
        }
    }

    static func features() throws -> [Feature] {
        let folders = try FileManager.default.contentsOfDirectory(at: app, includingPropertiesForKeys: nil)
        // Console/ is the root that wraps them all.
        return try folders.filter { $0.lastPathComponent != "Console" }.compactMap { folder -> Feature? in
            let type = folder.lastPathComponent + "Feature"
            let main = folder.appendingPathComponent("\(type).swift")
            guard FileManager.default.fileExists(atPath: main.path) else { return nil }
            let sources = try swiftFiles(in: folder).map { ($0.lastPathComponent, try String(contentsOf: $0, encoding: .utf8)) }
            let text = try String(contentsOf: main, encoding: .utf8)
            let embed = /static func embed\(_ action: \w+\) -> ConsoleAction \{ ?\.?(\w*)/
            let scope = text.firstMatch(of: embed).map { String($0.1) } ?? ""
            return Feature(folder: folder, type: type, scope: scope, sources: sources)
        }
    }

    @Test(arguments: ["Sources/AuthDeckApp", "Tests/AuthDeckAppTests"])
    func theAppNeverImportsTheWireLayer(_ folder: String) throws {
        let files = try Self.swiftFiles(in: Self.root.appendingPathComponent(folder))
        #expect(files.count > 10)
        let importLine = /^\s*(@\w+\s+)*(\w+\s+)?import\s+(\w+\s+)?IdentityToolkit\b/
        for file in files {
            for line in try String(contentsOf: file, encoding: .utf8).split(separator: "\n") where line.contains(importLine) {
                Issue.record("\(file.lastPathComponent) imports IdentityToolkit: \(line)")
            }
        }
    }

    /// Every feature folder is named as its type: `X/XFeature.swift` declares `XFeature`.
    @Test func everyFeatureIsNamedAsItsFolder() throws {
        let features = try Self.features()
        #expect(features.count >= 20)
        for feature in features {
            let main = try #require(feature.sources.first { $0.name == "\(feature.type).swift" })
            #expect(main.text.contains("struct \(feature.type): ConsoleFeature"), "\(feature.type).swift declares another type")
        }
    }

    /// A feature's action enum is its own: every case is one of its keys or handled by it, and none
    /// carries another feature's actions; the root's scope case is the feature's alone.
    @Test func eachFeaturesActionsAreItsOwn() throws {
        let features = try Self.features()
        let types = Set(features.map(\.type))
        var scopes: [String: String] = [:]
        for feature in features where feature.type != "LaunchingFeature" {
            #expect(!feature.scope.isEmpty, "\(feature.type) has no scope in ConsoleAction")
            if let other = scopes[feature.scope] { Issue.record("\(feature.type) and \(other) share ConsoleAction.\(feature.scope)") }
            scopes[feature.scope] = feature.type
            let cases = feature.actionCases
            #expect(!cases.isEmpty, "\(feature.type) declares no actions")
            let uses = feature.sources.map(\.text).joined(separator: "\n")
            for name in cases where uses.components(separatedBy: ".\(name)").count < 2 {
                Issue.record("\(feature.type).Action.\(name) is neither bound nor handled in \(feature.folder.lastPathComponent)/")
            }
            for other in types.subtracting([feature.type]) {
                for kind in ["Action", "Effect", "Event"] where uses.contains("\(other).\(kind)") {
                    Issue.record("\(feature.folder.lastPathComponent)/ names \(other).\(kind)")
                }
            }
        }
    }

    /// A feature runs only its own effects and handles only its own results; the root routes the rest.
    @Test func noFeatureRunsOrSwitchesOverAnotherFeaturesWork() throws {
        let features = try Self.features()
        for feature in features {
            let others = features.filter { $0.type != feature.type && !$0.scope.isEmpty }.map(\.scope)
            for (name, text) in feature.sources {
                for scope in others where text.contains(".run(.\(scope)(") {
                    Issue.record("\(feature.folder.lastPathComponent)/\(name) runs an effect of ConsoleEffect.\(scope)")
                }
                for shared in ["Intent", "FeatureEvent", "ConsoleModel"] where text.contains(try Regex("\\b\(shared)\\b")) {
                    Issue.record("\(feature.folder.lastPathComponent)/\(name) names \(shared)")
                }
            }
        }
    }
}
