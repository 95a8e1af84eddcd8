import Testing
import TerminalUI

@Suite struct TextCanvasTests {
    @Test func clips_at_edges() {
        let canvas = TextCanvas(size: Size(width: 5, height: 2))
        canvas.put("abcdefgh", row: 0, column: 2, style: .normal)
        canvas.put("xyz", row: 1, column: -1, style: .normal)
        canvas.put("out", row: 2, column: 0, style: .normal)
        canvas.put("out", row: -1, column: 0, style: .normal)
        #expect(canvas.lines == ["  abc", "yz"])
    }

    @Test func wide_characters_take_two_cells() {
        let canvas = TextCanvas(size: Size(width: 6, height: 3))
        canvas.put("中文x", row: 0, column: 0, style: .normal)
        canvas.put("ab中", row: 1, column: 3, style: .normal)  // 中 would straddle the edge
        canvas.put("中文", row: 2, column: 0, style: .normal)
        canvas.put("z", row: 2, column: 1, style: .normal)  // overwrites the right half of 中
        #expect(canvas.lines == ["中文x", "   ab", " z文"])
    }

    @Test func controls_never_written_raw() {
        let canvas = TextCanvas(size: Size(width: 10, height: 1))
        canvas.put("a\u{1B}[2Jb\u{7}", row: 0, column: 0, style: .normal)
        #expect(canvas.text == "a\u{FFFD}[2Jb\u{FFFD}")
    }

    @Test func styles_and_cursor() {
        let canvas = TextCanvas(size: Size(width: 4, height: 1))
        #expect(canvas.cursor == nil)
        canvas.put("ab", row: 0, column: 1, style: .error)
        canvas.placeCursor(row: 0, column: 2)
        #expect(canvas.style(atRow: 0, column: 0) == .normal)
        #expect(canvas.style(atRow: 0, column: 1) == .error)
        #expect(canvas.cursor?.row == 0 && canvas.cursor?.column == 2)
    }
}
