import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The files of one embedded backend under `--data DIR`. Secrets live here, so everything
/// is created owner-only: directories 0700, files 0600.
struct BackendFiles {
    let root: URL

    var databasePath: String { root.appendingPathComponent("identity.sqlite").path }
    var keysDirectory: URL { root.appendingPathComponent("keys", isDirectory: true) }
    var signingKeyPath: String { keysDirectory.appendingPathComponent("securetoken.pem").path }
    var signingCertificatePath: String { keysDirectory.appendingPathComponent("securetoken.crt").path }
    /// The project's service account (`credentials.Certificate` loads it); custom tokens are signed with its key.
    var serviceAccountPath: String { root.appendingPathComponent("service-account.json").path }
    /// The simulated identity providers' signing keys, one `<providerId>.pem` each.
    var identityProviderKeysDirectory: URL { root.appendingPathComponent("idp-keys", isDirectory: true) }

    /// Creates the directory (and `keys/`, `idp-keys/`) if needed and checks that it can be written.
    static func prepare(_ root: URL) throws -> BackendFiles {
        let directory = BackendFiles(root: root)
        try directory.ensureDirectory(root)
        try directory.ensureDirectory(directory.keysDirectory)
        try directory.ensureDirectory(directory.identityProviderKeysDirectory)
        return directory
    }

    private func ensureDirectory(_ url: URL) throws {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else { throw EmbeddedBackendError.dataDirectoryNotWritable(url.path) }
        } else {
            do {
                try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true,
                                                        attributes: [.posixPermissions: 0o700])
            } catch {
                throw EmbeddedBackendError.dataDirectoryNotWritable(url.path)
            }
        }
        guard access(url.path, W_OK | X_OK) == 0 else { throw EmbeddedBackendError.dataDirectoryNotWritable(url.path) }
    }

    /// Writes a new file that is owner-only from the moment it exists (no window with wider permissions).
    static func createPrivateFile(at path: String, contents: Data) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        guard descriptor >= 0 else { throw EmbeddedBackendError.dataDirectoryNotWritable(path) }
        defer { close(descriptor) }
        try contents.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = write(descriptor, buffer.baseAddress.map { $0 + offset }, buffer.count - offset)
                guard written > 0 else { throw EmbeddedBackendError.dataDirectoryNotWritable(path) }
                offset += written
            }
        }
    }

    /// Replaces a file atomically: readers see the old contents or the new, never a mix.
    static func replacePrivateFile(at path: String, contents: Data) throws {
        let temporary = path + ".\(UUID().uuidString).tmp"
        try createPrivateFile(at: temporary, contents: contents)
        guard rename(temporary, path) == 0 else {
            unlink(temporary)
            throw EmbeddedBackendError.dataDirectoryNotWritable(path)
        }
    }
}
