import Foundation
import Logging
import Synchronization

/// Appends log lines to a file (mode 0600). The terminal belongs to curses, so nothing is
/// ever logged to stdout or stderr while the console runs; secrets are never passed in.
/// The file is bounded: past `sizeLimit` it becomes `authdeck.log.1` (replacing the one before)
/// and a new one starts, so a serve answering thousands of requests a second keeps at most
/// twice the limit on disk.
struct FileLogHandler: LogHandler {
    static let sizeLimit: UInt64 = 8 * 1024 * 1024

    private final class Sink: Sendable {
        let url: URL
        let handle: Mutex<FileHandle>

        init(url: URL) throws {
            self.url = url
            handle = Mutex(try Self.openForAppending(url))
        }

        func write(_ line: String) {
            handle.withLock { handle in
                try? handle.write(contentsOf: Data(line.utf8))
                guard let size = try? handle.offset(), size > FileLogHandler.sizeLimit else { return }
                try? handle.close()
                let rotated = URL(fileURLWithPath: url.path + ".1")
                _ = try? FileManager.default.removeItem(at: rotated)
                _ = try? FileManager.default.moveItem(at: url, to: rotated)
                if let fresh = try? Self.openForAppending(url) { handle = fresh }
            }
        }

        private static func openForAppending(_ url: URL) throws -> FileHandle {
            if !FileManager.default.fileExists(atPath: url.path) {
                _ = FileManager.default.createFile(atPath: url.path, contents: nil, attributes: [.posixPermissions: 0o600])
            }
            let handle = try FileHandle(forWritingTo: url)
            try handle.seekToEnd()
            return handle
        }
    }

    private let sink: Sink
    private let label: String
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level

    static func open(_ url: URL, level: Logger.Level = .info) throws -> @Sendable (String) -> any LogHandler {
        let sink = try Sink(url: url)
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
        let line = "\(Date().ISO8601Format()) \(event.level) \(label): \(event.message)\(fields.isEmpty ? "" : " " + fields)\n"
        sink.write(line)
    }
}
