import AuthClient
import Foundation
import TerminalUI

/// Before the saved session is read: no keys, no work of its own.
struct LaunchingFeature: ConsoleFeature {
    typealias Action = Never
    typealias Event = Never

    var title: String { "starting" }
    var needsUser: Bool { false }
    func bindings(in context: ConsoleContext) -> [KeyBinding<KeyIntent<Never>>] { [] }
    mutating func perform(_ action: Never, in context: ConsoleContext) -> [FlowStep] {}
    var screen: Screen { .launching }

    func draw(in context: ConsoleContext, on canvas: any Canvas, frame: Rect) {
        canvas.put("Starting…", row: frame.row, column: frame.column + 1, style: .dim)
    }
}
