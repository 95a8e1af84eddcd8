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
    func rowsBreakOnlyWhereTheLanguageAllowsAndKeepEveryToken(width: Int) {
        for step in TeachingExamples.steps {
            for platform in SDKPlatform.allCases {
                for source in step.snippet(on: platform).text.split(separator: "\n") {
                    let rows = CodeWrap.wrap(String(source), width: width)
                    let (code, comment) = CodeWrap.splitComment(String(source.drop { $0 == " " }))
                    // The code's rows, joined, are its code: no token cut, none lost.
                    let codeRows = rows.map { CodeWrap.splitComment(String($0.drop { $0 == " " })).code }.filter { !$0.isEmpty }
                    #expect(codeRows.joined().filter { $0 != " " } == code.filter { $0 != " " }, "\(step.kind) on \(platform) at \(width)")
                    // Every row the comment takes starts a comment, and the words are the comment's.
                    let commentRows = rows.compactMap { CodeWrap.splitComment(String($0.drop { $0 == " " })).comment }
                    #expect(commentRows.joined(separator: " ").split(separator: " ").filter { $0 != "//" }
                        == (comment ?? "").split(separator: " ").filter { $0 != "//" }, "\(step.kind) on \(platform) at \(width)")
                    // With the examples' values, in the pane at 80 columns, every row fits.
                    if width >= 76 {
                        #expect(rows.allSatisfy { TextWidth.cells($0) <= width }, "\(step.kind) on \(platform) at \(width): \(rows)")
                    }
                }
            }
        }
    }

    @Test func aLongCommentGoesOnRowsThatAreEachAComment() {
        for (platform, line) in [(SDKPlatform.swift, "    let user = result.user  // the account's uid, email, providers and whether the email is verified"),
                                 (.cpp, "// The C++ SDK has no call to confirm a reset: the link in the email opens Firebase's hosted page")] {
            let rows = CodeWrap.wrap(line, width: 40)
            #expect(rows.count > 2, "\(platform)")
            #expect(rows.allSatisfy { TextWidth.cells($0) <= 40 }, "\(platform)")
            #expect(rows.dropFirst().allSatisfy { $0.drop { $0 == " " }.hasPrefix("//") }, "\(platform): \(rows)")
        }
    }

    @Test func aStringLiteralIsNeverCut() {
        let email = String(repeating: "a", count: 60) + "@example.com"
        let rows = CodeWrap.wrap("let result = try await Auth.auth().signIn(withEmail: \"\(email)\", password: password)", width: 50)
        #expect(rows.contains { $0.contains("\"\(email)\"") })
        #expect(rows.filter { $0.contains("\"") }.allSatisfy { $0.filter { $0 == "\"" }.count % 2 == 0 })
    }

    @Test func aContinuationRowIsIndentedPastItsLine() {
        let rows = CodeWrap.wrap("    let credential = OAuthProvider.appleCredential(withIDToken: idToken, rawNonce: nonce)", width: 40)
        #expect(rows.count > 1)
        #expect(rows.dropFirst().allSatisfy { $0.hasPrefix("        ") })
    }
}
