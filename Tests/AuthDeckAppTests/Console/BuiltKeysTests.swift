@testable import AuthDeckApp
import AuthClient
import Testing
import TerminalUI

@Suite("Keys built once per state")
struct BuiltKeysTests {
    /// The bar's hints as text, to compare (tuples are not Equatable).
    private func hints(_ hints: [(key: String, label: String)]) -> [String] { hints.map { "\($0.key) \($0.label)" } }

    private func expectKeptKeysAreFresh(_ model: ConsoleModel, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(model.builtKeys.isBuilt(for: model), sourceLocation: sourceLocation)
        #expect(model.bindings == model.buildBindings(), sourceLocation: sourceLocation)
        #expect(hints(model.barHints) == hints(model.barHints(of: model.buildBindings())), sourceLocation: sourceLocation)
    }

    @Test func theKeysKeptAfterEachEventAreThoseBuiltAfresh() {
        var (model, _) = ConsoleModel.start(backendName: "embedded", sessionSaved: false)
        _ = model.handle(.resized(Size(width: 80, height: 24)))
        expectKeptKeysAreFresh(model)
        for key in [Key.down, .down, .up, .character("?"), .escape, .character("i"), .escape, .character("m"), .escape, .character("s"), .escape] {
            _ = model.handle(.key(key))
            expectKeptKeysAreFresh(model)
        }
        var signedIn = Fixtures.signedIn(Fixtures.passwordUser())
        _ = signedIn.handle(.resized(Size(width: 80, height: 24)))
        for key in [Key.tab, .character("a"), .escape, .character("?"), .escape] {
            _ = signedIn.handle(.key(key))
            expectKeptKeysAreFresh(signedIn)
        }
    }

    @Test func aKeyActsOnTheKeysOfTheStateItIsPressedIn() {
        var model = ConsoleModel.start(backendName: "embedded", sessionSaved: false).0
        _ = model.handle(.resized(Size(width: 80, height: 24)))
        // The keys kept are the sign-in methods'; the model then changes outside `handle`.
        model.screen = .credentialForm(CredentialFormFeature(purpose: .signIn))
        #expect(!model.builtKeys.isBuilt(for: model))
        #expect(model.bindings == model.buildBindings())
        #expect(hints(model.barHints) == hints(model.barHints(of: model.buildBindings())))
        // `q` types into the form here; on the sign-in methods it would quit.
        #expect(model.handle(.key(.character("q"))) == [])
        expectKeptKeysAreFresh(model)
    }

    @Test func aChangeToWhatTheKeysReadBuildsThemAgain() {
        var model = Fixtures.signedIn(Fixtures.passwordUser())
        _ = model.handle(.resized(Size(width: 80, height: 24)))
        let before = model.bindings
        // The context: an anonymous user has no email to change.
        model.user = Fixtures.anonymous
        #expect(!model.builtKeys.isBuilt(for: model))
        #expect(model.bindings != before)
        #expect(model.bindings == model.buildBindings())
        // The overlay.
        _ = model.handle(.key(.character("?")))
        model.overlay = nil
        #expect(model.bindings == model.buildBindings())
    }

    @Test func keptKeysMakeNoDifferenceToTheState() {
        let model = ConsoleModel.start(backendName: "embedded", sessionSaved: false).0
        var handled = model
        _ = handled.handle(.roomFrames(false))
        #expect(handled.builtKeys.isBuilt(for: handled))
        #expect(!model.builtKeys.isBuilt(for: model))
        #expect(handled == model)
    }
}
