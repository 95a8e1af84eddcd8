import Testing
@testable import TerminalUI

@Suite struct FrameRowsTests {
    private func menu(selected: Int, on canvas: any Canvas) {
        canvas.put("┌─ Sign in ─┐", row: 0, column: 0, style: .title)
        for item in 0..<3 {
            canvas.put(item == selected ? "▸ item \(item)" : "  item \(item)", row: item + 1, column: 1,
                       style: item == selected ? .selected : .normal)
        }
        canvas.put("中文 wide", row: 4, column: 9, style: .dim)  // clipped at the edge as the terminal clips it
        canvas.placeCursor(row: 2, column: 3)
    }

    @Test func replaying_every_row_draws_what_drawing_directly_draws() {
        let size = Size(width: 14, height: 5)
        let frame = FrameRows(size: size, symbols: .unicode)
        menu(selected: 1, on: frame)
        let replayed = TextCanvas(size: size)
        for row in frame.rows.indices { frame.replay(row: row, on: replayed) }
        let direct = TextCanvas(size: size)
        menu(selected: 1, on: direct)
        #expect(replayed.lines == direct.lines)
        for row in 0..<size.height {
            for column in 0..<size.width {
                #expect(replayed.style(atRow: row, column: column) == direct.style(atRow: row, column: column))
            }
        }
        #expect(frame.cursor?.row == 2 && frame.cursor?.column == 3)
    }

    @Test func a_moved_selection_changes_only_its_two_rows() {
        let size = Size(width: 14, height: 5)
        let before = FrameRows(size: size, symbols: .unicode)
        menu(selected: 0, on: before)
        let after = FrameRows(size: size, symbols: .unicode)
        menu(selected: 1, on: after)
        let changed = before.rows.indices.filter { before.rows[$0] != after.rows[$0] }
        #expect(changed == [1, 2])
    }

    @Test func puts_outside_the_rows_are_dropped() {
        let frame = FrameRows(size: Size(width: 4, height: 2), symbols: .ascii)
        frame.put("x", row: -1, column: 0, style: .normal)
        frame.put("x", row: 2, column: 0, style: .normal)
        frame.put("", row: 0, column: 0, style: .normal)
        #expect(frame.rows == [[], []])
    }

    @Test func a_cleared_frame_draws_as_a_new_one() {
        let size = Size(width: 14, height: 5)
        let reused = FrameRows(size: size, symbols: .unicode)
        menu(selected: 0, on: reused)
        reused.clear()
        #expect(reused.rows.allSatisfy { $0.isEmpty })
        #expect(reused.cursor == nil)
        menu(selected: 2, on: reused)
        let new = FrameRows(size: size, symbols: .unicode)
        menu(selected: 2, on: new)
        #expect(reused.rows == new.rows)
        #expect(reused.cursor?.row == new.cursor?.row && reused.cursor?.column == new.cursor?.column)
    }
}
