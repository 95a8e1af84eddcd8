/// The keys of one state of the console, built once for both the bar of the frame that shows that
/// state and the key pressed next: `handle` builds them for the state it leaves, and `bindings` and
/// `barHints` take them while the model is still in that state. A state they were not built for
/// (a model changed outside `handle`) builds its own keys again, as if nothing had been kept.
struct BuiltKeys: Equatable, Sendable {
    private final class Built: Sendable {
        /// The whole state the keys were built for, so no change to anything they read can go unseen.
        let state: ConsoleModel
        let bindings: [KeyBinding<ConsoleAction>]
        let barHints: [(key: String, label: String)]

        init(state: ConsoleModel, bindings: [KeyBinding<ConsoleAction>], barHints: [(key: String, label: String)]) {
            self.state = state
            self.bindings = bindings
            self.barHints = barHints
        }
    }

    private var built: Built?

    /// The keys for `state`: those held when they were built for an equal state, else new ones.
    mutating func update(for state: ConsoleModel) {
        if isBuilt(for: state) { return }
        // The state without the keys it holds: kept with them, those would keep every state before.
        var alone = state
        alone.builtKeys = BuiltKeys()
        let bindings = state.buildBindings()
        built = Built(state: alone, bindings: bindings, barHints: state.barHints(of: bindings))
    }

    func isBuilt(for state: ConsoleModel) -> Bool {
        built?.state == state
    }

    func bindings(for state: ConsoleModel) -> [KeyBinding<ConsoleAction>]? {
        isBuilt(for: state) ? built?.bindings : nil
    }

    func barHints(for state: ConsoleModel) -> [(key: String, label: String)]? {
        isBuilt(for: state) ? built?.barHints : nil
    }

    /// Derived from the state and checked against it on every use, so not part of it: two models in
    /// equal states are equal whatever keys they hold.
    static func == (lhs: BuiltKeys, rhs: BuiltKeys) -> Bool { true }
}
