@testable import AuthDeckApp
import TerminalUI

/// The whole console drawn on the in-memory canvas, as text: what snapshots compare.
func render(_ model: ConsoleModel, size: Size = Size(width: 80, height: 24)) -> String {
    let canvas = TextCanvas(size: size)
    ConsoleView.draw(model, on: canvas)
    return canvas.text
}
