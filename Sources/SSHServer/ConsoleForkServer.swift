import CPty
import CThreads
import Foundation
import Logging
import Synchronization

/// Starts consoles by forking a process of this binary that is already loaded, rather than
/// exec'ing it anew: a static binary of this size makes the loader relocate and copy about 2 MB
/// per start, which forked consoles share instead. The fork server is a process of its own, which
/// serves from the program's entry once it has drawn a console's first screen off-screen (its
/// consoles inherit the runtime's caches filled), so it holds nothing of the server's: no host
/// key, no token, no backend. Its consoles are reparented to this process (a subreaper), which
/// waits for them as it would for its own children.
///
/// A fork server that dies, hangs or cannot start is replaced at the next console; if that one
/// fails too, the console is spawned with posix_spawn. A request waits at most `answerTimeout`.
final class ConsoleForkServer: Sendable {
    private final class Running: Sendable {
        let pid: pid_t
        let socket: Int32
        /// Reaped: its id may belong to another process now.
        let exited = Atomic(false)

        init(pid: pid_t, socket: Int32) {
            self.pid = pid
            self.socket = socket
        }
    }

    static let answerTimeout: Int32 = 3000

    private let executable: String
    private let logger: Logger
    private let running = Mutex<Running?>(nil)

    /// Nil when this process cannot adopt the consoles (then every console is spawned).
    init?(executable: String, logger: Logger) {
        let status = authdeck_become_subreaper()
        guard status == 0 else {
            logger.warning("consoles are spawned, not forked", metadata: ["error": "\(String(cString: strerror(status)))"])
            return nil
        }
        self.executable = executable
        self.logger = logger
        // Started now rather than at the first visitor: a room's first arrivals do not wait for its start.
        let started = launch()
        running.withLock { $0 = started }
    }

    /// The new console's id, or nil when no fork server could start it (the caller spawns it then).
    /// Blocks: call it off the event loops.
    func start(argv: [UnsafeMutablePointer<CChar>?], envp: [UnsafeMutablePointer<CChar>?], slavePath: [CChar], channel: Int32) -> pid_t? {
        running.withLock { running in
            for _ in 0..<2 {
                if running == nil { running = launch() }
                guard let server = running else { return nil }
                var pid: pid_t = 0
                let status = authdeck_fork_server_request(server.socket, argv, envp, slavePath, channel, Self.answerTimeout, &pid)
                if status == 0 { return pid }
                logger.error("the console fork server failed; starting another", metadata: ["error": "\(String(cString: strerror(status)))"])
                end(server)
                running = nil
            }
            logger.error("a console is spawned: no fork server could start it")
            return nil
        }
    }

    /// Ends the fork server (its consoles go on); the next console starts a new one.
    func stop() {
        running.withLock { running in
            if let server = running { end(server) }
            running = nil
        }
    }

    /// The fork server's id, while one runs.
    var pid: pid_t? { running.withLock { $0?.pid } }

    private func launch() -> Running? {
        var pair: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_SEQPACKET.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &pair) == 0 else {
            logger.error("cannot start the console fork server", metadata: ["error": "\(String(cString: strerror(errno)))"])
            return nil
        }
        // Above 3, so that the child's dup2 onto 3 is a real copy (one without close-on-exec).
        let childEnd = fcntl(pair[1], F_DUPFD_CLOEXEC, 10)
        close(pair[1])
        var pid: pid_t = 0
        let status = childEnd < 0 ? errno : authdeck_fork_server_start(executable, childEnd, &pid)
        if childEnd >= 0 { close(childEnd) }
        guard status == 0 else {
            close(pair[0])
            logger.error("cannot start the console fork server", metadata: ["error": "\(String(cString: strerror(status)))"])
            return nil
        }
        let server = Running(pid: pid, socket: pair[0])
        let logger = logger
        ChildReaper.shared.watch(pid) { status in
            server.exited.store(true, ordering: .sequentiallyConsistent)
            logger.notice("the console fork server exited", metadata: ["pid": "\(server.pid)", "status": "\(status)"])
        }
        return server
    }

    /// Closing its socket ends a fork server that still listens; one that hangs is killed.
    private func end(_ server: Running) {
        close(server.socket)
        if !server.exited.load(ordering: .sequentiallyConsistent) { kill(server.pid, SIGKILL) }
    }
}

/// Waits for every child on one thread: a pidfd per child in one poll(2), rather than a thread
/// per child blocked in waitpid. Each child's status is reported once, as a shell would give it
/// (the code, or 128 + the signal that ended it).
final class ChildReaper: Sendable {
    static let shared = ChildReaper()

    private struct Watch: Sendable {
        let pid: pid_t
        let report: @Sendable (Int32) -> Void
    }

    /// By pidfd.
    private let watched = Mutex<[Int32: Watch]>([:])
    private let wakeRead: Int32
    private let wakeWrite: Int32

    private init() {
        var ends: [Int32] = [-1, -1]
        precondition(pipe(&ends) == 0, "no pipe for the child reaper")
        for end in ends {
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
        }
        wakeRead = ends[0]
        wakeWrite = ends[1]
        let thread = Thread { [self] in
            authdeck_name_thread("reaper")
            run()
        }
        thread.stackSize = 128 * 1024
        thread.start()
    }

    func watch(_ pid: pid_t, then report: @escaping @Sendable (Int32) -> Void) {
        let pidfd = authdeck_pidfd_open(pid)
        guard pidfd >= 0 else { return Self.waitOnOwnThread(pid, then: report) }
        watched.withLock { $0[pidfd] = Watch(pid: pid, report: report) }
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)
    }

    private func run() {
        var buffer = [UInt8](repeating: 0, count: 64)
        while true {
            var descriptors = [pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
                + watched.withLock { $0.keys.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) } }
            guard poll(&descriptors, nfds_t(descriptors.count), -1) > 0 else { continue }
            while read(wakeRead, &buffer, buffer.count) > 0 {}
            for descriptor in descriptors.dropFirst() where descriptor.revents != 0 {
                let status = authdeck_pidfd_reap(descriptor.fd)
                let watch = watched.withLock { $0.removeValue(forKey: descriptor.fd) }
                close(descriptor.fd)
                // Reaped elsewhere (not a child after all): it has exited, how is unknown.
                watch?.report(status < 0 ? 255 : status)
            }
        }
    }

    /// Without pidfds (Linux before 5.3): a thread for this child, blocked in waitpid.
    private static func waitOnOwnThread(_ pid: pid_t, then report: @escaping @Sendable (Int32) -> Void) {
        let thread = Thread {
            authdeck_name_thread("reap \(pid)")
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
            let signal = status & 0x7f
            report(signal == 0 ? (status >> 8) & 0xff : 128 + signal)
        }
        thread.stackSize = 128 * 1024
        thread.start()
    }
}
