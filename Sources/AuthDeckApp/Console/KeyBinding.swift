import TerminalUI

/// What a key means on the current screen. The bottom bar and the help overlay are drawn from
/// the same bindings the model dispatches on, so they can only show keys that work.
public enum Intent: Equatable, Sendable {
    case up, down, choose, back, nextField, previousField, submit
    case quit, help, inspector
    case nextPane
    case addItem, removeItem
    case link, unlink, changePassword, changeEmail, deleteAccount, signOut
    case confirm, cancel, toggle
    case verifyEmail, secondFactors, enrollSms, enrollTotp, linkPhone, messages, resend, refresh
    case addIdentity, toggleHideEmail
    case accounts(AccountsIntent)
}

public struct KeyBinding: Equatable, Sendable {
    public var keys: [Key]
    /// How the key is written in the bar: `enter`, `tab`, `a`.
    public var label: String
    public var action: String
    public var intent: Intent
    /// Movement keys are in help only; the bar keeps to what a newcomer needs next.
    public var inBar: Bool

    init(_ keys: [Key], _ label: String, _ action: String, _ intent: Intent, inBar: Bool = true) {
        self.keys = keys
        self.label = label
        self.action = action
        self.intent = intent
        self.inBar = inBar
    }

    static func char(_ c: Character, _ action: String, _ intent: Intent, inBar: Bool = true) -> KeyBinding {
        KeyBinding([.character(c)], String(c), action, intent, inBar: inBar)
    }

    static let moveUp = KeyBinding([.up, .character("k")], "↑/k", "move up", .up, inBar: false)
    static let moveDown = KeyBinding([.down, .character("j")], "↓/j", "move down", .down, inBar: false)
    static let back = KeyBinding([.escape], "esc", "back", .back)
    static let quit = KeyBinding([.character("q")], "q", "quit", .quit)
    static let help = KeyBinding([.character("?")], "?", "help", .help)
    static let helpInForm = KeyBinding([.function(1)], "F1", "help", .help)
    static let inspector = KeyBinding([.character("i")], "i", "inspector", .inspector)
    static let inspectorInForm = KeyBinding([.function(2)], "F2", "inspector", .inspector)
    static let messages = KeyBinding([.character("m")], "m", "messages", .messages)
    static let messagesInForm = KeyBinding([.function(3)], "F3", "messages", .messages)

    /// A form's keys: printable keys are typed, so commands are on enter, tab, esc and function keys.
    static let formKeys: [KeyBinding] = [
        KeyBinding([.enter], "enter", "submit", .submit),
        KeyBinding([.tab, .down], "tab", "next", .nextField),
        KeyBinding([.backTab, .up], "shift-tab", "previous field", .previousField, inBar: false),
        .back, .helpInForm, .inspectorInForm,
    ]
}
