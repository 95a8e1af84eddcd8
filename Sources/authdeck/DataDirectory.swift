import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where AuthDeck keeps its files: `--data DIR`, else `$XDG_DATA_HOME/authdeck`,
/// else `~/.local/share/authdeck`.
struct DataDirectory {
    let url: URL

    static func resolve(explicit: String?, environment: Environment = .process) -> URL {
        if let explicit, !explicit.isEmpty {
            return URL(fileURLWithPath: (explicit as NSString).expandingTildeInPath, isDirectory: true)
        }
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
            return URL(fileURLWithPath: xdg, isDirectory: true).appendingPathComponent("authdeck", isDirectory: true)
        }
        let home = environment["HOME"] ?? NSHomeDirectory()
        return URL(fileURLWithPath: home, isDirectory: true).appendingPathComponent(".local/share/authdeck", isDirectory: true)
    }

    /// Creates the directory (mode 0700) and checks that it is writable, so a read-only
    /// location is reported before the full-screen UI starts rather than half-way through.
    static func prepare(_ url: URL) throws -> DataDirectory {
        let manager = FileManager.default
        var isDirectory: ObjCBool = false
        if manager.fileExists(atPath: url.path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else { throw DataDirectoryError.notADirectory(url.path) }
            tightenPermissions(url.path)
        } else {
            do {
                try manager.createDirectory(at: url, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            } catch {
                throw DataDirectoryError.cannotCreate(url.path, error.localizedDescription)
            }
        }
        guard manager.isWritableFile(atPath: url.path) else { throw DataDirectoryError.readOnly(url.path) }
        return DataDirectory(url: url)
    }

    func file(_ name: String) -> URL { url.appendingPathComponent(name) }

    /// An existing directory of ours that others may read (0755) becomes 0700: it holds keys and
    /// accounts. A shared directory (sticky, like /tmp) or somebody else's is left alone.
    private static func tightenPermissions(_ path: String) {
        var status = stat()
        guard stat(path, &status) == 0, status.st_uid == getuid(), status.st_mode & S_ISVTX == 0,
              status.st_mode & 0o077 != 0 else { return }
        chmod(path, 0o700)
    }
}

enum DataDirectoryError: Error, CustomStringConvertible {
    case notADirectory(String)
    case cannotCreate(String, String)
    case readOnly(String)

    var description: String {
        switch self {
        case let .notADirectory(path): "The data path \(path) exists but is not a directory."
        case let .cannotCreate(path, reason): "Cannot create the data directory \(path): \(reason)"
        case let .readOnly(path): "The data directory \(path) is not writable. Choose another with --data DIR."
        }
    }
}
