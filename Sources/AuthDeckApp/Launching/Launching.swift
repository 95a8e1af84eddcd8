import AuthClient
import Foundation
import TerminalUI

/// Before the saved session is read.
struct Launching: ConsoleFeature {
    var title: String { "starting" }
    var needsUser: Bool { false }
    func bindings(in context: ConsoleContext) -> [KeyBinding] { [] }
    mutating func perform(_ intent: Intent, in context: ConsoleContext) -> [FlowStep] { [] }
    var screen: Screen { .launching }

    func draw(in context: ConsoleContext, on canvas: any Canvas, frame: Rect) {
        canvas.put("Starting…", row: frame.row, column: frame.column + 1, style: .dim)
    }
}
