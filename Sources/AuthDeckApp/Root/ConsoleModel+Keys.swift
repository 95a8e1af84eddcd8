import AuthClient
import Foundation
import TerminalUI

/// Keys: ctrl-c and help from anywhere, then the overlay's keys or the current feature's.
extension ConsoleModel {
    /// The keys valid right now, in the order the bar shows them.
    public var bindings: [KeyBinding<ConsoleAction>] {
        guard let kept = builtKeys.bindings else { return buildBindings() }
        assert(kept == buildBindings(), "keys kept for a state that changed without letting them go")
        return kept
    }

    /// The keys of the state as it is, built afresh: what `builtKeys` keeps.
    func buildBindings() -> [KeyBinding<ConsoleAction>] {
        switch overlay {
        case .help:
            return Self.helpBindings
        case .inspector:
            return Self.inspectorBindings
        case .inspectorHelp:
            return Self.inspectorHelpBindings
        case .outbox:
            return outboxBindings
        case .teaching:
            return teachingBindings
        case nil:
            return screenBindings
        }
    }

    /// The keys of the screen itself, whatever overlay is open: what the help overlay lists. A screen
    /// that owns the terminal keeps none that would open a pane over it.
    var screenBindings: [KeyBinding<ConsoleAction>] {
        let own = screen.feature.consoleBindings(in: context)
        guard screen.ownsTerminal else { return withTeachingKey(own) }
        return own.filter { binding in
            if case let .console(command) = binding.intent { command == .quit } else { true }
        }
    }

    mutating func handleKey(_ key: Key) -> [ConsoleEffect] {
        if key == .control("c") { return [.quit] }
        // The screen says it waits for a resize: a key typed blind would act on what is not shown.
        if let terminalSize, terminalSize.width < TooSmall.appMinimum.width || terminalSize.height < TooSmall.appMinimum.height {
            return []
        }
        guard busy == nil else {
            typedAhead.append(key)
            return []
        }
        if !screen.ownsTerminal, openInspectorHelp(key) || toggleHelp(key) { return [] }
        if let binding = bindings.first(where: { $0.keys.contains(key) }) {
            return perform(binding.intent)
        }
        guard overlay == nil else { return [] }
        return update { feature, context in feature.typed(key, in: context) }
    }

    private mutating func perform(_ action: ConsoleAction) -> [ConsoleEffect] {
        switch action {
        case let .overlay(overlayAction):
            switch overlay {
            case let .outbox(selection): return performInOutbox(selection, overlayAction)
            case .help: performInHelp(overlayAction)
            case let .inspector(selection, scroll): performInInspector(selection: selection, scroll: scroll, overlayAction)
            case let .inspectorHelp(selection, scroll): performInInspectorHelp(selection: selection, scroll: scroll, overlayAction)
            case .teaching: if overlayAction == .back { overlay = nil }
            case nil: break
            }
            return []
        // An overlay's own keys answer while it is open; the inspector's help key is taken before.
        case .console where overlay != nil:
            return []
        case let .console(command):
            return perform(command)
        case let .teaching(teachingAction):
            guard case let .teaching(scroll) = overlay else { return [] }
            return performInTeaching(scroll, teachingAction)
        case .feature:
            return update { feature, context in feature.receive(action, in: context) }
        }
    }

    private mutating func perform(_ command: ConsoleCommand) -> [ConsoleEffect] {
        switch command {
        case .quit: return [.quit]
        case .messages:
            return openOutbox()
        case .inspector:
            openInspector()
            return []
        case .help:
            overlay = .help
            return []
        case .teaching:
            openTeaching()
            return []
        }
    }
}
