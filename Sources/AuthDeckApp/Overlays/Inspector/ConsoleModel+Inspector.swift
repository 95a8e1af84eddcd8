import Foundation
import TerminalUI

/// The inspector overlay: the backend calls this console made, one selected with its detail, and its own help.
extension ConsoleModel {
    static let inspectorBindings: [KeyBinding<ConsoleAction>] = [
        KeyBinding([.up, .character("k")], "↑/k", "previous call", .overlay(.up), inBar: false),
        KeyBinding([.down, .character("j")], "↓/j", "next call", .overlay(.down), inBar: false),
        KeyBinding([.pageDown, .character(" ")], "space", "scroll", .overlay(.scrollDown)),
        KeyBinding([.pageUp, .character("b")], "b", "scroll up", .overlay(.scrollUp)),
        KeyBinding([.escape, .character("i")], "esc", "close inspector", .overlay(.back)),
        KeyBinding([.character("?"), .function(1)], "?", "help", .console(.help)),
    ]

    static let inspectorHelpBindings: [KeyBinding<ConsoleAction>] = [
        KeyBinding([.escape, .character("?"), .function(1), .enter, .character("q")], "esc", "back to the inspector", .overlay(.back)),
    ]

    /// Opens on the newest call.
    mutating func openInspector() {
        overlay = .inspector(selection: max(exchanges.count - 1, 0), scroll: 0)
    }

    /// Over the inspector, `?` and F1 open the inspector's own keys rather than the screen's.
    mutating func openInspectorHelp(_ key: Key) -> Bool {
        guard case let .inspector(selection, scroll) = overlay, key == .function(1) || key == .character("?") else { return false }
        overlay = .inspectorHelp(selection: selection, scroll: scroll)
        return true
    }

    mutating func performInInspector(selection: Int, scroll: Int, _ action: OverlayAction) {
        switch action {
        case .back: overlay = nil
        case .up: overlay = .inspector(selection: max(selection - 1, 0), scroll: 0)
        case .down: overlay = .inspector(selection: min(selection + 1, max(exchanges.count - 1, 0)), scroll: 0)
        case .scrollDown:
            overlay = .inspector(selection: selection, scroll: min(scroll + inspectorPage, max(inspectorDetailCount(selection) - inspectorPage, 0)))
        case .scrollUp:
            overlay = .inspector(selection: selection, scroll: max(scroll - inspectorPage, 0))
        case .choose, .refresh: break
        }
    }

    mutating func performInInspectorHelp(selection: Int, scroll: Int, _ action: OverlayAction) {
        if action == .back { overlay = .inspector(selection: selection, scroll: scroll) }
    }

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

extension ConsoleView {
    static func drawInspector(_ model: ConsoleModel, selection: Int, scroll: Int, withHelp: Bool, on canvas: any Canvas) {
        InspectorScreen.draw(model.exchanges, selection: selection, scroll: scroll, authorization: model.lastAuthorization,
                             additionalUserInfo: model.lastAdditionalUserInfo, on: canvas)
        if withHelp {
            HelpOverlay.draw(on: canvas, title: "Keys: Inspector", entries: ConsoleModel.inspectorBindings.map { ($0.label, $0.help) })
        }
    }
}
