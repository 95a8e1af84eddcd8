import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `identity.sqlite-created`: written once, when a database has completed its first start (its schema
/// and project settings committed), before the backend answers anything, and synced with its
/// directory so that it survives a crash. From then on an empty or missing database beside it is data
/// that was lost, never a first start that was interrupted: that is decided from this file alone,
/// not from keys or stamps that are written later, or not at all.
enum FirstStartMarker {
    static func path(forDatabaseAt databasePath: String) -> String { databasePath + "-created" }

    static func exists(forDatabaseAt databasePath: String) -> Bool {
        var status = stat()
        return lstat(path(forDatabaseAt: databasePath), &status) == 0
    }

    /// Writes the marker unless it is there; either way it is on disk when this returns. A data
    /// directory that cannot take it cannot start: without it, a later loss would pass for a first start.
    static func record(forDatabaseAt databasePath: String, projectId: String) throws {
        let path = path(forDatabaseAt: databasePath)
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        if descriptor >= 0 {
            defer { close(descriptor) }
            // For whoever looks: the file's existence is what counts.
            let text = Array("AuthDeck: the database beside this file completed its first start (project \(projectId)).\n".utf8)
            guard write(descriptor, text, text.count) == text.count, fsync(descriptor) == 0 else {
                throw EmbeddedBackendError.dataDirectoryNotWritable(path)
            }
        } else if errno != EEXIST {
            throw EmbeddedBackendError.dataDirectoryNotWritable(path)
        }
        // Another process that made it may not have synced its directory yet.
        try syncDirectory(of: path)
    }

    /// Before a project's database is deleted on purpose (emptied to be made anew): the next start is a first one.
    static func remove(forDatabaseAt databasePath: String) throws {
        let path = path(forDatabaseAt: databasePath)
        if unlink(path) == 0 {
            try syncDirectory(of: path)
        } else if errno != ENOENT {
            throw EmbeddedBackendError.dataDirectoryNotWritable(path)
        }
    }

    private static func syncDirectory(of path: String) throws {
        let directory = (path as NSString).deletingLastPathComponent
        let descriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw EmbeddedBackendError.dataDirectoryNotWritable(directory) }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw EmbeddedBackendError.dataDirectoryNotWritable(directory) }
    }
}
