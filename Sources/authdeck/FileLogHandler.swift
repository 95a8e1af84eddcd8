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
        let path: String
        let descriptor: Mutex<Int32>

        init(path: String, descriptor: Int32) {
            self.path = path
            self.descriptor = Mutex(descriptor)
        }

        func write(_ line: String) {
            descriptor.withLock { descriptor in
                // One write(2) per line: with O_APPEND the kernel puts it whole at the end of the file.
                writeWhole(descriptor, line)
                var status = stat()
                guard fstat(descriptor, &status) == 0, status.st_size > FileLogHandler.sizeLimit else { return }
                _ = rename(path, path + ".1")
                let fresh = openForAppending(path)
                guard fresh >= 0 else { return }
                close(descriptor)
                descriptor = fresh
            }
        }
    }

    private let sink: Sink
    private let label: String
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level

    static func open(_ url: URL, level: Logger.Level = .info) throws -> @Sendable (String) -> any LogHandler {
        let descriptor = openForAppending(url.path)
        guard descriptor >= 0 else {
            let reason = errno == EISDIR ? "it is a directory; move it away" : String(cString: strerror(errno))
            throw StartupError("Cannot open the log file \(url.path): \(reason).")
        }
        let sink = Sink(path: url.path, descriptor: descriptor)
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
        let all = metadata.merging(event.metadata ?? [:]) { $1 }
        let fields = all.keys.sorted().map { "\($0)=\(all[$0].map { "\($0)" } ?? "")" }.joined(separator: " ")
        sink.write("\(Self.timestamp()) \(event.level) \(label): \(event.message)\(fields.isEmpty ? "" : " " + fields)\n")
    }

    /// Now in UTC as ISO 8601 (`2026-11-23T21:58:30Z`), from the C library: Foundation's formatter
    /// loads its calendar and time-zone data on first use, and took 2 ms of the console's first frame.
    static func timestamp(_ seconds: time_t = time(nil)) -> String {
        var moment = seconds
        var parts = tm()
        guard gmtime_r(&moment, &parts) != nil else { return "-" }
        func padded(_ value: Int32, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return "\(padded(parts.tm_year + 1900, 4))-\(padded(parts.tm_mon + 1, 2))-\(padded(parts.tm_mday, 2))T"
            + "\(padded(parts.tm_hour, 2)):\(padded(parts.tm_min, 2)):\(padded(parts.tm_sec, 2))Z"
    }
}

private func openForAppending(_ path: String) -> Int32 {
    open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
}

private func writeWhole(_ descriptor: Int32, _ line: String) {
    _ = Array(line.utf8).withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
}
