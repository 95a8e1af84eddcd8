import Foundation

/// Why the embedded backend could not start. Nothing on disk is modified when one of these is thrown.
public enum EmbeddedBackendError: Error, Equatable, CustomStringConvertible, LocalizedError {
    /// The database file exists but is not a readable SQLite database; it was left untouched.
    case corruptDatabase(String)
    /// The data directory cannot be created or written to.
    case dataDirectoryNotWritable(String)
    /// The token-signing key file exists but cannot be read as an RSA private key; it was left untouched.
    case unreadableSigningKey(String)
    /// The database could not be opened or migrated for another reason.
    case storageFailure(String)
    /// The database file exists but cannot be opened for reading and writing.
    case databaseNotWritable(String)
    /// The database file is empty although it completed its first start here (`FirstStartMarker`).
    case emptiedDatabase(String)
    /// The database file is gone although it completed its first start here; nothing was created.
    case missingDatabase(String)
    /// The database was made by a newer AuthDeck (migrations this one does not know).
    case newerDatabase(String)
    /// The data belongs to another project than the one asked for; its tokens name that project.
    case projectMismatch(path: String, stored: String, requested: String)
    /// A file the backend needs exists but is damaged (a certificate that does not parse); it was left untouched.
    case unreadableFile(String)
    /// The service-account file exists but is not a service-account JSON with an RSA key; it was left untouched.
    case unreadableServiceAccount(String)
    /// The service-account file names another project (path, its project id); it was left untouched.
    case serviceAccountOfAnotherProject(String, String)

    public var description: String {
        switch self {
        case let .corruptDatabase(path):
            "The account database at \(path) is damaged or is not an AuthDeck database. It was left untouched; move it away or restore a backup."
        case let .dataDirectoryNotWritable(path):
            "The data directory \(path) cannot be written to. Choose another directory with --data or fix its permissions."
        case let .unreadableSigningKey(path):
            "The token-signing key at \(path) cannot be read as an RSA private key. It was left untouched; move it away to generate a new one (existing sessions will end)."
        case let .storageFailure(detail):
            "The account database could not be opened: \(detail)"
        case let .databaseNotWritable(path):
            "The account database \(path) cannot be opened for reading and writing. Fix its permissions (chmod 600) or choose another --data."
        case let .emptiedDatabase(path):
            "The account database \(path) is empty, but this data directory has been used (\(Self.markerName(path)) records its first start): every account would be gone. It was left untouched; restore a backup, or move the whole data directory away to start afresh."
        case let .missingDatabase(path):
            "The account database \(path) is missing, but this data directory has been used (\(Self.markerName(path)) records its first start): every account would be gone. Nothing was created; restore a backup, or move the whole data directory away to start afresh."
        case let .newerDatabase(path):
            "The account database \(path) was written by a newer AuthDeck. It was left untouched; use that version, or choose another --data."
        case let .projectMismatch(path, stored, requested):
            "The data in \(path) belongs to project \(stored), not \(requested): its accounts' tokens name \(stored). Serve it with --project \(stored) (or without --project), or choose another --data for \(requested)."
        case let .unreadableFile(path):
            "\(path) is damaged. It was left untouched; move it away to generate a new one (existing sessions will end)."
        case let .unreadableServiceAccount(path):
            "The service-account file at \(path) cannot be read as a service-account JSON with an RSA key. It was left untouched; move it away to generate a new one (custom tokens signed with the old key will be refused)."
        case let .serviceAccountOfAnotherProject(path, other):
            "The service-account file at \(path) belongs to project \(other), not to the project served here. It was left untouched; serve that project, or move the file away to generate a new one."
        }
    }

    public var errorDescription: String? { description }

    private static func markerName(_ databasePath: String) -> String {
        (FirstStartMarker.path(forDatabaseAt: databasePath) as NSString).lastPathComponent
    }
}
