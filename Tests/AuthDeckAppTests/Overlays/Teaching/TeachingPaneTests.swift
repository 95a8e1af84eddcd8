@testable import AuthDeckApp
import SnapshotTesting
import TerminalUI
import Testing

@Suite("The teaching pane shows each platform's code under its header, wrapped between tokens, scrollable")
struct TeachingPaneTests {
    private func render(_ pane: TeachingPane, size: Size = Size(width: 80, height: 24)) -> String {
        let canvas = TextCanvas(size: size)
        pane.draw(on: canvas, in: Rect(row: 0, column: 0, width: size.width, height: size.height))
        return canvas.text
    }

    @Test func appleCredentialWithTheRawNonce() {
        let pane = TeachingPane(step: .appleCredential(nonce: TeachingExamples.nonce))
        assertSnapshot(of: render(pane), as: .lines)
    }

    @Test func microsoftProviderWithItsTenantScrolledToKotlin() {
        let step = TeachingExamples.steps.first { $0.kind == .microsoftProvider }!
        let top = TeachingPane(step: step)
        let kotlinHeader = top.lines(width: 76).firstIndex { $0.text == SDKPlatform.kotlin.title }!
        assertSnapshot(of: render(top), as: .lines, named: "top")
        assertSnapshot(of: render(TeachingPane(step: step, scroll: kotlinHeader)), as: .lines, named: "kotlin")
    }

    @Test func totpEnrolmentInSwiftAtFullWidth() {
        let step = TeachingStep.totpEnrollmentFinish(displayName: "Authenticator", code: "246810")
        assertSnapshot(of: render(TeachingPane(step: step, display: .one(.swift))), as: .lines)
    }

    @Test func theSecondFactorResolverScrolledToTheEnd() {
        let step = TeachingStep.secondFactorResolver(email: "ada@example.com", hints: ["Work phone", "Authenticator"])
        let frame = Rect(row: 0, column: 0, width: 80, height: 24)
        let pane = TeachingPane(step: step, scroll: .max)
        let text = render(pane)
        #expect(text.contains("lines \(pane.maxScroll(in: frame) + 1)–"))
        assertSnapshot(of: text, as: .lines)
    }

    @Test func scrollingPastTheEndShowsTheLastPage() {
        let step = TeachingStep.secondFactorResolver(email: "ada@example.com", hints: ["Work phone"])
        let frame = Rect(row: 0, column: 0, width: 80, height: 24)
        let last = TeachingPane(step: step, scroll: TeachingPane(step: step).maxScroll(in: frame))
        #expect(render(TeachingPane(step: step, scroll: 10_000)) == render(last))
        #expect(render(TeachingPane(step: step, scroll: -3)) == render(TeachingPane(step: step)))
    }

    @Test func aShortSnippetHasNoScrollPosition() {
        let text = render(TeachingPane(step: .signOut(uid: "Vq3kT9sLx2"), display: .one(.cpp)))
        #expect(!text.contains("lines "))
        #expect(text.contains("C++"))
        #expect(text.contains("auth->SignOut();"))
    }

    @Test(arguments: [76, 50, 36])
    func noRowCutsAnIdentifierOrOverflows(width: Int) {
        for step in TeachingExamples.steps {
            for platform in SDKPlatform.allCases {
                for source in step.snippet(on: platform).text.split(separator: "\n") {
                    let rows = CodeWrap.wrap(String(source), width: width)
                    #expect(rows.allSatisfy { TextWidth.cells($0) <= width })
                    // Every token of the line is kept, in order.
                    #expect(rows.joined().filter { $0 != " " } == source.filter { $0 != " " })
                    // Identifiers come out whole: the rows' words are the line's words. Only a word wider
                    // than a continuation row may be cut.
                    let indent = min(source.prefix { $0 == " " }.count, width / 2)
                    let room = width - min(indent + 4, width / 2)
                    let words = { (text: String) in
                        CodeWrap.tokens(text, literalsWhole: false).filter { $0.allSatisfy(CodeWrap.isIdentifierCharacter) }
                    }
                    guard words(String(source)).allSatisfy({ TextWidth.cells($0) <= room }) else { continue }
                    #expect(rows.flatMap(words) == words(String(source)), "\(step.kind) on \(platform) at \(width)")
                }
            }
        }
    }

    @Test func aContinuationRowIsIndentedPastItsLine() {
        let rows = CodeWrap.wrap("    let credential = OAuthProvider.credential(providerID: .apple, idToken: idToken)", width: 40)
        #expect(rows.count > 1)
        #expect(rows.dropFirst().allSatisfy { $0.hasPrefix("        ") })
    }
}
