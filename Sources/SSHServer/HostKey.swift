import Crypto
import Foundation
import NIOSSH

/// The server's identity: an ed25519 key made on first run and kept in the data directory
/// (mode 0600), so visitors see the same fingerprint every time.
public struct HostKey: Sendable {
    public let privateKey: NIOSSHPrivateKey
    public let publicKey: NIOSSHPublicKey

    /// `SHA256:…`, as `ssh-keygen -lf` and OpenSSH's first-connection prompt show it.
    public var fingerprint: String { KeyFingerprint.sha256(publicKey) }

    /// The key in `path` (base64 of its 32-byte seed), created when the file does not exist yet;
    /// the public half is also written beside it as `path.pub` in OpenSSH's format.
    public static func loadOrCreate(at url: URL) throws -> HostKey {
        let key: Curve25519.Signing.PrivateKey
        if FileManager.default.fileExists(atPath: url.path) {
            let text = try String(contentsOf: url, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
            guard let seed = Data(base64Encoded: text), let loaded = try? Curve25519.Signing.PrivateKey(rawRepresentation: seed) else {
                throw HostKeyError.damaged(url.path)
            }
            key = loaded
        } else {
            key = Curve25519.Signing.PrivateKey()
            try writeExclusively(Data((key.rawRepresentation.base64EncodedString() + "\n").utf8), to: url)
        }
        let hostKey = HostKey(privateKey: NIOSSHPrivateKey(ed25519Key: key), publicKey: NIOSSHPrivateKey(ed25519Key: key).publicKey)
        let publicURL = url.appendingPathExtension("pub")
        if !FileManager.default.fileExists(atPath: publicURL.path) {
            try? writeExclusively(Data((String(openSSHPublicKey: hostKey.publicKey) + " authdeck-ssh\n").utf8), to: publicURL)
        }
        return hostKey
    }

    /// Created with mode 0600 from the start (never readable by others, even for a moment).
    private static func writeExclusively(_ data: Data, to url: URL) throws {
        let fd = open(url.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw HostKeyError.cannotWrite(url.path, String(cString: strerror(errno))) }
        let handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
        try handle.write(contentsOf: data)
        try handle.synchronize()
    }
}

public enum HostKeyError: Error, CustomStringConvertible {
    case damaged(String)
    case cannotWrite(String, String)

    public var description: String {
        switch self {
        case let .damaged(path): "The SSH host key \(path) is damaged. Move it away to make a new one (visitors will see a new fingerprint)."
        case let .cannotWrite(path, reason): "Cannot write the SSH host key \(path): \(reason)"
        }
    }
}

/// Key fingerprints as OpenSSH prints them.
public enum KeyFingerprint {
    /// `SHA256:` and the unpadded base64 of the SHA-256 of the key's wire encoding.
    public static func sha256(_ key: NIOSSHPublicKey) -> String {
        let blob = Data(base64Encoded: String(String(openSSHPublicKey: key).split(separator: " ")[1])) ?? Data()
        let digest = Data(SHA256.hash(data: blob)).base64EncodedString()
        return "SHA256:" + digest.replacingOccurrences(of: "=", with: "")
    }
}
