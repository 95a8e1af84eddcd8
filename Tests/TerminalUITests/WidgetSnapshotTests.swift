import SnapshotTesting
import Testing
import TerminalUI

/// Each widget drawn on the in-memory canvas at the app's 80×24 and at a narrow width.
@Suite struct WidgetSnapshotTests {
    static let full = Size(width: 80, height: 24)
    static let narrow = Size(width: 32, height: 12)

    private func render(_ size: Size, symbols: Symbols = .unicode, _ draw: (TextCanvas) -> Void) -> String {
        let canvas = TextCanvas(size: size, symbols: symbols)
        draw(canvas)
        return canvas.text
    }

    private static let hints: [(key: String, label: String)] = [
        ("↑↓", "move"), ("enter", "choose"), ("tab", "next field"), ("esc", "back"), ("?", "help"), ("q", "quit"),
    ]

    private func form(_ canvas: TextCanvas) {
        let width = canvas.size.width
        TitleBar.draw(on: canvas, left: "AuthDeck · Sign in with email", right: "embedded · demo-project")
        TextField(text: "ada@example.com").drawRow(
            on: canvas, row: 2, column: 1, width: width - 2, label: "Email", labelWidth: 9, focused: false)
        TextField(text: "correct horse", isSecure: true).drawRow(
            on: canvas, row: 3, column: 1, width: width - 2, label: "Password", labelWidth: 9, focused: true)
        StatusBar.draw(on: canvas, hints: Self.hints)
    }

    @Test func form_full() {
        assertSnapshot(of: render(Self.full, form), as: .lines)
    }

    @Test func form_narrow() {
        assertSnapshot(of: render(Self.narrow, form), as: .lines)
    }

    private static let accounts = (1...30).map { index in
        ListView.Item("user\(index)@example.com  \(index % 3 == 0 ? "anonymous" : "password")",
                      isDim: index % 3 == 0)
    }

    private func list(_ canvas: TextCanvas) {
        var view = ListView(items: Self.accounts)
        let frame = Box.draw(on: canvas, frame: Rect(row: 1, column: 0, width: canvas.size.width,
                                                     height: canvas.size.height - 2), title: "Accounts (30)")
        _ = view.handle(.pageDown, visibleRows: frame.height)
        _ = view.handle(.pageDown, visibleRows: frame.height)
        view.draw(on: canvas, in: frame)
        StatusBar.draw(on: canvas, hints: Self.hints)
    }

    @Test func list_full() {
        assertSnapshot(of: render(Self.full, list), as: .lines)
    }

    @Test func list_narrow() {
        assertSnapshot(of: render(Self.narrow, list), as: .lines)
    }

    @Test func list_ascii() {
        assertSnapshot(of: render(Self.narrow, symbols: .ascii, list), as: .lines)
    }

    @Test func list_selection_shows_without_colour() {
        let canvas = TextCanvas(size: Size(width: 20, height: 3))
        ListView(items: [.init("one"), .init("two")], selection: 1)
            .draw(on: canvas, in: Rect(row: 0, column: 0, width: 20, height: 3))
        #expect(canvas.lines == ["  one", "▸ two", ""])
        #expect((0...5).allSatisfy { canvas.style(atRow: 1, column: $0).reverse }, "the marker, the text and a space are reversed")
        #expect(!canvas.style(atRow: 1, column: 10).reverse, "not the rest of the row: those spaces would go over the wire at every move")
        #expect(canvas.cursor?.row == 1)
    }

    @Test func list_keeps_the_selection_visible() {
        var view = ListView(items: Self.accounts)
        for _ in 0..<12 { _ = view.handle(.down, visibleRows: 5) }
        #expect(view.selection == 12 && view.offset == 8)
        _ = view.handle(.character("k"), visibleRows: 5)
        #expect(view.offset == 8, "moving inside the window does not scroll")
        _ = view.handle(.home, visibleRows: 5)
        #expect(view.selection == 0 && view.offset == 0)
        _ = view.handle(.end, visibleRows: 5)
        #expect(view.selection == 29 && view.offset == 25)
        let handledEnter = view.handle(.enter, visibleRows: 5)
        #expect(!handledEnter)
    }

    private func dialog(_ canvas: TextCanvas) {
        var dialog = Dialog(
            title: "Delete account",
            message: "Delete user3@example.com? Its linked providers, MFA factors and app data are removed. "
                + "This cannot be undone.",
            buttons: ["Cancel", "Delete"])
        _ = dialog.handle(.tab)
        dialog.draw(on: canvas)
    }

    @Test func dialog_full() {
        assertSnapshot(of: render(Self.full, dialog), as: .lines)
    }

    @Test func dialog_narrow() {
        assertSnapshot(of: render(Self.narrow, dialog), as: .lines)
    }

