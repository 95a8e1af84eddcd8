import CCurses
import Glibc

/// What an event handler tells the run loop.
public enum LoopControl: Sendable {
    case `continue`, quit
}

public enum TerminalError: Error, Sendable, Equatable, CustomStringConvertible {
    /// stdin or stdout is not a terminal.
    case notATerminal
    /// curses could not set up the terminal (unknown TERM, say).
    case cannotInitialize
    case pipeFailed(errno: Int32)

    /// What a person can do about it, after "needs an interactive terminal: ".
    public var description: String {
        switch self {
        case .notATerminal:
            "its standard input and output are not one (over SSH, `ssh -t` asks for one)"
        case .cannotInitialize:
            "ncurses has no description of TERM=\(getenv("TERM").map { String(cString: $0) } ?? "") (xterm-256color is one it has)"
        case let .pipeFailed(errno):
            "no pipe for its wake-ups (\(String(cString: strerror(errno))))"
        }
    }
}

/// The terminal and its run loop. ncurses is not thread-safe, so a `Terminal` is confined to
/// the thread that created it (checked) and is not Sendable; other threads and tasks reach
/// the loop only through its `Waker`.
public final class Terminal {
    /// Give to async work; `wake()` makes the loop deliver `.wake` and redraw.
    public let waker: Waker

    private let wakePipe: SelfPipe
    private let signalPipe: SelfPipe
    private let owner = pthread_self()
    private var window: UnsafeMutablePointer<WINDOW>?
    private var isActive = false
    private var colorEnabled = false
    private var symbols = Symbols.unicode
    private var decoder = KeyDecoder()
    /// The last frame drawn, while the window still shows it; nil after a (re)start.
    private var shownFrame: FrameRows?
    /// The frame before it, emptied and drawn on next, so that a frame allocates no rows.
    private var spareFrame: FrameRows?
    /// OSC 52 sequences asked for since the last frame, written after the next one.
    private var clipboardSequences: [String] = []
    /// Signals that were ignored before `start`, given back as ignored by `stop`.
    private var ignoredSignals: Set<Int32> = []
    /// A line to print on the normal screen, once the terminal is restored, when a signal ends the loop:
    /// why the console is going, for whoever sees it go.
    public var farewells: [Int32: String] = [:]

    /// Only makes the pipes; nothing touches the terminal until `start`.
    public init() throws(TerminalError) {
        wakePipe = try SelfPipe()
        signalPipe = try SelfPipe()
        waker = Waker(pipe: wakePipe)
    }

    deinit {
        stop()
    }

    /// Takes over the terminal: raw keys (ctrl-c arrives as a key), no echo, keypad decoding,
    /// a 25 ms escape delay, bracketed paste, colour unless disabled.
    public func start(noColor: Bool = false) throws(TerminalError) {
        checkThread()
        guard !isActive else { return }
        guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else { throw .notATerminal }
        authdeck_setlocale()
        // Ours before curses starts, so curses leaves these signals to us.
        installSignalHandlers()
        if window == nil {
            // The size comes from the terminal itself, never from LINES/COLUMNS: a stale export
            // (pytest sets them, some shells export them) would lay out for the wrong size.
            use_tioctl(true)
            guard authdeck_newterm() != nil else {
                removeSignalHandlers()
                throw .cannotInitialize
            }
            window = authdeck_stdscr()
        }
        guard let window else { return }
        raw()
        noecho()
        nonl()
        keypad(window, true)
        nodelay(window, true)  // poll(2) does the waiting
        set_escdelay(25)
        // Each frame is drawn whole: curses need not poll for typeahead (twice per frame) to cut one short.
        typeahead(-1)
        colorEnabled = CursesCanvas.wantsColor(noColorFlag: noColor) { name in getenv(name).map { String(cString: $0) } }
            && has_colors()
        if colorEnabled {
            start_color()
            CursesCanvas.installColorPairs()
        }
        symbols = authdeck_locale_is_utf8() != 0 ? .unicode : .ascii
        shownFrame = nil
        Self.writeToTerminal("\u{1B}[?2004h")
        isActive = true
        _ = Self.restoreAtExit
    }

    /// Gives the terminal back: curses mode off, bracketed paste off, default signal handling.
    /// Idempotent; `run` calls it on every way out.
    public func stop() {
        guard isActive else { return }
        isActive = false
        removeSignalHandlers()
        endwin()
        Self.writeToTerminal("\u{1B}[?2004l")
        decoder = KeyDecoder()
    }

