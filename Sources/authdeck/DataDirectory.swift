import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where AuthDeck keeps its files: `--data DIR`, else `$XDG_DATA_HOME/authdeck`,
/// else `~/.local/share/authdeck`.
struct DataDirectory {
    /// Absolute, without a trailing slash. Kept as text: the console's start reads it before its first
    /// frame, and Foundation's `URL.path` made the Swift runtime scan every protocol conformance in
    /// the binary (a set of bytes it builds), a fifth of a millisecond.
    let path: String
    var url: URL { URL(fileURLWithPath: path, isDirectory: true) }

    static func resolve(explicit: String?, environment: Environment = .process) -> String {
        if let explicit, !explicit.isEmpty {
            return absolute((explicit as NSString).expandingTildeInPath)
        }
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
            return absolute(xdg + "/authdeck")
        }
        return absolute((environment["HOME"] ?? NSHomeDirectory()) + "/.local/share/authdeck")
    }

    /// `path` from the working directory when relative, with no empty or `.` components (what
    /// `URL(fileURLWithPath:).path` gives).
    static func absolute(_ path: String) -> String {
        var full = path
        if !path.hasPrefix("/") {
            // A working directory that is gone leaves the path relative, for mkdir to say so.
            guard let directory = getcwd(nil, 0) else { return path }
            full = String(cString: directory) + "/" + path
            free(directory)
        }
        // Joined by hand: `joined(separator:)` is generic code whose types the runtime makes on first use.
        var absolute = ""
        for component in full.split(separator: "/") where component != "." {
            absolute += "/" + String(component)
        }
        return absolute.isEmpty ? "/" : absolute
    }

    /// Creates the directory (mode 0700) and checks that it is writable, so a read-only
    /// location is reported before the full-screen UI starts rather than half-way through.
    /// System calls, not FileManager: its attribute dictionaries cost the first frame a scan of every
    /// protocol conformance in the binary.
    static func prepare(_ path: String) throws -> DataDirectory {
        var status = stat()
        if stat(path, &status) == 0 {
            guard status.st_mode & S_IFMT == S_IFDIR else { throw DataDirectoryError.notADirectory(path) }
            tightenPermissions(path)
        } else {
            try create(path)
        }
        guard access(path, W_OK) == 0 else { throw DataDirectoryError.readOnly(path) }
        return DataDirectory(path: path)
    }

    /// `path` and the directories above it that are missing (as `mkdir -p`), each 0700 as XDG asks:
    /// they lead to keys and accounts.
    private static func create(_ path: String) throws {
        // Most often only the last one is missing; otherwise each is made (or its failure told) in turn.
        if mkdir(path, 0o700) != 0 {
            var prefix = path.hasPrefix("/") ? "" : "."
            for component in path.split(separator: "/") {
                prefix += "/" + String(component)
                guard mkdir(prefix, 0o700) != 0 else { continue }
                let failure = errno
                guard failure == EEXIST else { throw DataDirectoryError.cannotCreate(path, reason(failure)) }
                var status = stat()
                if stat(prefix, &status) != 0 {
                    let failure = errno
                    // EEXIST from mkdir, ENOENT from stat: a symbolic link to nothing.
                    throw DataDirectoryError.cannotCreate(
                        path, failure == ENOENT ? "\(prefix) is a symbolic link to a missing path" : reason(failure))
                }
                guard status.st_mode & S_IFMT == S_IFDIR else { throw DataDirectoryError.cannotCreate(path, reason(ENOTDIR)) }
            }
        }
        // mkdir's mode is masked by the umask; this one is not.
        chmod(path, 0o700)
    }

    private static func reason(_ code: Int32) -> String { String(cString: strerror(code)) }

    func file(_ name: String) -> URL { URL(fileURLWithPath: filePath(name), isDirectory: false) }
    func filePath(_ name: String) -> String { path + "/" + name }

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