    @Test func dialog_buttons_cycle() {
        var dialog = Dialog(title: "t", message: "m", buttons: ["A", "B", "C"])
        #expect(dialog.selectedButton == "A")
        _ = dialog.handle(.left)
        #expect(dialog.selectedButton == "C")
        _ = dialog.handle(.right)
        _ = dialog.handle(.character("l"))
        #expect(dialog.selectedButton == "B")
        let handledEnter = dialog.handle(.enter)
        #expect(!handledEnter)
    }

    private func help(_ canvas: TextCanvas) {
        HelpOverlay.draw(on: canvas, title: "Keys: account", entries: [
            ("↑/↓ j/k", "move"), ("enter", "open"), ("l", "link a provider"), ("u", "unlink the selected provider"),
            ("m", "enrol a second factor"), ("r", "reauthenticate"), ("/", "filter"), (":", "command bar"),
            ("esc", "back"), ("q", "quit"), ("ctrl-c", "quit now"),
        ])
    }

    @Test func help_full() {
        assertSnapshot(of: render(Self.full, help), as: .lines)
    }

    /// A help box nearly as wide as the screen has nothing of the screen beneath beside it.
    @Test func help_nearly_full_width_clears_its_margins() {
        let text = render(Size(width: 80, height: 24)) { canvas in
            for row in 0..<24 { canvas.put(String(repeating: "s", count: 80), row: row, column: 0, style: .normal) }
            HelpOverlay.draw(on: canvas, title: "Keys", entries: [("f", "filter by " + String(repeating: "flags and providers ", count: 4))])
        }
        let rows = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let boxRows = rows.filter { $0.contains("│") }
        #expect(!boxRows.isEmpty)
        #expect(boxRows.allSatisfy { $0.first != "s" && $0.last != "s" })
    }

    @Test func help_narrow() {
        assertSnapshot(of: render(Self.narrow, help), as: .lines)
    }

    @Test func too_small() {
        let size = Size(width: 60, height: 20)
        var drew = false
        let text = render(size) { drew = TooSmall.drawIfNeeded(on: $0) }
        #expect(drew)
        assertSnapshot(of: text, as: .lines)
    }

    /// A size and its word stay together at any width: "have" above "40×12" read as nonsense.
    @Test func tooSmallKeepsEachSizeWithItsWord() {
        for width in 12...79 {
            let text = render(Size(width: width, height: 12)) { _ = TooSmall.drawIfNeeded(on: $0) }
            #expect(text.contains("need 80×24,") && text.contains("have \(width)×12."), "at width \(width)")
        }
    }

    @Test func too_small_very_narrow() {
        assertSnapshot(of: render(Size(width: 20, height: 6)) { _ = TooSmall.drawIfNeeded(on: $0) }, as: .lines)
    }

    @Test func big_enough_draws_nothing() {
        let canvas = TextCanvas(size: Self.full)
        #expect(!TooSmall.drawIfNeeded(on: canvas))
        #expect(canvas.lines.allSatisfy { $0.isEmpty })
    }

    @Test func status_bar_truncates_whole_hints() {
        let text = render(Size(width: 30, height: 1)) { StatusBar.draw(on: $0, hints: Self.hints) }
        #expect(text == " ↑↓ move · enter choose …")
        let tiny = render(Size(width: 6, height: 1)) { StatusBar.draw(on: $0, hints: [("enter", "choose")]) }
        #expect(tiny == " ente…")
    }

    @Test func status_bar_shows_the_most_whole_hints_that_fit_at_every_width() {
        let whole = " ↑↓ move · enter choose · tab next field · esc back · ? help · q quit"
        for width in 2...whole.count + 2 {
            let text = render(Size(width: width, height: 1)) { StatusBar.draw(on: $0, hints: Self.hints) }
            #expect(TextWidth.cells(text) <= width)
            if whole.count < width {
                #expect(text == whole)
            } else if text.hasPrefix(" ↑↓ move"), text.hasSuffix(" …") {
                // Whole hints up to the ellipsis, and one more would not have fitted (narrower, the first is cut).
                let kept = String(text.dropLast(2))
                #expect(whole.hasPrefix(kept + " · "))
                let next = whole.dropFirst(kept.count + 3).prefix { $0 != "·" }.trimmingCharacters(in: .whitespaces)
                #expect(TextWidth.cells(kept + " · " + next + " …") > width - 1, "width \(width)")
            }
        }
    }

    @Test func box_ascii_fallback() {
        let text = render(Size(width: 12, height: 3), symbols: .ascii) {
            Box.draw(on: $0, frame: Rect(row: 0, column: 0, width: 12, height: 3), title: "Title")
        }
        #expect(text == "+- Title --+\n|          |\n+----------+")
    }
}
