@testable import AuthDeckApp
import AuthClient
import Foundation
import TerminalUI
import Testing

/// Taking the code home: `y` asks for the step on screen on the visitor's clipboard, `Y` for the
/// transcript of every step, `t` shows the transcript; never a password, tokens shortened.
@Suite("The SDK pane copies the step, or the transcript, to the visitor's clipboard")
struct TeachingCopyTests {
    /// A guest who signs up with a password, then links Google: three steps and a password typed.
    private func guestWhoUpgraded() -> ConsoleModel {
        var model = ConsoleModel(backendName: "embedded")
        model.screen = .signInMethods(SignInMethodsFeature(selection: 0))
        _ = model.handle(.key(.enter))
        model.busy = nil
        model.user = Fixtures.anonymous
        model.screen = .credentialForm(Fixtures.form(.link, email: "ada@example.com", password: "hunter2-secret"))
        _ = model.handle(.key(.enter))
        model.busy = nil
        return model
    }

    @Test func yCopiesTheStepOnScreenInTheLanguageShown() {
        var model = guestWhoUpgraded()
        _ = model.handle(.key(.function(4)))
        _ = model.handle(.key(.character("y")))
        let all = model.teachingSession.clipboard ?? ""
        for platform in SDKPlatform.allCases {
            #expect(all.contains(TeachingStep.upgradeWithPassword(email: "ada@example.com").snippet(on: platform).text), "\(platform)")
        }
        #expect(!all.contains("hunter2-secret"))
        #expect(model.banner?.text.contains("all four languages") == true)
        #expect(model.banner?.text.contains("Some terminals ignore it") == true)

        model.teachingSession.clipboard = nil
        _ = model.handle(.key(.character("l")))
        _ = model.handle(.key(.character("l")))
        _ = model.handle(.key(.character("y")))
        #expect(model.teachingSession.clipboard == "// Upgrade the guest: link an email and password (Kotlin (Android))\n"
            + TeachingStep.upgradeWithPassword(email: "ada@example.com").snippet(on: .kotlin).text + "\n")
        #expect(model.banner?.text.contains("in Kotlin") == true)
    }

    @Test func theTranscriptListsEveryStepInOrderAndYCopiesIt() {
        var model = guestWhoUpgraded()
        #expect(model.teachingSession.transcript == [.anonymousSignIn, .upgradeWithPassword(email: "ada@example.com")])
        _ = model.handle(.key(.function(4)))
        _ = model.handle(.key(.character("l")))
        _ = model.handle(.key(.character("t")))
        let canvas = TextCanvas(size: Size(width: 80, height: 24))
        ConsoleView.draw(model, on: canvas)
        #expect(canvas.text.contains("SDK transcript: 2 steps in Swift"))
        #expect(canvas.text.contains("1. Anonymous sign-in"))
        #expect(canvas.text.contains("2. Upgrade the guest"))
        _ = model.handle(.key(.character("Y")))
        let text = model.teachingSession.clipboard ?? ""
        let first = text.range(of: "signInAnonymously()")
        let second = text.range(of: "link(with: credential)")
        #expect(first != nil && second != nil && first!.lowerBound < second!.lowerBound)
        #expect(!text.contains("hunter2-secret"))
        #expect(model.banner?.text.contains("the transcript (2 steps) in Swift") == true)
        // t goes back to the step.
        _ = model.handle(.key(.character("t")))
        #expect(model.teachingPane(scroll: 0)?.content == .step(.upgradeWithPassword(email: "ada@example.com")))
    }

    @Test func aStepRepeatedByTheNextContextIsRecordedOnce() {
        var session = TeachingSession()
        session.record(TeachingContext(.signInWithPassword(email: "ada@example.com")))
        session.record(TeachingContext(steps: [.signInWithPassword(email: "ada@example.com"),
                                               .secondFactorResolver(email: "ada@example.com", hints: ["Work phone"])]))
        session.record(TeachingContext(.signOut(uid: "u")))
        session.record(TeachingContext(.signInWithPassword(email: "ada@example.com")))
        #expect(session.transcript == [.signInWithPassword(email: "ada@example.com"),
                                       .secondFactorResolver(email: "ada@example.com", hints: ["Work phone"]),
                                       .signOut(uid: "u"), .signInWithPassword(email: "ada@example.com")])
    }

    @Test func tokensAreCopiedShortenedAsOnScreen() {
        let text = TeachingSession.copyText(of: .microsoftGraph(accessToken: TeachingExamples.idToken), on: SDKPlatform.allCases)
        #expect(!text.contains(TeachingExamples.idToken))
        #expect(text.contains(TeachingValue.shorten(TeachingExamples.idToken)))
    }

    @Test func aRowWiderThanThePaneScrollsSideways() {
        var model = ConsoleModel(backendName: "embedded")
        let email = String(repeating: "grace.hopper.", count: 8) + "example.com"
        model.screen = .credentialForm(Fixtures.form(.createAccount, email: email, password: "hunter2-secret"))
        _ = model.handle(.key(.enter))
        model.busy = nil
        model.terminalSize = Size(width: 80, height: 24)
        _ = model.handle(.key(.function(4)))
        #expect(model.bindings.contains { $0.keys.contains(.character(">")) })
        var canvas = TextCanvas(size: Size(width: 80, height: 24))
        ConsoleView.draw(model, on: canvas)
        #expect(canvas.text.contains("< > sideways: columns 1–76 of"))
        #expect(!canvas.text.contains("example.com\""))
        _ = model.handle(.key(.character(">")))
        _ = model.handle(.key(.character(">")))
        #expect(model.teachingSession.column > 0)
        canvas = TextCanvas(size: Size(width: 80, height: 24))
        ConsoleView.draw(model, on: canvas)
        #expect(canvas.text.contains("example.com\""))
        _ = model.handle(.key(.character("<")))
        _ = model.handle(.key(.character("<")))
        #expect(model.teachingSession.column == 0)
    }
}
