import Testing
import TerminalUI

@Suite struct TextFieldTests {
    private func field(_ text: String, cursor: Int? = nil, maxLength: Int = 256) -> TextField {
        var field = TextField(text: text, maxLength: maxLength)
        if let cursor {
            _ = field.handle(.home)
            for _ in 0..<cursor { _ = field.handle(.right) }
        }
        return field
    }

    private func type(_ keys: [Key], into start: TextField) -> TextField {
        var field = start
        for key in keys { _ = field.handle(key) }
        return field
    }

    @Test func typing_inserts_at_the_cursor() {
        var f = TextField()
        for character in "hello" {
            let handled = f.handle(.character(character))
            #expect(handled)
        }
        #expect(f.text == "hello" && f.cursor == 5)
        f = type([.left, .left, .character("X")], into: f)
        #expect(f.text == "helXlo" && f.cursor == 4)
    }

    @Test func combining_mark_merges_into_previous_character() {
        let f = type([.character("e"), .character("\u{301}"), .character("x")], into: TextField())
        #expect(f.text == "éx" && f.cursor == 2)
    }

    @Test func movement() {
        var f = field("abc", cursor: 1)
        f = type([.left], into: f); #expect(f.cursor == 0)
        f = type([.left], into: f); #expect(f.cursor == 0)
        f = type([.right, .right, .right, .right], into: f); #expect(f.cursor == 3)
        f = type([.home], into: f); #expect(f.cursor == 0)
        f = type([.end], into: f); #expect(f.cursor == 3)
        f = type([.control("a")], into: f); #expect(f.cursor == 0)
        f = type([.control("e")], into: f); #expect(f.cursor == 3)
        f = type([.control("b")], into: f); #expect(f.cursor == 2)
        f = type([.control("f")], into: f); #expect(f.cursor == 3)
    }

    @Test func deletion() {
        var f = type([.backspace], into: field("abc", cursor: 2))
        #expect(f.text == "ac" && f.cursor == 1)
        f = type([.delete], into: field("abc", cursor: 1))
        #expect(f.text == "ac" && f.cursor == 1)
        f = type([.control("d")], into: field("abc", cursor: 0))
        #expect(f.text == "bc" && f.cursor == 0)
        f = type([.backspace], into: field("abc", cursor: 0))
        #expect(f.text == "abc")
        f = type([.delete], into: field("abc"))
        #expect(f.text == "abc")
    }

    @Test func emacs_kills() {
        var f = type([.control("u")], into: field("hello world", cursor: 6))
        #expect(f.text == "world" && f.cursor == 0)
        f = type([.control("k")], into: field("hello world", cursor: 5))
        #expect(f.text == "hello" && f.cursor == 5)
        f = type([.control("w")], into: field("one two  three", cursor: 9))
        #expect(f.text == "one three" && f.cursor == 4)
        f = type([.control("w"), .control("w")], into: field("one two"))
        #expect(f.text == "" && f.cursor == 0)
    }

    @Test func keys_the_field_does_not_own_are_left_to_the_screen() {
        var f = field("abc")
        for key: Key in [.enter, .tab, .backTab, .escape, .up, .down, .pageUp, .function(1), .control("c")] {
            let handled = f.handle(key)
            #expect(!handled, "\(key)")
        }
        #expect(f.text == "abc")
    }

    @Test func max_length_caps_typing_and_paste() {
        var f = field("abc", maxLength: 4)
        let typed = f.handle(.character("d"))
        let typedWhenFull = f.handle(.character("e"))
        #expect(typed)
        #expect(typedWhenFull, "still consumed when full")
        #expect(f.text == "abcd")
        f = type([.paste("xyz")], into: field("ab", maxLength: 4))
        #expect(f.text == "abxy" && f.cursor == 4)
        #expect(TextField(text: "toolong", maxLength: 3).text == "too")
    }

    @Test func a_paste_longer_than_the_room_left_says_it_was_cut_and_the_next_edit_clears_it() {
        var f = type([.paste(String(repeating: "n", count: 300))], into: TextField(maxLength: 100))
        #expect(f.text.count == 100)
        #expect(f.lastCut == 200)
        #expect(f.note == "Cut to 100 characters")
        f = type([.backspace], into: f)
        #expect(f.lastCut == 0)
        #expect(f.note == "99/100")
        f = type([.paste("ab")], into: f)
        #expect(f.note == "Cut to 100 characters")
        #expect(type([.paste("a")], into: TextField(maxLength: 100)).note == nil)
        #expect(TextField(text: String(repeating: "n", count: 80), maxLength: 100).note == "80/100")
        #expect(TextField(text: String(repeating: "n", count: 79), maxLength: 100).note == nil)
    }

