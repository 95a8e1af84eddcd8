import AppData
@testable import AuthDeckApp
import AuthClient
import Testing
import TerminalUI

@Suite("Keys built once per state")
struct BuiltKeysTests {
    /// The bar's hints as text, to compare (tuples are not Equatable).
    private func hints(_ hints: [(key: String, label: String)]) -> [String] { hints.map { "\($0.key) \($0.label)" } }

    private func expectKeptKeysAreFresh(_ model: ConsoleModel, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(model.builtKeys.bindings == model.buildBindings(), sourceLocation: sourceLocation)
        #expect(hints(model.builtKeys.barHints ?? []) == hints(model.barHints(of: model.buildBindings())), sourceLocation: sourceLocation)
        #expect(model.bindings == model.buildBindings(), sourceLocation: sourceLocation)
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

    @Test func settingWhatTheKeysAreBuiltFromLetsThemGo() {
        var handled = Fixtures.signedIn(Fixtures.passwordUser())
        _ = handled.handle(.resized(Size(width: 80, height: 24)))
        let changes: [(String, (inout ConsoleModel) -> Void)] = [
            ("screen", { $0.screen = .signInMethods(SignInMethodsFeature(selection: 1)) }),
            ("user", { $0.user = Fixtures.anonymous }),
            ("token", { $0.token = nil }),
            ("cart", { $0.cart = [CartItem(uid: "u", name: "apple", quantity: 1)] }),
            ("overlay", { $0.overlay = .help }),
            ("outbox", { $0.outbox = Outbox() }),
            ("teaching", { $0.teaching = TeachingContext(.anonymousSignIn) }),
            ("teachingDisplay", { $0.teachingDisplay = .one(.swift) }),
        ]
        for (name, change) in changes {
            var model = handled
            #expect(model.builtKeys.bindings != nil)
            change(&model)
            #expect(model.builtKeys.bindings == nil, "\(name)")
            #expect(model.bindings == model.buildBindings(), "\(name)")
        }
        // What the keys are not built from leaves them.
        var model = handled
        model.banner = Banner(.info, "hello")
        model.exchanges = []
        #expect(model.builtKeys.bindings != nil)
    }

    @Test func aKeyActsOnTheKeysOfTheStateItIsPressedIn() {
        var model = ConsoleModel.start(backendName: "embedded", sessionSaved: false).0
        _ = model.handle(.resized(Size(width: 80, height: 24)))
        // The keys kept are the sign-in methods'; the model then changes outside `handle`.
        model.screen = .credentialForm(CredentialFormFeature(purpose: .signIn))
        #expect(hints(model.barHints) == hints(model.barHints(of: model.buildBindings())))
        // `q` types into the form here; on the sign-in methods it would quit.
        #expect(model.handle(.key(.character("q"))) == [])
        expectKeptKeysAreFresh(model)
    }

    @Test func keptKeysMakeNoDifferenceToTheState() {
        let model = ConsoleModel.start(backendName: "embedded", sessionSaved: false).0
        var handled = model
        _ = handled.handle(.roomFrames(false))
        #expect(handled.builtKeys.bindings != nil)
        #expect(model.builtKeys.bindings == nil)
        #expect(handled == model)
    }
}
