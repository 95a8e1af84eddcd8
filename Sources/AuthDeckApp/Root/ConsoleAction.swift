/// What a key asks of the console: a command it answers on every screen, a key of the open
/// overlay, or the current feature's own action. Features' actions share one scope, `feature`,
/// where The Composable Architecture gives each child a case of its own: the root routes every
/// feature's key the same way, to the feature on screen, so a case per feature would route nothing.
public enum ConsoleAction: Equatable, Sendable, ConsoleCommanding {
    case console(ConsoleCommand)
    case overlay(OverlayAction)
    case teaching(TeachingAction)
    case feature(FeatureAction)
}

/// The keys of the help, inspector and outbox overlays.
public enum OverlayAction: Equatable, Sendable {
    case up, down, back, choose, refresh, scrollUp, scrollDown
}

/// A feature's action lifted into the root's. It reaches a feature only if it is of that feature's
/// `Action` type, so a feature's `switch` lists only its own cases.
public struct FeatureAction: Equatable, Sendable {
    let action: any Equatable & Sendable

    init(_ action: some Equatable & Sendable) {
        self.action = action
    }

    public static func == (lhs: FeatureAction, rhs: FeatureAction) -> Bool {
        lhs.action.isEqual(to: rhs.action)
    }
}

extension Equatable {
    /// Whether `other` is of this type and equal: how the lifted actions and results compare.
    func isEqual(to other: any Equatable) -> Bool {
        (other as? Self) == self
    }
}
