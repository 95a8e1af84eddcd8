@testable import AuthDeckApp
import Foundation
import TerminalUI
import Testing

/// Every snippet of the catalogue, with the examples' values (and long typed values), as the pane
/// draws its rows at 80 and 120 columns: one file per step, language and width, for the languages'
/// own parsers in Tests/Snippets. `AUTHDECK_SNIPPETS_DIR` names the directory; without it the files
/// go to a temporary one, and the test still checks that every snippet was written.
@Suite("Every snippet is written out as the pane draws it, for the languages' parsers")
struct SnippetExportTests {
    static let columns = [80, 120]

    /// Typed values long enough that a row holds more than the pane is wide.
    static let longValues: [TeachingStep] = [
        .createAccount(email: String(repeating: "grace.brewster.murray.hopper.", count: 3) + "example.com"),
        .microsoftProvider(parameters: [TeachingParameter(name: "tenant", value: "contoso-research-and-development.onmicrosoft.com"),
                                        TeachingParameter(name: "login_hint", value: "ada.lovelace.byron@contoso-research.example.com")],
                           scopes: ["User.Read", "Mail.Read", "Calendars.ReadWrite", "Files.Read.All"]),
        .sendSignInLink(email: "a\"quote$and\\backslash@example.com", continueURL: "https://authdeck.example/finish-sign-in?from=email&step=2"),
    ]

    static func fileExtension(_ platform: SDKPlatform) -> String {
        switch platform {
        case .swift: "swift"
        case .kotlin: "kt"
        case .javascript: "mjs"
        case .cpp: "cpp"
        }
    }

    @Test func everySnippetIsWrittenAsThePaneDrawsIt() throws {
        let environment = ProcessInfo.processInfo.environment["AUTHDECK_SNIPPETS_DIR"]
        let directory = URL(fileURLWithPath: environment ?? NSTemporaryDirectory() + "authdeck-snippets-\(getpid())")
        defer { if environment == nil { try? FileManager.default.removeItem(at: directory) } }
        var written = Set<String>()
        for (flow, snippets) in TeachingCatalogue.flows {
            let folder = directory.appendingPathComponent(flow.lowercased().replacing(" ", with: "-"))
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let steps = TeachingExamples.steps.map { ($0, "") } + Self.longValues.map { ($0, ".long") }
            for (step, variant) in steps where snippets[step.kind] != nil {
                for platform in SDKPlatform.allCases {
                    for width in Self.columns {
                        let frame = ConsoleView.teachingFrame(Size(width: width, height: 24))
                        let pane = TeachingPane(step: step, display: .one(platform))
                        let rows = pane.lines(width: TeachingPane.visibleColumns(in: frame)).filter(\.isCode).map(\.text)
                        #expect(!rows.isEmpty, "\(step.kind) on \(platform)")
                        let name = "\(step.kind)\(variant).\(width).\(Self.fileExtension(platform))"
                        try (rows.joined(separator: "\n") + "\n").write(to: folder.appendingPathComponent(name), atomically: true, encoding: .utf8)
                        written.insert(name)
                    }
                }
            }
        }
        #expect(written.count == (TeachingStep.Kind.allCases.count + Self.longValues.count) * SDKPlatform.allCases.count * Self.columns.count)
    }

    @Test func theRowsWrittenAreTheRowsDrawn() {
        let step = Self.longValues[1]
        let pane = TeachingPane(step: step, display: .one(.kotlin))
        let size = Size(width: 80, height: 24)
        let frame = ConsoleView.teachingFrame(size)
        let canvas = TextCanvas(size: size)
        pane.draw(on: canvas, in: frame)
        let rows = pane.lines(width: TeachingPane.visibleColumns(in: frame)).filter(\.isCode).map(\.text)
        for row in rows where TextWidth.cells(row) <= TeachingPane.visibleColumns(in: frame) {
            #expect(canvas.text.contains(row), "\(row)")
        }
    }
}
