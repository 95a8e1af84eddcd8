import Foundation
import RoomChannel
import Synchronization

/// A console's end of its room channel under `authdeck ssh` (a socket on the descriptor
/// `AUTHDECK_ROOM_FD` names). It reads on a thread of its own and writes on another, so the
/// terminal's loop never waits on the server: `send` queues, a newer frame replaces one not sent yet.
public final class RoomClient: Sendable {
    public static let variable = "AUTHDECK_ROOM_FD"

    private struct Outgoing {
        var lines: [Data] = []
        var frame: Data?
        var closed = false
    }

    private let descriptor: Int32
    private let outgoing = Mutex(Outgoing())
    private let resetsTold = Atomic(0)
    private let ready = DispatchSemaphore(value: 0)

    /// The channel the variable names, if it names an open socket.
    public init?(variable value: String?) {
        guard let value, let descriptor = Int32(value), descriptor > 2 else { return nil }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFSOCK else { return nil }
        // Not for whatever this console might start.
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        self.descriptor = descriptor
    }

    /// Starts reading and writing; `receive` gets each message the server sends, on the reading thread.
    public func start(receive: @escaping @Sendable (RoomMessage) -> Void) {
        let descriptor = descriptor
        let reading = Thread { [self] in
            var reader = RoomLineReader()
            var buffer = [UInt8](repeating: 0, count: 65536)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { return }
                for item in reader.read(buffer[..<count]) {
                    guard case let .message(message) = item else { continue }
                    // Counted before the console hears of it: an outbox read after the reset knows of it.
                    if Self.tellsOfReset(message) { resetsTold.add(1, ordering: .sequentiallyConsistent) }
                    receive(message)
                }
            }
        }
        reading.name = "room reader"
        reading.stackSize = 256 * 1024
        reading.start()
        let writing = Thread { [self] in
            while true {
                ready.wait()
                let (lines, closed) = outgoing.withLock { outgoing in
                    defer {
                        outgoing.lines.removeAll()
                        outgoing.frame = nil
                    }
                    return (outgoing.lines + (outgoing.frame.map { [$0] } ?? []), outgoing.closed)
                }
                for line in lines where !writeAll(line) { return }
                if closed { return }
            }
        }
        writing.name = "room writer"
        writing.stackSize = 256 * 1024
        writing.start()
    }

    /// How many resets of the demo the server told this console of: its own project emptied (a
    /// visitor's), or the visitors' projects emptied at its command (an operator's). A message that
    /// leaves the outbox after one went with its project, unused.
    public var resets: Int { resetsTold.load(ordering: .sequentiallyConsistent) }

    static func tellsOfReset(_ message: RoomMessage) -> Bool {
        switch message {
        case .notice(.accountReset), .resetDone: true
        case .status, .command, .frame, .notice, .room, .resetPreview, .answered, .refused, .sendFrames, .followed, .followEnded: false
        }
    }

    public func send(_ message: RoomMessage) {
        let line = RoomLine.encode(message)
        let isFrame = if case .frame = message { true } else { false }
        outgoing.withLock { outgoing in
            if isFrame { outgoing.frame = line } else { outgoing.lines.append(line) }
        }
        ready.signal()
    }

    /// Sends what is queued, then stops writing; the reading thread ends with the server's end.
    public func close() {
        outgoing.withLock { $0.closed = true }
        ready.signal()
    }

    private func writeAll(_ line: Data) -> Bool {
        line.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0, errno == EINTR { continue }
                guard written > 0 else { return false }
                offset += written
            }
            return true
        }
    }
}
