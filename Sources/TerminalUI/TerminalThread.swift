import CThreadName
import Foundation

/// A terminal loop waits in poll(2) for the whole session. On a thread of Swift's cooperative
/// pool that would take one of its few threads (one per core) away from every task for good,
/// so the loop gets a thread of its own and the caller awaits it without blocking. The thread is
/// started from the caller's own executor, with no hop to the pool before it.
public enum TerminalThread {
    public nonisolated(nonsending) static func run(_ body: @escaping @Sendable () throws -> Void) async throws {
        // Unsafe, not checked: the thread resumes it exactly once, and a checked continuation's type was
        // made at run time, with a scan of every protocol conformance in the binary before the first frame.
        try await withUnsafeThrowingContinuation { (continuation: UnsafeContinuation<Void, any Error>) in
            Thread {
                authdeck_name_thread("terminal")
                continuation.resume(with: Result { try body() })
            }.start()
        }
    }
}
