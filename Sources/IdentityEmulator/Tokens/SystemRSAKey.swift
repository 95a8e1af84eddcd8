import CLibcrypto
import Crypto
import Synchronization

/// The signing key as the system's OpenSSL 3 holds it. Its RSA-2048 signatures take about half the
/// time of BoringSSL's on a CPU with AVX-512 (IFMA), which BoringSSL does not use, and a signature
/// is the largest part of a sign-up or a token refresh. libcrypto is loaded at the first signature,
/// so a process that never signs never pays for it; without it (no libssl3) `signature` is nil and
/// the caller signs with BoringSSL.
final class SystemRSAKey: Sendable {
    private let pemRepresentation: String
    private let state = Mutex<State>(.notLoaded)

    private enum State {
        case notLoaded
        case loaded(LibcryptoRSAKey)
        case unavailable
    }

    init(pemRepresentation: String) {
        self.pemRepresentation = pemRepresentation
    }

    /// RSASSA-PKCS1-v1_5 with SHA-256 of `message`: the same bytes as BoringSSL's (the scheme is
    /// deterministic), or nil when libcrypto cannot sign.
    func signature(for message: [UInt8]) -> [UInt8]? {
        guard let key = loadedKey() else { return nil }
        let digest = SHA256.hash(data: message)
        let signature = digest.withUnsafeBytes { digest in
            [UInt8](unsafeUninitializedCapacity: 512) { buffer, count in
                count = authdeck_libcrypto_rsa_sign_sha256(key.pointer, digest.baseAddress?.assumingMemoryBound(to: UInt8.self),
                                                           buffer.baseAddress, buffer.count)
            }
        }
        return signature.isEmpty ? nil : signature
    }

    private func loadedKey() -> LibcryptoRSAKey? {
        state.withLock { state in
            switch state {
            case let .loaded(key): return key
            case .unavailable: return nil
            case .notLoaded:
                guard let key = LibcryptoRSAKey(pemRepresentation: pemRepresentation) else {
                    state = .unavailable
                    return nil
                }
                state = .loaded(key)
                return key
            }
        }
    }
}

/// Owns libcrypto's key. Its functions may be called from any thread (each keeps its own context).
private final class LibcryptoRSAKey: @unchecked Sendable {
    let pointer: OpaquePointer

    init?(pemRepresentation: String) {
        var pem = pemRepresentation
        guard let pointer = pem.withUTF8({ authdeck_libcrypto_rsa_key_new($0.baseAddress, $0.count) }) else { return nil }
        self.pointer = pointer
    }

    deinit {
        authdeck_libcrypto_rsa_key_free(pointer)
    }
}
