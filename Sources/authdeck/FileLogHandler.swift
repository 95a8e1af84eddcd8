import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Logging
import Synchronization

/// Appends log lines to a file (mode 0600). The terminal belongs to curses, so nothing is
/// ever logged to stdout or stderr while the console runs; secrets are never passed in.
/// The file is opened with `O_APPEND` and each line is one write(2), so several processes on
/// one data directory (two serves, a console beside a serve) keep every line of each other.
/// It is bounded: past `sizeLimit` it becomes `authdeck.log.1` (replacing the one before) and a
/// new one starts, so a serve answering thousands of requests a second keeps at most twice that.
struct FileLogHandler: LogHandler {
    static let sizeLimit = 8 * 1024 * 1024

    private final class Sink: Sendable {
        struct State {
            var descriptor: Int32
            /// Bytes this process wrote since it last looked at the file's size.
            var unchecked: Int
        }

        /// How much is written between looks at the size (an fstat(2) per line would be a syscall per request).
        static let checkEvery = 64 * 1024

        let path: String
        let state: Mutex<State>

        init(path: String, descriptor: Int32) {
            self.path = path
            // The first line looks at once: a log already at its limit moves aside then.
            state = Mutex(State(descriptor: descriptor, unchecked: Self.checkEvery))
        }

        func append(_ line: [UInt8]) {
            state.withLock { state in
                // One write(2) per line: with O_APPEND the kernel puts it whole at the end of the file.
                line.withUnsafeBytes { _ = write(state.descriptor, $0.baseAddress, $0.count) }
                state.unchecked += line.count
                guard state.unchecked >= Self.checkEvery else { return }
                state.unchecked = 0
                var status = stat()
                guard fstat(state.descriptor, &status) == 0, status.st_size > FileLogHandler.sizeLimit else { return }
                _ = rename(path, path + ".1")
                let fresh = openForAppending(path)
                guard fresh >= 0 else { return }
                close(state.descriptor)
                state.descriptor = fresh
            }
        }
    }

    private let sink: Sink
    private let label: String
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level

    static func open(path: String, level: Logger.Level = .info) throws -> @Sendable (String) -> any LogHandler {
        let descriptor = openForAppending(path)
        guard descriptor >= 0 else {
            let reason = errno == EISDIR ? "it is a directory; move it away" : String(cString: strerror(errno))
            throw StartupError("Cannot open the log file \(path): \(reason).")
        }
        let sink = Sink(path: path, descriptor: descriptor)
        return { label in FileLogHandler(sink: sink, label: label, level: level) }
    }

    private init(sink: Sink, label: String, level: Logger.Level) {
        self.sink = sink
        self.label = label
        logLevel = level
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let all = metadata.isEmpty ? event.metadata ?? [:] : metadata.merging(event.metadata ?? [:]) { $1 }
        var line: [UInt8] = []
        line.reserveCapacity(160)
        Self.appendTimestamp(to: &line)
        line.append(UInt8(ascii: " "))
        line.append(contentsOf: event.level.rawValue.utf8)
        line.append(UInt8(ascii: " "))
        line.append(contentsOf: label.utf8)
        line.append(contentsOf: ": ".utf8)
        line.append(contentsOf: event.message.description.utf8)
        // Appended piece by piece: a string made per field costs a third of a request's log line.
        for (key, value) in all.sorted(by: { $0.key < $1.key }) {
            line.append(UInt8(ascii: " "))
            line.append(contentsOf: key.utf8)
            line.append(UInt8(ascii: "="))
            switch value {
            case .string(let text): line.append(contentsOf: text.utf8)
            case .stringConvertible, .dictionary, .array: line.append(contentsOf: value.description.utf8)
            }
        }
        line.append(UInt8(ascii: "\n"))
        sink.append(line)
    }

    /// `2026-11-23T21:57:27Z`, UTC to the second, as `Date.ISO8601Format()` writes it, from the
    /// C library's calendar: Foundation's format style is most of the cost of a request's line.
    static func appendTimestamp(to line: inout [UInt8]) {
        var now = time(nil)
        var fields = tm()
        gmtime_r(&now, &fields)
        func digits(_ value: Int32, _ count: Int) {
            var divisor: Int32 = 1
            for _ in 1..<count { divisor *= 10 }
            while divisor > 0 {
                line.append(UInt8(ascii: "0") + UInt8(value / divisor % 10))
                divisor /= 10
            }
        }
        digits(fields.tm_year + 1900, 4)
        line.append(UInt8(ascii: "-"))
        digits(fields.tm_mon + 1, 2)
        line.append(UInt8(ascii: "-"))
        digits(fields.tm_mday, 2)
        line.append(UInt8(ascii: "T"))
        digits(fields.tm_hour, 2)
        line.append(UInt8(ascii: ":"))
        digits(fields.tm_min, 2)
        line.append(UInt8(ascii: ":"))
        digits(fields.tm_sec, 2)
        line.append(UInt8(ascii: "Z"))
    }
}

private func openForAppending(_ path: String) -> Int32 {
    open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
}
