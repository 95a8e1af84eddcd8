import Crypto
import CryptoExtras
import Foundation

/// Firebase's modified scrypt: the scrypt-derived key encrypts the project's signer key with
/// AES-256-CTR, so hashes can be exported to and imported from Firebase projects unchanged.
public enum ModifiedScrypt {
    public static func hash(password: String, salt: Data, saltSeparator: Data, signerKey: Data, rounds: Int, memCost: Int) throws -> Data {
        let derived = try KDF.Scrypt.deriveKey(
            from: Data(password.utf8), salt: salt + saltSeparator, outputByteCount: 64,
            rounds: 1 << memCost, blockSize: rounds, parallelism: 1)
        let aesKey = derived.withUnsafeBytes { SymmetricKey(data: Data($0.prefix(32))) }
        return try AES._CTR.encrypt(signerKey, using: aesKey, nonce: AES._CTR.Nonce(nonceBytes: [UInt8](repeating: 0, count: 16)))
    }
}

/// The project's hash parameters, created once per data directory.
struct ScryptParameters: Sendable {
    var signerKey: Data
    var saltSeparator: Data
    var rounds: Int
    var memCost: Int

    static func generate() -> ScryptParameters {
        ScryptParameters(signerKey: SecureRandom.bytes(64), saltSeparator: Data([0x07]), rounds: 8, memCost: 14)
    }

    /// On a hashing thread (`RequestThreads.hashing`), the request's task suspended meanwhile: its
    /// thread answers other requests (a thread blocked per hash, sixteen sign-ins at once held every
    /// request thread). Never call it inside a write transaction.
    func hash(password: String, salt: Data) async throws -> Data {
        try await RequestThreads.hashing.run {
            try ModifiedScrypt.hash(password: password, salt: salt, saltSeparator: saltSeparator, signerKey: signerKey, rounds: rounds, memCost: memCost)
        }
    }

    /// Constant-time comparison, so response timing says nothing about how much of a hash matched.
    func verify(password: String, salt: Data, expected: Data) async throws -> Bool {
        let actual = try await hash(password: password, salt: salt)
        guard actual.count == expected.count else { return false }
        return zip(actual, expected).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }
}

/// The kernel's generator, one system call per draw of up to 256 bytes: swift-crypto's
/// `SymmetricKey(size:)` made one per eight bytes (fourteen per anonymous sign-up).
enum SecureRandom {
    static func bytes(_ count: Int) -> Data {
        guard count > 0 else { return Data() }
        var data = Data(count: count)
        data.withUnsafeMutableBytes { buffer in
            // getentropy(3) is getrandom(2) with whole answers, up to 256 bytes a call.
            var filled = 0
            while filled < count {
                let chunk = min(256, count - filled)
                precondition(getentropy(buffer.baseAddress! + filled, chunk) == 0, "the kernel's random generator failed: \(errno)")
                filled += chunk
            }
        }
        return data
    }

    /// Firebase-style local ids: 28 alphanumerics, each equally likely.
    static func localId() -> String {
        var id: [UInt8] = []
        id.reserveCapacity(28)
        while id.count < 28 {
            // 248 = 4 × 62: bytes above it are dropped, so that no character is likelier than another.
            for byte in bytes(32) where byte < 248 && id.count < 28 { id.append(alphabet[Int(byte) % alphabet.count]) }
        }
        return String(decoding: id, as: UTF8.self)
    }

    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".utf8)
}
