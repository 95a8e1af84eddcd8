import CThreads
import Foundation
import Synchronization

/// A terminal loop waits in poll(2) for the whole session. On a thread of Swift's cooperative
/// pool that would take one of its few threads (one per core) away from every task for good,
/// so the loop gets a thread of its own and the caller awaits it without blocking.
///
/// The thread starts at once and runs `prepare` (for the console: curses taking over the terminal),
/// while the caller gets the rest ready; `run` then hands the thread its loop, or `cancel` ends it
/// unused.
public final class TerminalThread<Prepared>: Sendable {
    private enum Order {
        case none
        case run(@Sendable (Prepared) throws -> Void, UnsafeContinuation<Void, any Error>)
        case cancel(UnsafeContinuation<Void, Never>)
        /// `run` or `cancel` came; a second order is a programming error.
        case taken
    }

    private let order = Mutex(Order.none)
    private let ordered = DispatchSemaphore(value: 0)

    /// Starts the thread, which runs `prepare` and then waits for `run` or `cancel`. What `prepare`
    /// makes never leaves the thread: ncurses, for one, is confined to the thread that started it.
    public init(prepare: @escaping @Sendable () throws -> Prepared) {
        startThread { [self] in
            authdeck_name_thread("terminal")
            let resume = carryOut(prepare)
            resume()
        }
    }

    /// Runs `body` on the thread with what `prepare` made, and returns when it returns; `prepare`'s
    /// error, if it failed, or `body`'s. At most once, and not after `cancel`.
    /// On the caller's executor (the main thread, for `authdeck`): a hop to Swift's cooperative pool
    /// would wait for its first thread to start, about 0.4 ms before the first frame. Unsafe continuations,
    /// not checked: each is resumed once, and a checked one's type is made at run time, with a scan of
    /// every protocol conformance in the binary before the first frame.
    public nonisolated(nonsending) func run(_ body: @escaping @Sendable (Prepared) throws -> Void) async throws {
        try await withUnsafeThrowingContinuation { (continuation: UnsafeContinuation<Void, any Error>) in
            order.withLock { order in
                guard case .none = order else { preconditionFailure("TerminalThread ordered twice") }
                order = .run(body, continuation)
            }
            ordered.signal()
        }
    }

    /// Ends the thread without running anything (what `prepare` made is let go of there), and
    /// returns once it has. Nothing if `run` came first: its own wait covered the thread's end.
    public nonisolated(nonsending) func cancel() async {
        await withUnsafeContinuation { (continuation: UnsafeContinuation<Void, Never>) in
            let given = order.withLock { order -> Bool in
                guard case .none = order else { return false }
                order = .cancel(continuation)
                return true
            }
            if given { ordered.signal() } else { continuation.resume() }
        }
    }

    /// Runs `prepare`, waits for the order and carries it out. What `prepare` made is let go of when this
    /// returns, before the caller is resumed (the terminal is given back by then).
    private func carryOut(_ prepare: () throws -> Prepared) -> () -> Void {
        let prepared = Result { try prepare() }
        ordered.wait()
        let taken = order.withLock { order in
            let taken = order
            order = .taken
            return taken
        }
        switch taken {
        case let .run(body, continuation):
            let outcome = Result { try body(prepared.get()) }
            return { continuation.resume(with: outcome) }
        case let .cancel(continuation):
            return { continuation.resume() }
        case .none, .taken:
            preconditionFailure("TerminalThread woken without an order")
        }
    }
}

/// A detached POSIX thread running `body`, started on another core than the caller's: curses starts
/// there while the caller opens the data directory, rather than after it. Not Foundation's `Thread`:
/// its start-up (its own naming, `Thread.current`) takes about 0.2 ms before `body`, before the first frame.
private func startThread(_ body: @escaping @Sendable () -> Void) {
    let context = Unmanaged.passRetained(ThreadBody(body)).toOpaque()
    let created = authdeck_start_thread_beside({ context in
        Unmanaged<ThreadBody>.fromOpaque(context!).takeRetainedValue().run()
        return nil
    }, context)
    precondition(created == 0, "cannot start the terminal's thread: \(created)")
}

private final class ThreadBody: Sendable {
    let run: @Sendable () -> Void
    init(_ run: @escaping @Sendable () -> Void) { self.run = run }
}
