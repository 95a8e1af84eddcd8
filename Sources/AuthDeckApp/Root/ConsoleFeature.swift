import AppData
import AuthClient
import Foundation
import TerminalUI

/// One screen of the console, written one way. The conforming value is the screen's state (a
/// case of `Screen` carries it); it answers for its keys (`bindings`, `perform` of its own
/// `Action`s), its typing (`edit`), the results of its own effects (`handle` of its own `Event`s),
/// and its drawing (`draw`). What crosses screens — the signed-in user, the cart, the outbox — it
/// reads from the `ConsoleContext` and never changes itself: it asks the root `ConsoleModel` for
/// work, a message or another screen with `FlowStep`s, and ends with a `FlowExit`.
///
/// The root lifts every feature's actions into one scope (`ConsoleAction.feature`) and its results
/// into another (`ConsoleEvent.feature`), and hands the feature on screen those of its own `Action`
/// and `Event` types, so a feature's `switch` lists only its own cases. A feature with work of its
/// own has a case in `ConsoleEffect` (`.phone`), which routes it to its performer in the runner.
///
/// A key press, end to end: the terminal's `Key` → `ConsoleModel.handle(.key)` → the binding of
/// the current feature whose keys contain it → `perform(action)` → `FlowStep.run(effect)` →
/// `EffectRunner` (on the `Auth` actor or the cart store) → a `ConsoleEvent` back through the
/// mailbox → `ConsoleModel.handle` → the session's own events there, the feature's own
/// (`.feature`, of its `Event` type) to `handle` → the next frame from `draw`.
protocol ConsoleFeature: Equatable, Sendable {
    /// What the feature's keys mean.
    associatedtype Action: Equatable & Sendable
    /// The results of the feature's effects.
    associatedtype Event: FeatureResult
    /// The title bar's name for the screen.
    var title: String { get }
    /// Screens that only make sense with a signed-in user: they give way to the sign-in methods
    /// when the session ends.
    var needsUser: Bool { get }
    /// Printable keys are typed into a field rather than taken as commands (`q`, `?`).
    var editsText: Bool { get }
    /// The keys valid now, in the order the bar shows them.
    func bindings(in context: ConsoleContext) -> [KeyBinding<KeyIntent<Action>>]
    /// The same keys, with their meanings lifted into the root's. This and `receive` are requirements,
    /// though every feature takes the ones below, so that the root's calls through `any ConsoleFeature`
    /// run code made for the feature's own types rather than generic code that looks them up at every key.
    func consoleBindings(in context: ConsoleContext) -> [KeyBinding<ConsoleAction>]
    /// A key's action, if it is this feature's.
    mutating func receive(_ action: ConsoleAction, in context: ConsoleContext) -> [FlowStep]
    mutating func perform(_ action: Action, in context: ConsoleContext) -> [FlowStep]
    /// A key no binding took: typing into the focused field.
    mutating func edit(_ key: Key)
    /// The same, for screens whose typing starts work (a filter as you type); the default edits.
    mutating func typed(_ key: Key, in context: ConsoleContext) -> [FlowStep]
    /// A result of one of this feature's effects, while the feature is on screen.
    mutating func handle(_ event: Event, in context: ConsoleContext) -> [FlowStep]
    /// Where `FlowExit.cancelled` leads back to.
    func screenBefore(in context: ConsoleContext) -> Screen
    func draw(in context: ConsoleContext, on canvas: any Canvas, frame: Rect)
    /// The screen that shows this state.
    var screen: Screen { get }
    /// A failure of work the console ran for this screen (a sign-in, a reauthentication): how the
    /// feature shows it; the default is the banner alone.
    mutating func showFailure(_ error: AuthError) -> [FlowStep]
    /// The result of a sign-in this screen asked the session for; the default takes the routes every
    /// sign-in shares (`AuthResultRoute`) and shows any other failure as `showFailure` does.
    mutating func signInFinished(_ result: Result<SignedIn, AuthError>, in context: ConsoleContext) -> [FlowStep]
    /// The same for a link.
    mutating func linkFinished(_ result: Result<AuthDataResult, AuthError>, in context: ConsoleContext) -> [FlowStep]
    /// The signed-in user's cart changed: a selection in it stays within it.
    mutating func cartChanged(_ cart: [CartItem])
    /// Whether the screen takes the banner's rows on a short terminal.
    var showsQRCode: Bool { get }
    /// The pending credential a sign-in on this screen is meant to link afterwards.
    var pendingLink: PendingLink? { get }
    /// What the presenter's room says this console shows: the screen, and its step where it has steps.
    var roomDescription: String { get }
    /// Text on this screen that a follower must not see (a TOTP key); the room's copy blanks it.
    var secretsOnScreen: [String] { get }
    /// Draws over the whole terminal instead of between the title and key bars; false: it does not.
    func drawWhole(on canvas: any Canvas) -> Bool
    /// Takes the whole terminal and every key while true: none of the console's panes (help, the
    /// inspector, the messages, the SDK pane) opens over it, by F1 to F4, `?` or a key of its own;
    /// ctrl-c and its own quit key still quit.
    var ownsTerminal: Bool { get }
    /// The teaching pane's step for work this screen just asked for (its own effect, or the session's
    /// with a credential it made), read from its state; nil: none of its own (the session's work says).
    func teaching(for effect: ConsoleEffect, in input: TeachingInput) -> TeachingContext?
    /// The step a result just put in front of the user on this screen (a resolver's hints, a QR code); nil: none.
    func teachingAfterResult(in input: TeachingInput) -> TeachingContext?
    /// Before any step was taken: what enter does on this screen, with what is typed so far; nil: nothing to show.
    var teachingPreview: TeachingStep? { get }
}