    @Test func the_note_draws_beside_the_focused_field_and_the_cursor_stays_in_it() {
        let f = type([.paste(String(repeating: "n", count: 300))], into: TextField(maxLength: 100))
        let canvas = TextCanvas(size: Size(width: 60, height: 1))
        f.draw(on: canvas, row: 0, column: 0, width: 60, focused: true)
        #expect(canvas.lines[0].hasSuffix(" Cut to 100 characters"))
        #expect(canvas.lines[0].hasPrefix(String(repeating: "n", count: 37) + "  Cut"))
        #expect(canvas.cursor?.column == 37)
        let unfocused = TextCanvas(size: Size(width: 60, height: 1))
        f.draw(on: unfocused, row: 0, column: 0, width: 60, focused: false)
        #expect(!unfocused.text.contains("Cut"))
    }

    @Test func paste_of_junk() {
        let junk = "us\u{1B}[31mer\u{1B}]0;title\u{7}@ex\u{1B}]8;;http://x\u{1B}\\ample\u{7}\u{0}.com\u{9B}2J\u{202E}"
        var f = type([.paste(junk)], into: TextField())
        #expect(f.text == "user@example.com")
        f = type([.paste("first line\nsecond line")], into: TextField())
        #expect(f.text == "first line")
        f = type([.paste("secret\r\n")], into: TextField())
        #expect(f.text == "secret")
        f = type([.paste("a\tb\u{7F}c")], into: TextField())
        #expect(f.text == "abc")
        f = type([.paste("\u{1B}")], into: TextField())
        #expect(f.text == "")
    }

    @Test func paste_of_ten_thousand_characters_is_capped() {
        let f = type([.paste(String(repeating: "x", count: 10_000))], into: TextField())
        #expect(f.text.count == 256 && f.cursor == 256)
    }

    @Test func paste_inserts_at_the_cursor() {
        let f = type([.paste("XY")], into: field("abcd", cursor: 2))
        #expect(f.text == "abXYcd" && f.cursor == 4)
    }

    @Test func control_characters_typed_are_ignored() {
        let f = type([.character("\u{7}")], into: field("a"))
        #expect(f.text == "a")
    }

    @Test func setting_text_clamps_cursor_and_length() {
        var f = TextField(text: "hello", maxLength: 4)
        f.text = "ab"
        #expect(f.cursor == 2)
        f.text = "abcdefg"
        #expect(f.text == "abcd")
    }

    @Test func secure_field_never_draws_the_text() {
        let canvas = TextCanvas(size: Size(width: 20, height: 1))
        TextField(text: "hunter2", isSecure: true).draw(on: canvas, row: 0, column: 0, width: 20, focused: true)
        #expect(canvas.text == "•••••••")
        #expect(canvas.cursor?.column == 7)
        let ascii = TextCanvas(size: Size(width: 20, height: 1), symbols: .ascii)
        TextField(text: "pw", isSecure: true).draw(on: ascii, row: 0, column: 0, width: 20, focused: false)
        #expect(ascii.text == "**")
        #expect(ascii.cursor == nil, "only the focused field places the cursor")
    }

    @Test func long_text_scrolls_to_keep_the_cursor_visible() {
        let canvas = TextCanvas(size: Size(width: 12, height: 3))
        let long = TextField(text: "abcdefghijklmnopqrstuvwxyz")
        long.draw(on: canvas, row: 0, column: 1, width: 10, focused: true)
        #expect(canvas.lines[0] == " rstuvwxyz")
        #expect(canvas.cursor?.column == 10)
        let atStart = type([.home], into: long)
        atStart.draw(on: canvas, row: 1, column: 1, width: 10, focused: true)
        #expect(canvas.lines[1] == " abcdefghij")
        #expect(canvas.cursor?.column == 1)
        let wide = TextField(text: "中文中文中文中文")
        wide.draw(on: canvas, row: 2, column: 0, width: 10, focused: true)
        #expect(canvas.lines[2] == "中文中文")
        #expect(canvas.cursor?.column == 8)
        #expect(canvas.style(atRow: 2, column: 9).underline, "the field's extent is underlined")
    }
}