    /// Runs until `handle` returns `.quit`, throws, or the terminal goes away (stdin closed);
    /// restores the terminal in every case. Draws a frame first and after each batch of events;
    /// `afterFirstFrame` runs once the first frame has been written.
    /// SIGTERM, SIGHUP, SIGINT and SIGQUIT restore the terminal and exit with 128 + signal.
    public func run(
        _ handle: (TerminalEvent) throws -> LoopControl,
        draw: (any Canvas) -> Void,
        afterFirstFrame: () -> Void = {}
    ) throws {
        checkThread()
        precondition(isActive, "Terminal.run before start")
        defer { stop() }
        render(draw)
        afterFirstFrame()
        while true {
            guard let events = nextEvents() else { return }
            for event in events where try handle(event) == .quit {
                return
            }
            render(draw)
        }
    }

    /// Asks the terminal to put `text` on the clipboard of whoever sees it (OSC 52). The sequence
    /// goes out after the next frame, between frames, where curses has nothing half-written; it
    /// travels over SSH like the frame does, and terminals that do not allow it ignore it.
    public func copyToClipboard(_ text: String) {
        checkThread()
        clipboardSequences.append(Self.clipboardSequence(text))
    }

    /// `ESC ] 52 ; c ; base64 BEL`: set the clipboard ("c") to the text's UTF-8.
    public static func clipboardSequence(_ text: String) -> String {
        "\u{1B}]52;c;" + Base64.encode(Array(text.utf8)) + "\u{07}"
    }

    /// The size curses is drawing at.
    public var size: Size {
        Size(width: Int(authdeck_cols()), height: Int(authdeck_lines()))
    }

    // MARK: - The loop

    /// Waits for input, a wake or a signal; nil when the terminal has gone.
    private func nextEvents() -> [TerminalEvent]? {
        var fds = [
            pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0),
            pollfd(fd: wakePipe.readEnd, events: Int16(POLLIN), revents: 0),
            pollfd(fd: signalPipe.readEnd, events: Int16(POLLIN), revents: 0),
        ]
        // A paste or control string whose end does not come within half a second is taken as ended.
        let timeout: Int32 = decoder.awaitsMore ? 500 : -1
        let ready = poll(&fds, nfds_t(fds.count), timeout)
        if ready < 0 { return errno == EINTR ? [] : nil }
        if ready == 0 { return decoder.inputStalled().map(TerminalEvent.key) }

