import TerminalUI

/// What a key means on the current screen. The bottom bar and the help overlay are drawn from
/// the same bindings the model dispatches on, so they can only show keys that work.
/// `Meaning` is what the key asks for: a feature's `KeyIntent`, or the root's `ConsoleAction`.
/// Equatable only where `Meaning` is, not as a requirement on `Meaning`: a generic type whose
/// parameter must conform costs a scan of every protocol conformance in the binary the first time
/// the runtime makes one from its mangled name, and the first screen makes several.
public struct KeyBinding<Meaning: Sendable>: Sendable {
    public var keys: [Key]
    /// How the key is written in the bar: `enter`, `tab`, `a`.
    public var label: String
    /// What the key does, in the bar and in help: `sign in`, `close`.
    public var help: String
    public var intent: Meaning
    /// Movement keys are in help only; the bar keeps to what a newcomer needs next.
    public var inBar: Bool

    init(_ keys: [Key], _ label: String, _ help: String, _ intent: Meaning, inBar: Bool = true) {
        self.keys = keys
        self.label = label
        self.help = help
        self.intent = intent
        self.inBar = inBar
    }

    static func char(_ c: Character, _ help: String, _ intent: Meaning, inBar: Bool = true) -> KeyBinding {
        KeyBinding([.character(c)], String(c), help, intent, inBar: inBar)
    }

    /// The same key with its meaning lifted into the parent's: how the root scopes a feature's keys.
    func map<Lifted>(_ transform: (Meaning) -> Lifted) -> KeyBinding<Lifted> {
        KeyBinding<Lifted>(keys, label, help, transform(intent), inBar: inBar)
    }
}

/// The commands the console answers on every screen, whichever feature shows it.
public enum ConsoleCommand: Equatable, Sendable {
    case quit, help, inspector, messages
    /// The teaching pane: the SDK code of the step just taken.
    case teaching
}

/// What a key on a feature's screen asks for: one of the feature's own actions, or a command the
/// console answers (help, the inspector, the outbox, quit).
/// Equatable where `Action` is, for the reason `KeyBinding` is.
public enum KeyIntent<Action: Sendable>: Sendable {
    case feature(Action)
    case console(ConsoleCommand)
}

extension KeyBinding: Equatable where Meaning: Equatable {}
extension KeyIntent: Equatable where Action: Equatable {}

/// A meaning that can carry a console command: a feature's key, or the root's action.
protocol ConsoleCommanding: Equatable, Sendable {
    static func console(_ command: ConsoleCommand) -> Self
}

extension KeyIntent: ConsoleCommanding where Action: Equatable {}

/// The keys every screen writes the same way: help, the inspector, the outbox, quit.
extension KeyBinding where Meaning: ConsoleCommanding {
    static var quit: KeyBinding { KeyBinding([.character("q")], "q", "quit", .console(.quit)) }
    static var help: KeyBinding { KeyBinding([.character("?")], "?", "help", .console(.help)) }
    static var helpInForm: KeyBinding { KeyBinding([.function(1)], "F1", "help", .console(.help)) }
    static var inspector: KeyBinding { KeyBinding([.character("i")], "i", "inspector", .console(.inspector)) }
    static var inspectorInForm: KeyBinding { KeyBinding([.function(2)], "F2", "inspector", .console(.inspector)) }
    static var messages: KeyBinding { KeyBinding([.character("m")], "m", "messages", .console(.messages)) }
    static var messagesInForm: KeyBinding { KeyBinding([.function(3)], "F3", "messages", .console(.messages)) }
    static var teaching: KeyBinding { KeyBinding([.character("s")], "s", "SDK", .console(.teaching)) }
    static var teachingInForm: KeyBinding { KeyBinding([.function(4)], "F4", "SDK", .console(.teaching)) }
}

/// A feature's own key, written with its action alone: `KeyBinding([.enter], "enter", "add", .submit)`.
extension KeyBinding {
    init<Action>(_ keys: [Key], _ label: String, _ help: String, _ own: Action, inBar: Bool = true) where Meaning == KeyIntent<Action> {
        self.init(keys, label, help, .feature(own), inBar: inBar)
    }

    static func char<Action>(_ c: Character, _ help: String, _ own: Action, inBar: Bool = true) -> KeyBinding where Meaning == KeyIntent<Action> {
        KeyBinding([.character(c)], String(c), help, .feature(own), inBar: inBar)
    }
}

/// The actions of a feature with a list: the movement keys bind to them.
protocol ListAction: Equatable, Sendable {
    static var up: Self { get }
    static var down: Self { get }
}

/// The actions of a feature that esc leaves.
protocol BackAction: Equatable, Sendable {
    static var back: Self { get }
}

/// The actions of a form: enter moves on or submits, tab and shift-tab move between fields (keys in `FormFields`).
protocol FormAction: BackAction {
    static var submit: Self { get }
    static var nextField: Self { get }
    static var previousField: Self { get }
}

extension KeyBinding {
    static func moveUp<Action: ListAction>() -> KeyBinding where Meaning == KeyIntent<Action> {
        KeyBinding([.up, .character("k")], "↑/k", "move up", .feature(.up), inBar: false)
    }

    static func moveDown<Action: ListAction>() -> KeyBinding where Meaning == KeyIntent<Action> {
        KeyBinding([.down, .character("j")], "↓/j", "move down", .feature(.down), inBar: false)
    }

    static func back<Action: BackAction>() -> KeyBinding where Meaning == KeyIntent<Action> {
        KeyBinding([.escape], "esc", "back", .feature(.back))
    }
}
