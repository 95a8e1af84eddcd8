import CPty
import Foundation
import NIOCore

/// A terminal size as the console gets it: a pty-req or window-change from the client, clamped so
/// that neither 0×0 nor 10000×10000 reaches curses (which allocates every cell).
struct WindowSize: Equatable {
    static let fallback = WindowSize(columns: 80, rows: 24)
    static let maxColumns = 500
    static let maxRows = 200

    let columns: Int
    let rows: Int

    init(columns: Int, rows: Int) {
        self.columns = columns
        self.rows = rows
    }

    /// A zero dimension means "unknown" in SSH (the pixel size may be given instead): use 80×24.
    init(clampingColumns columns: Int, rows: Int) {
        if columns <= 0 || rows <= 0 {
            self = .fallback
        } else {
            self.init(columns: min(columns, Self.maxColumns), rows: min(rows, Self.maxRows))
        }
    }
}

/// One session's console: a child process on its own pty, in its own session (`setsid`), so a
/// window-change reaches it as SIGWINCH and a hang-up as SIGHUP.
struct ConsoleProcess {
    let pid: pid_t
    /// The pty's master side, close-on-exec; whoever takes it closes it.
    let master: Int32
    /// The server's end of the console's room channel (a socket pair whose other end the console
    /// has on descriptor 3), close-on-exec; whoever takes it closes it.
    let room: Int32

    /// The console's variable naming its end of the room channel.
    static let roomVariable = "AUTHDECK_ROOM_FD"

    struct SpawnError: Error, CustomStringConvertible {
        let step: String
        let code: Int32
        var description: String { "\(step): \(String(cString: strerror(code)))" }
    }

    /// Through `forkServer` when there is one and it answers, else with posix_spawn. Blocks for as
    /// long as fork and exec take: call it off the event loops.
    static func start(executable: String, arguments: [String], environment: [String: String], size: WindowSize,
                      forkServer: ConsoleForkServer?) throws -> ConsoleProcess {
        var master: Int32 = -1
        var slavePath = [CChar](repeating: 0, count: 128)
        let opened = authdeck_pty_open(UInt16(size.rows), UInt16(size.columns), &master, &slavePath, slavePath.count)
        guard opened == 0 else { throw SpawnError(step: "opening a pseudo-terminal", code: opened) }

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.sorted { $0.key < $1.key }.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pair: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &pair) == 0 else {
            let code = errno
            close(master)
            throw SpawnError(step: "opening the room channel", code: code)
        }
        // Above 3, so that the child's dup2 onto 3 is a real copy (one without close-on-exec).
        let childEnd = fcntl(pair[1], F_DUPFD_CLOEXEC, 10)
        close(pair[1])
        var pid: pid_t = 0
        let spawned: Int32
        if childEnd < 0 {
            spawned = errno
        } else if let forked = forkServer?.start(argv: argv, envp: envp, slavePath: slavePath, channel: childEnd) {
            pid = forked
            spawned = 0
        } else {
            spawned = authdeck_pty_spawn(executable, argv, envp, slavePath, childEnd, &pid)
        }
        if childEnd >= 0 { close(childEnd) }
        guard spawned == 0 else {
            close(master)
            close(pair[0])
            throw SpawnError(step: "starting the console", code: spawned)
        }
        return ConsoleProcess(pid: pid, master: master, room: pair[0])
    }

    static func resize(master: Int32, to size: WindowSize) {
        _ = authdeck_pty_resize(master, UInt16(size.rows), UInt16(size.columns))
    }

    /// Reports the console's exit status as a shell would: the code, or 128 + the signal that ended it.
    static func reap(_ pid: pid_t, then report: @escaping @Sendable (Int32) -> Void) {
        ChildReaper.shared.watch(pid, then: report)
    }
}