        var events: [TerminalEvent] = []
        if fds[2].revents != 0 {
            for signal in signalPipe.drain().map(Int32.init) {
                if signal == SIGWINCH {
                    events.append(.resize(resize()))
                } else {
                    // On this thread, not in the handler: curses calls are not async-signal-safe.
                    stop()
                    if let farewell = farewells[signal] { Self.writeToTerminal(farewell + "\r\n") }
                    exit(128 + signal)
                }
            }
        }
        if fds[1].revents != 0, !wakePipe.drain().isEmpty {
            events.append(.wake)
        }
        let input = fds[0].revents
        if input & Int16(POLLIN) != 0 {
            guard readKeys(into: &events) else { return nil }
        } else if input & Int16(POLLHUP | POLLERR | POLLNVAL) != 0 {
            return nil
        }
        return events
    }

    /// Reads every key curses has; false at end of input.
    private func readKeys(into events: inout [TerminalEvent]) -> Bool {
        guard let window else { return false }
        var readAny = false
        while true {
            // wgetch, not wget_wch: bytes come back as they are, so invalid UTF-8 reaches the
            // decoder; wget_wch swallows it and returns nothing, which looked like end of input.
            let input = wgetch(window)
            if input == ERR { break }
            readAny = true
            if input == KEY_RESIZE {
                events.append(.resize(size))
            } else if (0...0xFF).contains(input) {
                events += decoder.feed(.byte(UInt8(input))).map(TerminalEvent.key)
            } else {
                events += decoder.feed(.keyCode(input)).map(TerminalEvent.key)
            }
        }
        events += decoder.flush().map(TerminalEvent.key)
        // poll said readable, curses read nothing and nothing is waiting: end of file.
        return readAny || authdeck_bytes_available(STDIN_FILENO) > 0
    }

    private func resize() -> Size {
        var rows: Int32 = 0
        var columns: Int32 = 0
        if authdeck_window_size(STDOUT_FILENO, &rows, &columns) == 0, rows > 0, columns > 0 {
            resizeterm(rows, columns)
        }
        return size
    }

    /// One frame: draw, hand curses only the rows that differ from the last frame, then send only
    /// the changed cells (no clear(), which would repaint everything; that matters over a slow SSH link).
    private func render(_ draw: (any Canvas) -> Void) {
        guard let window else { return }
        let frame: FrameRows
        if let spareFrame, spareFrame.size == size, spareFrame.symbols == symbols {
            spareFrame.clear()
            frame = spareFrame
        } else {
            frame = FrameRows(size: size, symbols: symbols)
        }
        draw(frame)
        let canvas = CursesCanvas(window: window, size: frame.size, symbols: symbols, colorEnabled: colorEnabled)
        let previous = shownFrame?.size == frame.size ? shownFrame : nil
        if previous == nil { werase(window) }
        for row in frame.rows.indices where previous?.rows[row] != frame.rows[row] {
            if previous != nil {
                wmove(window, Int32(row), 0)
                wclrtoeol(window)
            }
            frame.replay(row: row, on: canvas)
        }
        spareFrame = shownFrame
        shownFrame = frame
        if let cursor = frame.cursor, (0..<frame.size.height).contains(cursor.row),
           (0..<frame.size.width).contains(cursor.column) {
            wmove(window, Int32(cursor.row), Int32(cursor.column))
            curs_set(1)
        } else {
            curs_set(0)
        }
        wnoutrefresh(window)
        doupdate()
        for sequence in clipboardSequences { Self.writeToTerminal(sequence) }
        clipboardSequences = []
    }

    // MARK: - Signals and restoring

    private static let handledSignals = [SIGTERM, SIGHUP, SIGINT, SIGQUIT, SIGWINCH]

    private func installSignalHandlers() {
        signalPipeWriteEnd = signalPipe.writeEnd
        ignoredSignals = []
        for signal in Self.handledSignals {
            let previous = Glibc.signal(signal, forwardSignal)
            // Started under nohup (or similar): keep ignoring, as shells expect. A hang-up
            // then shows up as stdin closing, which ends the loop too.
            if unsafeBitCast(previous, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self) {
                _ = Glibc.signal(signal, SIG_IGN)
                ignoredSignals.insert(signal)
            }
        }
    }

    private func removeSignalHandlers() {
        for signal in Self.handledSignals {
            _ = Glibc.signal(signal, ignoredSignals.contains(signal) ? SIG_IGN : SIG_DFL)
        }
        signalPipeWriteEnd = -1
    }

    private func checkThread() {
        precondition(pthread_equal(owner, pthread_self()) != 0, "Terminal used off the thread that created it")
    }

    /// The whole sequence, however many writes it takes: a clipboard's sequence can be larger than a
    /// pipe or pty takes at once, and half a control string would leave the terminal parsing garbage.
    private static func writeToTerminal(_ sequence: String) {
        let bytes = Array(sequence.utf8)
        var written = 0
        while written < bytes.count {
            let result = bytes[written...].withUnsafeBytes { write(STDOUT_FILENO, $0.baseAddress, $0.count) }
            if result > 0 {
                written += result
            } else if result < 0, errno == EINTR || errno == EAGAIN {
                continue
            } else {
                return
            }
        }
    }

    /// Registered once, on the first start: an `exit()` while curses is still active (from
    /// anywhere in the app) still leaves a usable shell behind.
    private static let restoreAtExit: Void = {
        atexit {
            guard authdeck_stdscr() != nil, !isendwin() else { return }
            endwin()
            Terminal.writeToTerminal("\u{1B}[?2004l")
        }
    }()
}

/// The signal self-pipe's write end. A signal handler gets no context, so this must be
/// global; it is the only global mutable state here. It is set before the handlers are
/// installed and cleared after they are removed; an aligned Int32 is read atomically.
nonisolated(unsafe) private var signalPipeWriteEnd: Int32 = -1

/// Only async-signal-safe work: write the signal number to the pipe, keep errno intact.
private func forwardSignal(_ signal: Int32) {
    let savedErrno = errno
    var byte = UInt8(truncatingIfNeeded: signal)
    _ = write(signalPipeWriteEnd, &byte, 1)
    errno = savedErrno
}
