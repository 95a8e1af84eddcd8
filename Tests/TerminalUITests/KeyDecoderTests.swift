import CCurses
import Testing
@testable import TerminalUI

@Suite struct KeyDecoderTests {
    /// Feeds the characters of `text` one at a time, then flushes, as the loop does.
    private func decode(_ inputs: [RawInput]) -> [Key] {
        var decoder = KeyDecoder()
        return inputs.flatMap { decoder.feed($0) } + decoder.flush()
    }

    private func chars(_ text: String) -> [RawInput] {
        text.unicodeScalars.map { .character($0.value) }
    }

    @Test func curses_key_codes() {
        let expected: [(Int32, Key)] = [
            (KEY_UP, .up), (KEY_DOWN, .down), (KEY_LEFT, .left), (KEY_RIGHT, .right),
            (KEY_HOME, .home), (KEY_END, .end), (KEY_PPAGE, .pageUp), (KEY_NPAGE, .pageDown),
            (KEY_BACKSPACE, .backspace), (KEY_DC, .delete), (KEY_ENTER, .enter), (KEY_BTAB, .backTab),
            (KEY_F0 + 1, .function(1)), (KEY_F0 + 12, .function(12)),
        ]
        for (code, key) in expected {
            #expect(decode([.keyCode(code)]) == [key], "key code \(code)")
        }
        #expect(decode([.keyCode(KEY_MOUSE)]) == [])
    }

    @Test func character_codes() {
        #expect(decode([.character(9)]) == [.tab])
        #expect(decode([.character(10)]) == [.enter])
        #expect(decode([.character(13)]) == [.enter])
        #expect(decode([.character(127)]) == [.backspace])
        #expect(decode([.character(8)]) == [.backspace])
        #expect(decode([.character(1)]) == [.control("a")])
        #expect(decode([.character(3)]) == [.control("c")])
        #expect(decode([.character(23)]) == [.control("w")])
        #expect(decode([.character(26)]) == [.control("z")])
        #expect(decode([.character(0x1C)]) == [.control("\\")])
        #expect(decode([.character(0x85)]) == [], "C1 controls are dropped")
        #expect(decode(chars("aZ?é中")) == ["a", "Z", "?", "é", "中"].map { .character($0) })
        #expect(decode([.character(0x1F600)]) == [.character("😀")])
    }

    @Test func escape_alone_is_decided_when_input_pauses() {
        var decoder = KeyDecoder()
        let afterEscape = decoder.feed(.character(27))
        let firstFlush = decoder.flush()
        let secondFlush = decoder.flush()
        #expect(afterEscape == [])
        #expect(firstFlush == [.escape])
        #expect(secondFlush == [])
    }

    @Test func escape_then_other_input() {
        #expect(decode([.character(27), .character(27)]) == [.escape, .escape])
        #expect(decode([.character(27), .character(0x78)]) == [.escape, .character("x")])
        #expect(decode([.character(27), .keyCode(KEY_UP)]) == [.escape, .up])
        #expect(decode(chars("\u{1B}[")) == [.escape, .character("[")])
    }

    @Test func unknown_sequences_are_dropped_not_typed() {
        #expect(decode(chars("\u{1B}[I\u{1B}[O")) == [], "focus in/out")
        #expect(decode(chars("\u{1B}[1;5Ax")) == [.character("x")])
        #expect(decode(chars("\u{1B}[201~")) == [], "a stray paste end")
    }

    @Test func bracketed_paste_becomes_one_key() {
        let keys = decode(chars("a\u{1B}[200~hello world\u{1B}[201~b"))
        #expect(keys == [.character("a"), .paste("hello world"), .character("b")])
    }

    @Test func paste_keeps_control_characters_and_escapes_for_the_receiver_to_judge() {
        let keys = decode(chars("\u{1B}[200~a\tb\r\nc\u{1B}[31md\u{1B}\u{1B}[201~"))
        #expect(keys == [.paste("a\tb\r\nc\u{1B}[31md\u{1B}")])
    }

    @Test func paste_spans_reads_and_ignores_key_codes() {
        var decoder = KeyDecoder()
        var keys = chars("\u{1B}[200~abc").flatMap { decoder.feed($0) } + decoder.flush()
        #expect(keys == [])
        #expect(decoder.isPasting)
        keys = decoder.feed(.keyCode(KEY_UP)) + chars("def\u{1B}[201~").flatMap { decoder.feed($0) }
        #expect(keys == [.paste("abcdef")])
        #expect(!decoder.isPasting)
    }

    @Test func paste_without_end_marker_can_be_finished() {
        var decoder = KeyDecoder()
        _ = chars("\u{1B}[200~abc\u{1B}[20").flatMap { decoder.feed($0) }
        let finished = decoder.finishPaste()
        let next = decoder.feed(.character(0x61))
        #expect(finished == [.paste("abc")])
        #expect(next == [.character("a")])
    }

    @Test func paste_is_capped() {
        let big = String(repeating: "x", count: KeyDecoder.pasteLimit + 1000)
        let keys = decode(chars("\u{1B}[200~" + big + "\u{1B}[201~"))
        guard case .paste(let text) = keys.first else {
            Issue.record("no paste: \(keys.count) keys")
            return
        }
        #expect(keys.count == 1)
        #expect(text.utf8.count == KeyDecoder.pasteLimit)
    }
}
