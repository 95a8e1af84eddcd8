import Glibc

/// A non-blocking pipe a thread or a signal handler writes to so that `poll` wakes up.
/// Both ends close when the last holder (the terminal, any `Waker`) lets go, so a late
/// `wake()` never writes to a closed or reused descriptor.
final class SelfPipe: Sendable {
    let readEnd: Int32
    let writeEnd: Int32

    init() throws(TerminalError) {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw .pipeFailed(errno: errno) }
        for end in ends {
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
        }
        readEnd = ends[0]
        writeEnd = ends[1]
    }

    deinit {
        close(readEnd)
        close(writeEnd)
    }

    /// Everything written so far.
    func drain() -> [UInt8] {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64)
        while true {
            let count = read(readEnd, &buffer, buffer.count)
            guard count > 0 else { return bytes }
            bytes += buffer[..<count]
        }
    }
}

/// Wakes the run loop from any thread or task: the loop then handles `.wake` and redraws.
public struct Waker: Sendable {
    let pipe: SelfPipe

    public func wake() {
        var byte: UInt8 = 1
        // Never blocks: when the pipe is full (EAGAIN) a wake is already pending.
        _ = write(pipe.writeEnd, &byte, 1)
    }
}
