import Foundation
import Testing
@testable import TerminalUI

@Suite struct TerminalTests {
    /// Never starts curses: tests have no terminal, and initscr would take over this one.
    @Test(.timeLimit(.minutes(1))) func constructs_without_a_tty() throws {
        let terminal = try Terminal()
        terminal.stop()  // never started: nothing to restore
        terminal.stop()
        // Nor anything let go of: a wake still reaches the loop's pipe.
        terminal.waker.wake()
        #expect(terminal.waker.pipe.drain() == [1])
    }

    @Test(.timeLimit(.minutes(1))) func waker_never_blocks_even_when_the_pipe_is_full() async throws {
        let terminal = try Terminal()
        let waker = terminal.waker
        // Threads of their own: a wake that blocked would hold the cooperative pool, and the time limit with it.
        let wakers = DispatchGroup()
        for _ in 0..<4 {
            wakers.enter()
            Thread {
                for _ in 0..<50_000 { waker.wake() }
                wakers.leave()
            }.start()
        }
        await withCheckedContinuation { done in wakers.notify(queue: .global()) { done.resume() } }
        // Fewer bytes than wakes: the pipe filled and the wakes past it returned; one still waits for the loop.
        let pending = waker.pipe.drain()
        #expect(!pending.isEmpty)
        #expect(pending.count < 4 * 50_000)
    }

    @Test(.timeLimit(.minutes(1))) func waker_outliving_its_terminal_is_harmless() throws {
        var terminal: Terminal? = try Terminal()
        let waker = terminal!.waker
        terminal = nil
        waker.wake()
        // The waker holds the pipe open: the byte went to it, not to a closed or reused descriptor.
        #expect(waker.pipe.drain() == [1])
    }

    @Test func colour_is_off_for_no_color_flag_and_dumb_terminals() {
        #expect(CursesCanvas.wantsColor(noColorFlag: false, environment: { ["TERM": "xterm-256color"][$0] }))
        #expect(!CursesCanvas.wantsColor(noColorFlag: true, environment: { ["TERM": "xterm-256color"][$0] }))
        #expect(!CursesCanvas.wantsColor(noColorFlag: false, environment: { ["NO_COLOR": "1", "TERM": "xterm"][$0] }))
        #expect(CursesCanvas.wantsColor(noColorFlag: false, environment: { ["NO_COLOR": "", "TERM": "xterm"][$0] }),
                "NO_COLOR counts only when non-empty")
        #expect(!CursesCanvas.wantsColor(noColorFlag: false, environment: { ["TERM": "dumb"][$0] }))
    }

    @Test func every_role_has_its_own_colour_pair() {
        let pairs = Role.allCases.map(CursesCanvas.pair(for:))
        #expect(Set(pairs).count == Role.allCases.count)
        #expect(!pairs.contains(0), "pair 0 is the terminal default and cannot be changed")
    }
}
