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
            return [KeyBinding([.escape, .character("?"), .enter, .character("q")], "esc", "close help", .overlay(.back))]
        case .inspector:
            return Self.inspectorBindings
        case .inspectorHelp:
            return [KeyBinding([.escape, .character("?"), .function(1), .enter, .character("q")], "esc", "back to the inspector", .overlay(.back))]
        case .outbox:
            return outboxBindings
        case .teaching:
            return teachingBindings
        case nil:
            return screenBindings
        }
    }

    /// The keys of the screen itself, whatever overlay is open: what the help overlay lists.
    var screenBindings: [KeyBinding<ConsoleAction>] { withTeachingKey(screen.feature.consoleBindings(in: context)) }

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
        if case let .inspector(selection, scroll) = overlay, key == .function(1) || key == .character("?") {
            overlay = .inspectorHelp(selection: selection, scroll: scroll)
            return []
        }
        if overlay?.isInspectorHelp != true, key == .function(1) || (key == .character("?") && !screen.editsText) {
            overlay = overlay == .help ? nil : .help
            return []
        }
        if let binding = bindings.first(where: { $0.keys.contains(key) }) {
            return perform(binding.intent)
        }
        guard overlay == nil else { return [] }
        return update { feature, context in feature.typed(key, in: context) }
    }

    private mutating func perform(_ action: ConsoleAction) -> [ConsoleEffect] {
        switch action {
        case let .overlay(overlayAction):
            if case let .outbox(selection) = overlay { return performInOutbox(selection, overlayAction) }
            if let overlay { return performInOverlay(overlay, overlayAction) }
            return []
        // An overlay's own keys answer while it is open; the inspector's help key is taken before.
        case .console where overlay != nil:
            return []
        case let .console(command):
            return perform(command)
        case let .teaching(teachingAction):
            guard case let .teaching(scroll) = overlay else { return [] }
            return performInTeaching(scroll, teachingAction)
        case .signInMethods, .credentialForm, .account, .addCartItem, .changePassword, .confirm, .reauthMethods, .linking, .changeEmail, .pendingLink, .providerForm, .consent, .conflict, .emailLink,
             .passwordReset, .secondFactorEnrollment, .secondFactorSignIn, .secondFactors, .phone, .accounts, .room:
            return update { feature, context in feature.receive(action, in: context) }
        }
    }

    private mutating func perform(_ command: ConsoleCommand) -> [ConsoleEffect] {
        switch command {
        case .quit: return [.quit]
        case .messages:
            return openOutbox()
        case .inspector:
            overlay = .inspector(selection: max(exchanges.count - 1, 0), scroll: 0)
            return []
        case .help:
            overlay = .help
            return []
        case .teaching:
            openTeaching()
            return []
        }
    }

    private mutating func performInOverlay(_ current: Overlay, _ action: OverlayAction) -> [ConsoleEffect] {
        switch (current, action) {
        case let (.inspectorHelp(selection, scroll), .back): overlay = .inspector(selection: selection, scroll: scroll)
        case (_, .back): overlay = nil
        case let (.inspector(selection, _), .up): overlay = .inspector(selection: max(selection - 1, 0), scroll: 0)
        case let (.inspector(selection, _), .down): overlay = .inspector(selection: min(selection + 1, max(exchanges.count - 1, 0)), scroll: 0)
        case let (.inspector(selection, scroll), .scrollDown):
            overlay = .inspector(selection: selection, scroll: min(scroll + inspectorPage, max(inspectorDetailCount(selection) - inspectorPage, 0)))
        case let (.inspector(selection, scroll), .scrollUp):
            overlay = .inspector(selection: selection, scroll: max(scroll - inspectorPage, 0))
        case (.help, _), (.inspector, _), (.inspectorHelp, _), (.outbox, _), (.teaching, _): break
        }
        return []
    }

    static let inspectorBindings: [KeyBinding<ConsoleAction>] = [
        KeyBinding([.up, .character("k")], "↑/k", "previous call", .overlay(.up), inBar: false),
        KeyBinding([.down, .character("j")], "↓/j", "next call", .overlay(.down), inBar: false),
        KeyBinding([.pageDown, .character(" ")], "space", "scroll", .overlay(.scrollDown)),
        KeyBinding([.pageUp, .character("b")], "b", "scroll up", .overlay(.scrollUp)),
        KeyBinding([.escape, .character("i")], "esc", "close inspector", .overlay(.back)),
        KeyBinding([.character("?"), .function(1)], "?", "help", .console(.help)),
    ]

    /// The detail's lines at the terminal's width, and how many show at once.
    private func inspectorDetailCount(_ selection: Int) -> Int {
        guard exchanges.indices.contains(selection) else { return 0 }
        let size = terminalSize ?? Size(width: 80, height: 24)
        return InspectorScreen.detailLines(exchanges[selection], authorization: lastAuthorization, additionalUserInfo: lastAdditionalUserInfo,
                                           width: size.width - 4).count
    }

    private var inspectorPage: Int {
        InspectorScreen.layout(entries: exchanges.count, size: terminalSize ?? Size(width: 80, height: 24)).detailRows
    }
}
