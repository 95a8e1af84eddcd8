import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Logging

/// Appends log lines to a file (mode 0600). The terminal belongs to curses, so nothing is
/// ever logged to stdout or stderr while the console runs; secrets are never passed in.
/// The file is opened with `O_APPEND` and each line is one write(2), so several processes on
/// one data directory (two serves, a console beside a serve) keep every line of each other.
struct FileLogHandler: LogHandler {
    private final class Sink: Sendable {
        let descriptor: Int32
        init(descriptor: Int32) { self.descriptor = descriptor }
    }

    private let sink: Sink
    private let label: String
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .info

    static func open(_ url: URL) throws -> @Sendable (String) -> any LogHandler {
        let descriptor = openForAppending(url.path)
        guard descriptor >= 0 else {
            let reason = errno == EISDIR ? "it is a directory; move it away" : String(cString: strerror(errno))
            throw StartupError("Cannot open the log file \(url.path): \(reason).")
        }
        let sink = Sink(descriptor: descriptor)
        return { label in FileLogHandler(sink: sink, label: label) }
    }

    private init(sink: Sink, label: String) {
        self.sink = sink
        self.label = label
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let all = metadata.merging(event.metadata ?? [:]) { $1 }
        let fields = all.keys.sorted().map { "\($0)=\(all[$0].map { "\($0)" } ?? "")" }.joined(separator: " ")
        let line = "\(Date().ISO8601Format()) \(event.level) \(label): \(event.message)\(fields.isEmpty ? "" : " " + fields)\n"
        // One write(2) per line: with O_APPEND the kernel puts it whole at the end of the file.
        _ = Array(line.utf8).withUnsafeBytes { write(sink.descriptor, $0.baseAddress, $0.count) }
    }
}

private func openForAppending(_ path: String) -> Int32 {
    open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
}
