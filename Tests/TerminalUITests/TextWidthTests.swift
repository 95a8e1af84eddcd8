import Testing
@testable import TerminalUI

@Suite struct TextWidthTests {
    @Test func cells() {
        #expect(TextWidth.cells("abc") == 3)
        #expect(TextWidth.cells("中文") == 4)
        #expect(TextWidth.cells("😀") == 2)
        #expect(TextWidth.cells("e\u{301}") == 1, "combining accent takes no cell")
        #expect(TextWidth.cells("❤️") == 2, "emoji presentation selector")
        #expect(TextWidth.cells("🇫🇷") == 2)
        #expect(TextWidth.cells("a\u{200B}b") == 2, "zero-width space")
        #expect(TextWidth.cells("a\tb\u{1B}") == 4, "controls draw as one replacement cell each")
        #expect(TextWidth.cells("") == 0)
    }

    /// The frames' characters skip the Unicode lookups; they must measure exactly as the lookups would.
    @Test func the_single_cell_fast_path_measures_as_the_general_path() {
        let ranges: [ClosedRange<UInt32>] = [0x20...0x7E, 0xA1...0xAC, 0xAE...0xFF, 0x2010...0x2027, 0x2190...0x21FF, 0x2500...0x25FC, 0x2713...0x2713]
        for value in ranges.joined() {
            let scalar = String(Unicode.Scalar(value)!)
            #expect(TextWidth.isSingleCellText(scalar), "U+\(String(value, radix: 16))")
            // A wide character beside it sends the text through the general path.
            let general = TextWidth.glyphs(scalar + "中")
            #expect(general.map(\.text) == [scalar, "中"] && general.map(\.width) == [1, 2], "U+\(String(value, radix: 16))")
        }
        for outside in ["\u{7F}", "\u{9B}", "\u{AD}", "\u{25FD}", "\u{2705}", "e\u{301}", "中"] {
            #expect(!TextWidth.isSingleCellText(outside))
        }
        #expect(TextWidth.cells("┌──┐ ▸ …") == 8)
    }

    @Test func control_characters_are_replaced() {
        #expect(TextWidth.glyphs("a\u{1B}[31m").map(\.text).joined() == "a\u{FFFD}[31m")
        #expect(TextWidth.glyphs("\u{9B}").map(\.text) == ["\u{FFFD}"])
    }

    @Test func truncate() {
        #expect(TextWidth.truncate("hello", toCells: 10) == "hello")
        #expect(TextWidth.truncate("hello", toCells: 5) == "hello")
        #expect(TextWidth.truncate("hello world", toCells: 5) == "hell…")
        #expect(TextWidth.truncate("hello world", toCells: 5, ellipsis: false) == "hello")
        #expect(TextWidth.truncate("中文字", toCells: 4) == "中…", "a wide character never half fits")
        #expect(TextWidth.truncate("中文字", toCells: 4, ellipsis: false) == "中文")
        #expect(TextWidth.truncate("abc", toCells: 0) == "")
        #expect(TextWidth.truncate("abc", toCells: 1) == "…")
        // Frames' own symbols (a cell and a grapheme each) are cut by scalars.
        #expect(TextWidth.truncate("AuthDeck · Sign in", toCells: 10) == "AuthDeck …")
        #expect(TextWidth.truncate("▸ 1 Continue", toCells: 5, ellipsis: false) == "▸ 1 C")
        #expect(TextWidth.truncate("a·b─c", toCells: 5) == "a·b─c")
        #expect(TextWidth.truncate("a·b─c", toCells: 4) == "a·b…")
        // A text with a wide character among them still goes by glyphs.
        #expect(TextWidth.truncate("▸ 中文", toCells: 4) == "▸ …")
    }

    @Test func pad() {
        #expect(TextWidth.pad("中", toCells: 4) == "中  ")
        #expect(TextWidth.pad("abcdef", toCells: 4) == "abc…")
    }

    @Test func wrap() {
        #expect(TextWidth.wrap("the quick brown fox jumps", width: 10) == ["the quick", "brown fox", "jumps"])
        #expect(TextWidth.wrap("one\n\ntwo", width: 10) == ["one", "", "two"])
        #expect(TextWidth.wrap("one\r\ntwo", width: 10) == ["one", "two"])
        #expect(TextWidth.wrap("abcdefghijkl xy", width: 5) == ["abcde", "fghij", "kl xy"])
        #expect(TextWidth.wrap("中文中文中文", width: 5) == ["中文", "中文", "中文"])
        #expect(TextWidth.wrap("a  b", width: 10) == ["a b"])
        #expect(TextWidth.wrap("", width: 10) == [""])
        #expect(TextWidth.wrap("anything", width: 0) == [])
        for line in TextWidth.wrap(String(repeating: "word ", count: 50), width: 13) {
            #expect(TextWidth.cells(line) <= 13)
        }
    }

