import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The identity of the database's files (device, inode, size, modification time of the database
/// and of a non-empty write-ahead log) when they were last known intact: checked by
/// `PRAGMA quick_check`, or left by a clean close. `quick_check` reads every page (about 0.4 s at
/// 100,000 accounts), so a start whose files are exactly as stamped skips it; any write since,
/// by SQLite or by anything else, changes the identity and the next start checks again.
struct IntegrityStamp: Equatable {
    private var fields: [Int64]

    /// Kept beside the database, as SQLite keeps its `-wal` and `-shm`.
    static func path(forDatabaseAt databasePath: String) -> String { databasePath + "-intact" }

    /// The files as they are now; nil when the database cannot be examined.
    static func current(databaseAt databasePath: String) -> IntegrityStamp? {
        guard let database = identity(of: databasePath) else { return nil }
        // An empty log holds nothing: SQLite creates one on open and removes it on a clean close.
        let log = identity(of: databasePath + "-wal").flatMap { $0[2] > 0 ? $0 : nil } ?? []
        return IntegrityStamp(fields: database + log)
    }

    /// The stamp written last; nil when there is none or it is unreadable.
    static func stored(forDatabaseAt databasePath: String) -> IntegrityStamp? {
        guard let data = FileManager.default.contents(atPath: path(forDatabaseAt: databasePath)) else { return nil }
        let fields = String(decoding: data, as: UTF8.self).split(whereSeparator: \.isWhitespace).compactMap { Int64($0) }
        return fields.count == 5 || fields.count == 10 ? IntegrityStamp(fields: fields) : nil
    }

    /// Best effort: a data directory that cannot take the stamp is only checked at every start.
    func store(forDatabaseAt databasePath: String) {
        let text = fields.map(String.init).joined(separator: " ") + "\n"
        try? BackendFiles.replacePrivateFile(at: Self.path(forDatabaseAt: databasePath), contents: Data(text.utf8))
    }

    private static func identity(of path: String) -> [Int64]? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        #if canImport(Darwin)
        let modified = status.st_mtimespec
        #else
        let modified = status.st_mtim
        #endif
        return [Int64(status.st_dev), Int64(status.st_ino), Int64(status.st_size), Int64(modified.tv_sec), Int64(modified.tv_nsec)]
    }
}
