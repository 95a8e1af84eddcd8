import Foundation

/// Where AuthDeck keeps its files: `--data DIR`, else `$XDG_DATA_HOME/authdeck`,
/// else `~/.local/share/authdeck`.
struct DataDirectory {
    let url: URL

    static func resolve(explicit: String?, environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
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
