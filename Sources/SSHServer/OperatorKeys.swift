import Foundation
import NIOSSH

/// The operators' public keys, from an OpenSSH `authorized_keys` file.
public struct OperatorKeys: Sendable {
    public let keys: Set<NIOSSHPublicKey>
    /// Each key's comment (`alice@laptop`), printable and at most 64 characters, where the line has one:
    /// how the audit log names the operator, beside the key's fingerprint.
    public let comments: [NIOSSHPublicKey: String]
    /// Lines that were not taken, with why (logged at start-up, so a typo does not go unnoticed).
    public let skipped: [String]

    public init(keys: Set<NIOSSHPublicKey> = [], comments: [NIOSSHPublicKey: String] = [:], skipped: [String] = []) {
        self.keys = keys
        self.comments = comments
        self.skipped = skipped
    }

    /// The key types swift-nio-ssh verifies.
    static let supportedTypes: Set<String> = ["ssh-ed25519", "ecdsa-sha2-nistp256", "ecdsa-sha2-nistp384", "ecdsa-sha2-nistp521"]

    /// Blank lines and `#` comments are ignored. A line with options (`from=`, `command=`,
    /// `restrict`…) is skipped rather than honoured in part: a key meant to be restricted must not
    /// become an unrestricted operator.
    public static func parse(_ text: String) -> OperatorKeys {
        var keys: Set<NIOSSHPublicKey> = []
        var comments: [NIOSSHPublicKey: String] = [:]
        var skipped: [String] = []
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            let number = index + 1
            guard let type = fields.first.map(String.init), fields.count >= 2 else {
                skipped.append("line \(number): not a key")
                continue
            }
            guard supportedTypes.contains(type) else {
                let hasOptions = !type.hasPrefix("ssh-") && !type.hasPrefix("ecdsa-") && !type.hasPrefix("sk-")
                skipped.append(hasOptions ? "line \(number): key options are not supported"
                                          : "line \(number): \(type) keys are not supported (ed25519 and ECDSA are)")
                continue
            }
            guard let key = try? NIOSSHPublicKey(openSSHPublicKey: "\(type) \(fields[1])") else {
                skipped.append("line \(number): the key does not decode")
                continue
            }
            keys.insert(key)
            let comment = String(fields.dropFirst(2).joined(separator: " ").unicodeScalars
                .filter { $0.isASCII && $0.value >= 0x20 && $0.value < 0x7F }.prefix(64).map(Character.init))
            if !comment.isEmpty { comments[key] = comment }
        }
        return OperatorKeys(keys: keys, comments: comments, skipped: skipped)
    }

    public static func load(from url: URL) throws -> OperatorKeys {
        parse(try String(contentsOf: url, encoding: .utf8))
    }

    public func contains(_ key: NIOSSHPublicKey) -> Bool { keys.contains(key) }
}
