import AppData
import AuthClient
import Foundation
import TerminalUI

/// A prompt over the account screen for an item to add to the cart.
public struct AddCartItemFeature: ConsoleFeature {
    /// What the screen's keys mean.
    public enum Action: Equatable, Sendable, BackAction {
        case submit, back
    }

    /// It starts no work of its own: what it runs, the console answers.
    typealias Event = Never

    public var field = TextField(maxLength: CartStore.maximumNameLength)

    public init(field: TextField = TextField(maxLength: CartStore.maximumNameLength)) { self.field = field }

    var title: String { "Add to cart" }
    var needsUser: Bool { true }
    var editsText: Bool { true }
    var screen: Screen { .addCartItem(self) }

    func bindings(in context: ConsoleContext) -> [KeyBinding<KeyIntent<Action>>] {
        [KeyBinding([.enter], "enter", "add", .submit), .back(), .helpInForm]
    }

    mutating func perform(_ action: Action, in context: ConsoleContext) -> [FlowStep] {
        switch action {
        case .back:
            return [.show(.account(AccountFeature()))]
        case .submit:
            guard let uid = context.user?.uid else { return [] }
            let name = field.text.trimmingCharacters(in: .whitespaces)
            guard !name.isEmpty else { return [.banner(Banner(.error, "Type the item's name, or press esc."))] }
            var focus = AccountFeature()
            focus.pane = .cart
            return [.show(.account(focus)), .run(.addToCart(uid: uid, name: name), busy: nil)]
        }
    }

    mutating func edit(_ key: Key) { _ = field.handle(key) }

    func draw(in context: ConsoleContext, on canvas: any Canvas, frame: Rect) {
        AccountScreen.draw(context, focus: AccountFeature(), on: canvas, in: frame)
        let prompt = Rect.centered(width: 56, height: 5, in: canvas.size)
        let inside = Box.draw(on: canvas, frame: prompt, title: "Add to cart", style: .accent)
        field.drawRow(on: canvas, row: inside.row + 1, column: inside.column, width: inside.width - 1, label: "Item", labelWidth: 6, focused: true)
    }
}
