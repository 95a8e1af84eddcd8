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
        bytes(Array(text.utf8))
    }

    private func bytes(_ values: [UInt8]) -> [RawInput] {
        values.map { .byte($0) }
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
        #expect(decode(bytes([9])) == [.tab])
        #expect(decode(bytes([10])) == [.enter])
        #expect(decode(bytes([13])) == [.enter])
        #expect(decode(bytes([127])) == [.backspace])
        #expect(decode(bytes([8])) == [.backspace])
        #expect(decode(bytes([1])) == [.control("a")])
        #expect(decode(bytes([3])) == [.control("c")])
        #expect(decode(bytes([23])) == [.control("w")])
        #expect(decode(bytes([26])) == [.control("z")])
        #expect(decode(bytes([0x1C])) == [.control("\\")])
        #expect(decode(chars("\u{85}")) == [], "C1 controls are dropped")
        #expect(decode(chars("aZ?é中")) == ["a", "Z", "?", "é", "中"].map { .character($0) })
        #expect(decode(chars("😀")) == [.character("😀")])
    }

    @Test func escape_alone_is_decided_when_input_pauses() {
        var decoder = KeyDecoder()
        let afterEscape = decoder.feed(.byte(27))
        let firstFlush = decoder.flush()
        let secondFlush = decoder.flush()
        #expect(afterEscape == [])
        #expect(firstFlush == [.escape])
        #expect(secondFlush == [])
    }

    @Test func escape_then_other_input() {
        #expect(decode(bytes([27, 27])) == [.escape, .escape])
        #expect(decode([.byte(27), .keyCode(KEY_UP)]) == [.escape, .up])
        #expect(decode(bytes([27, 13])) == [.escape, .enter])
        #expect(decode(bytes([27, 3])) == [.escape, .control("c")], "ctrl-c still quits at once")
    }

    @Test func escape_and_a_character_at_once_is_an_alt_chord_and_binds_nothing() {
        // Within curses' escape delay: Alt-q, or a fast escape then q. Neither may quit.
        #expect(decode(chars("\u{1B}q")) == [])
        #expect(decode(chars("\u{1B}x")) == [])
        #expect(decode(chars("\u{1B}é")) == [])
        #expect(decode(chars("\u{1B}qq")) == [.character("q")], "the next q is a q")
        #expect(decode(chars("\u{1B}[")) == [], "ESC [ cut off")
        #expect(decode(chars("\u{1B}O")) == [], "ESC O cut off")
    }

    @Test func control_strings_are_swallowed_up_to_their_terminator() {
        #expect(decode(chars("\u{1B}P+q6461\u{1B}\\x")) == [.character("x")], "DCS, ended by ST")
        #expect(decode(chars("\u{1B}]10;rgb:ffff/ffff/ffff\u{07}x")) == [.character("x")], "OSC, ended by BEL")
        #expect(decode(chars("\u{1B}]0;q\u{1B}\\x")) == [.character("x")], "OSC, ended by ST")
        #expect(decode(chars("\u{1B}_q\u{1B}\\\u{1B}^q\u{1B}\\\u{1B}Xq\u{1B}\\x")) == [.character("x")], "APC, PM, SOS")
        #expect(decode(chars("\u{1B}Pq\u{1B}q\u{1B}\\x")) == [.character("x")], "ESC inside is not the end")
    }

    @Test func a_control_string_spans_reads_until_input_stalls() {
        var decoder = KeyDecoder()
        var keys = chars("\u{1B}P1$r").flatMap { decoder.feed($0) } + decoder.flush()
        #expect(keys == [])
        #expect(decoder.awaitsMore)
        keys = chars("q").flatMap { decoder.feed($0) } + decoder.flush()
        #expect(keys == [], "still inside: not a key press")
        keys = decoder.inputStalled()
        #expect(keys == [])
        #expect(!decoder.awaitsMore)
        keys = decoder.feed(.byte(0x71))
        #expect(keys == [.character("q")])
    }

    @Test func invalid_utf8_is_one_replacement_per_maximal_invalid_part() {
        let replacement = Key.character("\u{FFFD}")
        #expect(decode(bytes([0xE9])) == [replacement], "Latin-1 é")
        #expect(decode(bytes([0xE9, 0x61])) == [replacement, .character("a")], "the next character survives")
        #expect(decode(bytes([0x80])) == [replacement], "a stray continuation byte")
        #expect(decode(bytes([0xFF])) == [replacement])
        #expect(decode(bytes([0xC0, 0xAF])) == [replacement, replacement], "an overlong /")
        #expect(decode(bytes([0xE2, 0x82])) == [replacement], "€ cut off")
        #expect(decode(bytes([0xED, 0xA0, 0x80])) == [replacement, replacement, replacement], "a surrogate")
        #expect(decode(bytes([0xF4, 0x90, 0x80, 0x80])).count == 4, "past U+10FFFF")
        #expect(decode(bytes([0xE2, 0x82, 0xAC])) == [.character("€")])
        #expect(decode(bytes([0xE2, 0x82]) + [.keyCode(KEY_UP)]) == [replacement, .up])
        #expect(decode(bytes([0xE2]) + chars("q")) == [replacement, .character("q")])
    }

    @Test func cursor_keys_in_their_ansi_spellings() {
        #expect(decode(chars("\u{1B}[A\u{1B}[B\u{1B}OC\u{1B}OD\u{1B}[H\u{1B}[F")) == [.up, .down, .right, .left, .home, .end])
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
        let next = decoder.feed(.byte(0x61))
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