extension ConsoleFeature {
    var editsText: Bool { false }
    mutating func edit(_ key: Key) {}
    mutating func typed(_ key: Key, in context: ConsoleContext) -> [FlowStep] {
        edit(key)
        return []
    }
    func screenBefore(in context: ConsoleContext) -> Screen { context.home }
    mutating func showFailure(_ error: AuthError) -> [FlowStep] { [.banner(.error(error))] }
    mutating func signInFinished(_ result: Result<SignedIn, AuthError>, in context: ConsoleContext) -> [FlowStep] {
        if let steps = AuthResultRoute.signIn(result) { return steps }
        guard case let .failure(error) = result else { return [] }
        return showFailure(error)
    }
    mutating func linkFinished(_ result: Result<AuthDataResult, AuthError>, in context: ConsoleContext) -> [FlowStep] {
        if let steps = AuthResultRoute.link(result, in: context) { return steps }
        guard case let .failure(error) = result else { return [] }
        return showFailure(error)
    }
    mutating func cartChanged(_ cart: [CartItem]) {}
    var showsQRCode: Bool { false }
    var pendingLink: PendingLink? { nil }
    var roomDescription: String { title }
    var secretsOnScreen: [String] { [] }
    func drawWhole(on canvas: any Canvas) -> Bool { false }
    var ownsTerminal: Bool { false }
    func teaching(for effect: ConsoleEffect, in input: TeachingInput) -> TeachingContext? { nil }
    func teachingAfterResult(in input: TeachingInput) -> TeachingContext? { nil }
    var teachingPreview: TeachingStep? { nil }

    /// The keys, with their meanings lifted into the root's.
    func consoleBindings(in context: ConsoleContext) -> [KeyBinding<ConsoleAction>] {
        bindings(in: context).map { binding in
            binding.map { intent in
                switch intent {
                case let .feature(action): .feature(FeatureAction(action))
                case let .console(command): .console(command)
                }
            }
        }
    }

    /// A key's action, if it is this feature's.
    mutating func receive(_ action: ConsoleAction, in context: ConsoleContext) -> [FlowStep] {
        guard case let .feature(scoped) = action, let own = scoped.action as? Action else { return [] }
        return perform(own, in: context)
    }

    /// An effect's result, if it is this feature's.
    mutating func receive(_ event: FeatureEvent, in context: ConsoleContext) -> [FlowStep] {
        guard let own = event.event(as: Event.self) else { return [] }
        return handle(own, in: context)
    }
}

/// The features that start no work of their own.
extension ConsoleFeature where Event == Never {
    mutating func handle(_ event: Never, in context: ConsoleContext) -> [FlowStep] {}
}
