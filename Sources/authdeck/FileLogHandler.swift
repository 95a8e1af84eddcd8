import Foundation
import Logging
import Synchronization

/// Appends log lines to a file (mode 0600). The terminal belongs to curses, so nothing is
/// ever logged to stdout or stderr while the console runs; secrets are never passed in.
struct FileLogHandler: LogHandler {
    private final class Sink: Sendable {
        let handle: Mutex<FileHandle>
        init(handle: FileHandle) { self.handle = Mutex(handle) }
    }

    private let sink: Sink
    private let label: String
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .info

    static func open(_ url: URL) throws -> @Sendable (String) -> any LogHandler {
        if !FileManager.default.fileExists(atPath: url.path) {
            _ = FileManager.default.createFile(atPath: url.path, contents: nil, attributes: [.posixPermissions: 0o600])
        }
        let handle = try FileHandle(forWritingTo: url)
        try handle.seekToEnd()
        let sink = Sink(handle: handle)
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
        sink.handle.withLock { try? $0.write(contentsOf: Data(line.utf8)) }
    }
}
