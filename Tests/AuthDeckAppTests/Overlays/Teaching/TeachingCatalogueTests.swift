@testable import AuthDeckApp
import Testing

@Suite("Every step of every flow has code on all four platforms with the run's values")
struct TeachingCatalogueTests {
    @Test func everyKindHasExactlyOneSnippetSetAcrossTheFlowFiles() {
        let counts = TeachingCatalogue.flows.flatMap { $0.snippets.keys }.reduce(into: [TeachingStep.Kind: Int]()) { $0[$1, default: 0] += 1 }
        for kind in TeachingStep.Kind.allCases {
            #expect(counts[kind] == 1, "\(kind)")
        }
    }

    @Test func theExamplesCoverEveryKind() {
        #expect(Set(TeachingExamples.steps.map(\.kind)) == Set(TeachingStep.Kind.allCases))
    }

    @Test(arguments: TeachingExamples.steps)
    func everyPlatformShowsTheStepWithItsValuesFilledIn(step: TeachingStep) {
        #expect(!step.title.isEmpty)
        for platform in SDKPlatform.allCases {
            let snippet = step.snippet(on: platform)
            #expect(!snippet.text.isEmpty, "\(platform)")
            #expect(Snippet.placeholders(in: snippet.text).isEmpty, "\(platform): \(snippet.text)")
            guard snippet.isAvailable else { continue }
            for (name, value) in step.values {
                #expect(snippet.text.contains(value.filling(for: platform)), "\(platform) lacks {\(name)}")
            }
        }
    }

    @Test func onlyTheCppSDKLacksSteps() {
        for step in TeachingExamples.steps {
            for platform in [SDKPlatform.swift, .kotlin, .javascript] {
                #expect(step.snippet(on: platform).isAvailable, "\(step.kind) on \(platform)")
            }
        }
    }

    @Test func secretsAreShownShortenedOrHiddenNeverWhole() {
        let code = "123456"
        let verificationID = "AM5PThBq1xV0kK2zL9rT"
        for step in [TeachingStep.phoneSignIn(verificationID: verificationID, code: code),
                     .upgradeWithPhone(phoneNumber: "+15555550100", verificationID: verificationID, code: code)] {
            for platform in SDKPlatform.allCases {
                let text = step.snippet(on: platform).text
                #expect(!text.contains(code), "\(platform)")
                #expect(!text.contains(verificationID), "\(platform)")
            }
        }
        let swift = TeachingStep.microsoftGraph(accessToken: TeachingExamples.idToken).snippet(on: .swift).text
        #expect(!swift.contains(TeachingExamples.idToken))
        #expect(swift.contains("eyJhbGciOi…(\(TeachingExamples.idToken.count))"))
        #expect(TeachingStep.phoneSignIn(verificationID: verificationID, code: code).snippet(on: .kotlin).text.contains("•••(6)"))
    }

    @Test func aTypedValueStaysInsideItsStringLiteral() {
        let step = TeachingStep.signInWithPassword(email: "a\"b$c\\d@example.com")
        #expect(step.snippet(on: .swift).text.contains(#""a\"b$c\\d@example.com""#))
        #expect(step.snippet(on: .kotlin).text.contains(#""a\"b\$c\\d@example.com""#))
        #expect(step.snippet(on: .javascript).text.contains(#""a\"b$c\\d@example.com""#))
        let multiline = TeachingStep.createAccount(email: "x\ny\u{1B}@example.com").snippet(on: .cpp).text
        #expect(multiline.contains(#""x\ny@example.com""#))
    }

    @Test func aListFillsAsLiteralsAndAnUnknownPlaceholderStays() {
        let snippet: Snippet = "scopes = [{scopes}] {missing} {{scopes}}"
        let filled = snippet.filled(with: ["scopes": .list(["a", "b"])], for: .javascript)
        #expect(filled == #"scopes = ["a", "b"] {missing} {"a", "b"}"#)
        #expect(Snippet.placeholders(in: filled) == ["missing"])
    }

    @Test func beforeTheStepACommentShowsNoValueTheRunDoesNotHave() {
        for platform in SDKPlatform.allCases {
            let nonce = TeachingStep.appleNonce(nonce: "").snippet(on: platform).text
            #expect(!nonce.contains("This run"), "\(platform)")
            #expect(!TeachingStep.googleCredential(email: "").snippet(on: platform).text.contains("This run's account"), "\(platform)")
            // With the value, the line is there.
            #expect(TeachingStep.appleNonce(nonce: TeachingExamples.nonce).snippet(on: platform).text.contains(TeachingExamples.nonce))
        }
        // Code keeps its line: an empty map is still the provider's parameters.
        #expect(TeachingStep.microsoftProvider(parameters: [], scopes: []).snippet(on: .swift).text.contains("provider.customParameters = [:]"))
    }

    @Test func theSDKOptionNamesAPlatform() {
        #expect(SDKPlatform(option: "swift") == .swift)
        #expect(SDKPlatform(option: "kotlin") == .kotlin)
        #expect(SDKPlatform(option: "js") == .javascript)
        #expect(SDKPlatform(option: "JavaScript") == .javascript)
        #expect(SDKPlatform(option: "cpp") == .cpp)
        #expect(SDKPlatform(option: "c++") == .cpp)
        #expect(SDKPlatform(option: "rust") == nil)
    }
}
