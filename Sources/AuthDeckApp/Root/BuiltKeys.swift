/// The keys of the model's state, built once for both the bar of the frame that shows that state and
/// the key pressed next: `handle` builds them for the state it leaves. Setting any property of the model
/// they are built from lets them go (its `didSet`), and they are built anew when next asked for.
struct BuiltKeys: Equatable, Sendable {
    let bindings: [KeyBinding<ConsoleAction>]?
    let barHints: [(key: String, label: String)]?

    /// None kept: the next use builds them.
    init() {
        bindings = nil
        barHints = nil
    }

    init(bindings: [KeyBinding<ConsoleAction>], barHints: [(key: String, label: String)]) {
        self.bindings = bindings
        self.barHints = barHints
    }

    /// Derived from the state, so not part of it: two models in equal states are equal whatever keys they hold.
    static func == (lhs: BuiltKeys, rhs: BuiltKeys) -> Bool { true }
}
