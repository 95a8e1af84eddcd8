import Foundation
import TerminalUI

/// The help overlay: the keys of the screen under it, drawn from the bindings the model dispatches on.
extension ConsoleModel {
    static let helpBindings: [KeyBinding<ConsoleAction>] = [
        KeyBinding([.escape, .character("?"), .enter, .character("q")], "esc", "close help", .overlay(.back)),
    ]

    /// `?` (where it types no letter) and F1 open help from anywhere and close it again.
    mutating func toggleHelp(_ key: Key) -> Bool {
        guard overlay?.isInspectorHelp != true, key == .function(1) || (key == .character("?") && !screen.editsText) else { return false }
        overlay = overlay == .help ? nil : .help
        return true
    }

    mutating func performInHelp(_ action: OverlayAction) {
        if action == .back { overlay = nil }
    }

    var helpEntries: [(key: String, description: String)] {
        // A binding without a label is one of a group another entry names ("1–9").
        screenBindings.filter { !$0.label.isEmpty }.map { ($0.label, $0.help) } + [("ctrl-c", "quit at once, from anywhere")]
    }
}

extension ConsoleView {
    static func drawHelp(_ model: ConsoleModel, on canvas: any Canvas) {
        let message = [model.presenterMessage, bannerText(model.banner)].compactMap { $0 }
        HelpOverlay.draw(on: canvas, title: "Keys: \(model.screen.title)", entries: model.helpEntries,
                         message: message.isEmpty ? nil : message.joined(separator: "\n"))
    }
}