    @Test func wrapping_again_gives_the_lines_wrapping_anew_gives() {
        let texts = ["the quick brown fox jumps", "one\n\ntwo", "中文中文中文", "a  b", "", String(repeating: "word ", count: 300)]
        for text in texts {
            for width in [0, 1, 5, 13, 80] {
                #expect(TextWidth.wrap(text, width: width) == TextWidth.wrapAnew(text, width: width))
                #expect(TextWidth.wrap(text, width: width) == TextWidth.wrapAnew(text, width: width))
            }
        }
    }

    @Test func the_wrap_cache_keeps_lines_by_text_and_width() {
        let cache = CountedWrapCache(capacity: 8)
        #expect(cache.lines("the quick brown fox jumps", 10) == ["the quick", "brown fox", "jumps"])
        #expect(cache.lines("the quick brown fox jumps", 10) == ["the quick", "brown fox", "jumps"])
        #expect(cache.wrapped == 1)
        // Another width, or another text, is wrapped for itself.
        #expect(cache.lines("the quick brown fox jumps", 15) == ["the quick brown", "fox jumps"])
        #expect(cache.lines("the quick brown fox jumped", 10) == ["the quick", "brown fox", "jumped"])
        #expect(cache.wrapped == 3)
        #expect(cache.kept == 3)
    }

    @Test func the_wrap_cache_stays_within_its_bounds() {
        let cache = WrapCache(capacity: 2, longest: 10)
        for text in ["one", "two", "three"] { _ = cache.lines(text, width: 5, wrap: TextWidth.wrapAnew) }
        // Full at the third: it started again with that one.
        #expect(cache.count == 1)
        // Longer than `longest`: wrapped, not kept.
        #expect(cache.lines("eleven long", width: 5, wrap: TextWidth.wrapAnew) == ["eleve", "n", "long"])
        #expect(cache.count == 1)
    }

    @Test func the_wrap_cache_finds_every_kept_text_when_full_and_starts_again_past_it() {
        let cache = CountedWrapCache(capacity: 64)
        // 64 texts fill it; widths that differ keep entries apart even for the same text.
        let texts = (0..<32).map { "item \($0) of the list" }
        for text in texts {
            #expect(cache.lines(text, 8) == TextWidth.wrapAnew(text, width: 8))
            #expect(cache.lines(text, 12) == TextWidth.wrapAnew(text, width: 12))
        }
        #expect(cache.wrapped == 64 && cache.kept == 64)
        for text in texts {
            #expect(cache.lines(text, 12) == TextWidth.wrapAnew(text, width: 12))
            #expect(cache.lines(text, 8) == TextWidth.wrapAnew(text, width: 8))
        }
        #expect(cache.wrapped == 64)
        // The 65th starts it again: only that one is kept, and the first is wrapped anew.
        _ = cache.lines("one more", 8)
        #expect(cache.kept == 1)
        _ = cache.lines(texts[0], 8)
        #expect(cache.wrapped == 66 && cache.kept == 2)
    }

    @Test func a_row_is_its_fill_repeated_between_its_ends() {
        for count in [0, 1, 2, 58, 200] {
            #expect(TextWidth.row(" ", count: count) == String(repeating: " ", count: count))
            #expect(TextWidth.row("─", count: count, between: "┌", and: "┐") == "┌" + String(repeating: "─", count: count) + "┐")
        }
        #expect(TextWidth.row("ab", count: -1, between: "[", and: "]") == "[]")
        #expect(TextWidth.row("中", count: 3) == "中中中")
    }
}

/// A wrap cache that counts the wrappings it asks for: what it keeps is not wrapped again.
private final class CountedWrapCache {
    private let cache: WrapCache
    private(set) var wrapped = 0

    init(capacity: Int) { cache = WrapCache(capacity: capacity, longest: 100) }

    var kept: Int { cache.count }

    func lines(_ text: String, _ width: Int) -> [String] {
        cache.lines(text, width: width) { text, width in
            wrapped += 1
            return TextWidth.wrapAnew(text, width: width)
        }
    }
}
