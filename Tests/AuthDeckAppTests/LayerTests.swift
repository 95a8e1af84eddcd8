import Foundation
import Testing

/// The rules of docs/architecture.md the compiler cannot check, read from the sources: the app
/// reaches the backend through AuthClient only, its folders say what each part is, and each feature
/// folder is a vertical slice that knows only its own actions, effects and results (the root wraps
/// and routes them).
@Suite("Layers")
struct LayerTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let app = root.appendingPathComponent("Sources/AuthDeckApp")
    static let tests = root.appendingPathComponent("Tests/AuthDeckAppTests")

    static func folders(in folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: [.isDirectoryKey])
            .filter { (try? $0.resourceValues(forKeys: [.isDirectoryKey]).isDirectory) == true }
            .map(\.lastPathComponent).filter { !$0.hasPrefix("_") }.sorted()
    }

    static func swiftFiles(in folder: URL) throws -> [URL] {
        try #require(FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil))
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
    }

    /// A feature: a folder of `Sources/AuthDeckApp/Features` with an `XFeature.swift` that declares `XFeature`,
    /// and the case of the root's `Screen` that carries its state (and its effects and results, where it has any).
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
        let folders = try FileManager.default.contentsOfDirectory(at: app.appendingPathComponent("Features"), includingPropertiesForKeys: nil)
        return try folders.compactMap { folder -> Feature? in
            let type = folder.lastPathComponent + "Feature"
            let main = folder.appendingPathComponent("\(type).swift")
            guard FileManager.default.fileExists(atPath: main.path) else { return nil }
            let sources = try swiftFiles(in: folder).map { ($0.lastPathComponent, try String(contentsOf: $0, encoding: .utf8)) }
            let text = try String(contentsOf: main, encoding: .utf8)
            let screen = /var screen: Screen \{ \.(\w+)\(self\) \}/
            let scope = text.firstMatch(of: screen).map { String($0.1) } ?? ""
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

    /// The app's top folders name the parts of the design: the root's model and types, the runtime that
    /// runs effects, the features, the overlays over them, and the kit of pieces they share.
    @Test func theFoldersSayWhatEachPartIs() throws {
        #expect(try Self.folders(in: Self.app) == ["Features", "Kit", "Overlays", "Root", "Runtime"])
        #expect(try Self.folders(in: Self.app.appendingPathComponent("Overlays")) == ["Help", "Inspector", "Outbox", "Teaching"])
    }

    /// A file a reader takes in at once: no source file of any target is over 400 lines.
    @Test(arguments: ["Sources/AuthDeckApp", "Sources/AuthClient", "Sources/AuthAdmin", "Sources/AppData", "Sources/IdentityToolkit",
                      "Sources/IdentityEmulator", "Sources/IdentityServer", "Sources/SSHServer", "Sources/RoomChannel",
                      "Sources/TerminalUI", "Sources/authdeck"])
    func noSourceFileIsOver400Lines(_ folder: String) throws {
        for file in try Self.swiftFiles(in: Self.root.appendingPathComponent(folder)) {
            let lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false).count - 1
            #expect(lines <= 400, "\(file.lastPathComponent) has \(lines) lines")
        }
    }

    /// Every folder of `Features/` holds its feature and its view: `X/XFeature.swift` declares
    /// `XFeature`, and the folder draws it.
    @Test func everyFeatureFolderHoldsItsFeatureAndItsView() throws {
        let folders = try Self.folders(in: Self.app.appendingPathComponent("Features"))
        let features = try Self.features()
        #expect(features.count >= 20)
        #expect(features.map(\.folder.lastPathComponent).sorted() == folders, "a folder of Features/ without its XFeature.swift")
        for feature in features {
            let main = try #require(feature.sources.first { $0.name == "\(feature.type).swift" })
            #expect(main.text.contains("struct \(feature.type): ConsoleFeature"), "\(feature.type).swift declares another type")
            #expect(feature.sources.contains { $0.text.contains("func draw(in context: ConsoleContext") }, "\(feature.type) is drawn outside its folder")
        }
    }

    /// Only `Features/` holds features, and the kit knows none of them, nor the root model.
    @Test func featuresLiveInFeaturesAndTheKitKnowsNone() throws {
        let types = try Self.features().map(\.type)
        for part in ["Root", "Runtime", "Overlays", "Kit"] {
            for file in try Self.swiftFiles(in: Self.app.appendingPathComponent(part)) {
                let text = try String(contentsOf: file, encoding: .utf8)
                if text.contains(try Regex(#"(struct|enum) \w+: ConsoleFeature"#)) { Issue.record("\(part)/\(file.lastPathComponent) declares a feature") }
                guard part == "Kit" else { continue }
                for name in types + ["ConsoleModel"] where text.contains(try Regex("\\b\(name)\\b")) {
                    Issue.record("Kit/\(file.lastPathComponent) names \(name)")
                }
            }
        }
    }

    /// The teaching pane reads no feature's state: each feature says which step its work or a result
    /// is (`XFeature+Teaching.swift`), so changing a feature's steps touches only its folder.
    @Test func theTeachingPaneReadsNoFeaturesState() throws {
        let features = try Self.features()
        let stateOnScreen = /case (let )?\.\w+\([^)]*\) = screen/
        for file in try Self.swiftFiles(in: Self.app.appendingPathComponent("Overlays/Teaching")) {
            let text = try String(contentsOf: file, encoding: .utf8)
            for feature in features where text.contains(feature.type) {
                Issue.record("Overlays/Teaching/\(file.lastPathComponent) names \(feature.type)")
            }
            for match in text.matches(of: stateOnScreen) { Issue.record("Overlays/Teaching/\(file.lastPathComponent) reads \(match.0)") }
        }
        let teaching = features.filter { feature in feature.sources.contains { $0.name == "\(feature.type)+Teaching.swift" } }
        #expect(teaching.count >= 9)
    }

    /// The tests are arranged as the sources: a feature's or an overlay's tests sit in a folder of the
    /// same name; flows across several features sit in `Journeys/`.
    @Test func theTestsMirrorTheSources() throws {
        #expect(try Set(Self.folders(in: Self.tests)).isSubset(of: ["Features", "Journeys", "Kit", "Overlays", "Root", "Runtime", "Support"]))
        for part in ["Features", "Overlays"] {
            let sources = Set(try Self.folders(in: Self.app.appendingPathComponent(part)))
            for folder in try Self.folders(in: Self.tests.appendingPathComponent(part)) where !sources.contains(folder) {
                Issue.record("Tests/AuthDeckAppTests/\(part)/\(folder) tests no folder of Sources/AuthDeckApp/\(part)")
            }
        }
    }

    /// A feature's action enum is its own: every case is one of its keys or handled by it, and none
    /// carries another feature's actions; its case of `Screen` is the feature's alone.
    @Test func eachFeaturesActionsAreItsOwn() throws {
        let features = try Self.features()
        let types = Set(features.map(\.type))
        var scopes: [String: String] = [:]
        for feature in features where feature.type != "LaunchingFeature" {
            #expect(!feature.scope.isEmpty, "\(feature.type) has no case in Screen")
            if let other = scopes[feature.scope] { Issue.record("\(feature.type) and \(other) share Screen.\(feature.scope)") }
            scopes[feature.scope] = feature.type
            let cases = feature.actionCases
            #expect(!cases.isEmpty, "\(feature.type) declares no actions")
            let uses = feature.sources.map(\.text).joined(separator: "\n")
            for name in cases where uses.components(separatedBy: ".\(name)").count < 2 {
                Issue.record("\(feature.type).Action.\(name) is neither bound nor handled in \(feature.folder.lastPathComponent)/")
            }
            // Its actions, effects and results are nested in it, not types of the folder beside it.
            let loose = /(?m)^(public )?enum (\w*(Action|Intent|Command|Effect|Event))\b/
            for (name, text) in feature.sources {
                for match in text.matches(of: loose) { Issue.record("\(name) declares \(match.2) outside \(feature.type)") }
            }
            for other in types.subtracting([feature.type]) {
                for kind in ["Action", "Effect", "Event"] where uses.contains("\(other).\(kind)") {
                    Issue.record("\(feature.folder.lastPathComponent)/ names \(other).\(kind)")
                }
            }
        }
    }

    /// A feature's results reach it as its actions do, through one scope (`ConsoleEvent.feature`): the
    /// root's events name no feature's `Event`, and no feature picks its results out of the root's.
    @Test func featuresResultsShareOneScope() throws {
        let events = try String(contentsOf: Self.app.appendingPathComponent("Root/ConsoleEvent.swift"), encoding: .utf8)
        #expect(events.contains("case feature(FeatureEvent)"))
        for feature in try Self.features() {
            #expect(!events.contains("\(feature.type).Event"), "ConsoleEvent has a case for \(feature.type)")
            for (name, text) in feature.sources where text.contains("func extract(") {
                Issue.record("\(feature.folder.lastPathComponent)/\(name) picks its results out of ConsoleEvent")
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
