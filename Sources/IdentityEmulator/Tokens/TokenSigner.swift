import Crypto
import CryptoExtras
import CThreads
import Foundation
import Synchronization

/// Signs and verifies RS256 ID tokens with the backend's RSA key, kept as PEM in the data directory.
struct TokenSigner: Sendable {
    private let key: SigningKey

    /// An existing key is read now, so an unreadable one stops the start. A missing one is made
    /// on a thread of its own: RSA-2048 generation takes 50–200 ms, and opening a new data
    /// directory (the console's first frame) must not wait for it. The first token waits instead.
    /// `systemOpenSSL`: sign through the system's libcrypto when it is there (SystemRSAKey); tests turn it
    /// off to compare with BoringSSL's signatures.
    init(keyPath: String, certificatePath: String, systemOpenSSL: Bool = true) throws {
        if FileManager.default.fileExists(atPath: keyPath) {
            key = SigningKey(ready: try SigningKey.Material(existingKeyAt: keyPath, certificatePath: certificatePath,
                                                            systemOpenSSL: systemOpenSSL))
        } else {
            // The key is made off the start-up path, but a damaged certificate is refused now, not at the first token.
            _ = try SigningCertificate.existing(at: certificatePath)
            key = SigningKey { try SigningKey.Material(newKeyAt: keyPath, certificatePath: certificatePath, systemOpenSSL: systemOpenSSL) }
        }
    }

    /// Derived from the public key, so it is stable across restarts and changes with the key.
    var keyId: String { get throws { try key.material().keyId } }

    /// The MAC key of refresh tokens (`RefreshTokenSession`): derived from the private key, so the data
    /// directory holds no second secret, and a new signing key ends every session, as it ends every ID token.
    var refreshTokenKey: SymmetricKey { get throws { try key.material().refreshTokenKey } }

    /// The MAC key of project API keys (`ProjectAPIKeys`), derived the same way for the same reasons.
    var projectAPIKeyKey: SymmetricKey { get throws { try key.material().projectAPIKeyKey } }

    /// The self-signed certificate of the public key, PEM.
    var certificatePEM: String { get throws { try key.material().certificatePEM } }

    func sign(claims: [String: Any]) throws -> String {
        try sign(payload: JSONSerialization.data(withJSONObject: claims, options: [.sortedKeys, .withoutEscapingSlashes]))
    }

    /// `payload`: the claims as JSON.
    func sign(payload: some Collection<UInt8>) throws -> String {
        let material = try key.material()
        var signingInput = material.encodedHeader
        signingInput.append(UInt8(ascii: "."))
        signingInput.append(contentsOf: Base64URL.encode(payload).utf8)
        let signature = try material.systemKey?.signature(for: signingInput)
            ?? Array(material.privateKey.signature(for: signingInput, padding: .insecurePKCS1v1_5).rawRepresentation)
        signingInput.append(UInt8(ascii: "."))
        signingInput.append(contentsOf: Base64URL.encode(signature).utf8)
        return String(decoding: signingInput, as: UTF8.self)
    }

    /// The payload of a token this signer issued, or nil when the header or signature is not ours.
    func verifiedPayload(of token: String) -> Data? {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let material = try? key.material(),
              let headerData = Data(base64URLEncoded: String(parts[0])),
              let header = try? JSONDecoder().decode(Header.self, from: headerData),
              header.alg == "RS256", header.kid == material.keyId,
              let payload = Data(base64URLEncoded: String(parts[1])),
              let signature = Data(base64URLEncoded: String(parts[2])) else { return nil }
        let signingInput = Data(token.utf8.prefix(parts[0].utf8.count + 1 + parts[1].utf8.count))
        guard material.privateKey.publicKey.isValidSignature(_RSA.Signing.RSASignature(rawRepresentation: signature), for: signingInput,
                                                    padding: .insecurePKCS1v1_5) else { return nil }
        return payload
    }

    /// `{"keys":[{kty, alg, use, kid, n, e}]}` so that other processes can verify our tokens.
    func jwks() -> Data {
        guard let material = try? key.material(), let primitives = try? material.privateKey.publicKey.getKeyPrimitives() else {
            return Data(#"{"keys":[]}"#.utf8)
        }
        let key: [String: String] = [
            "kty": "RSA", "alg": "RS256", "use": "sig", "kid": material.keyId,
            "n": primitives.modulus.base64URLEncodedString(), "e": primitives.publicExponent.base64URLEncodedString(),
        ]
        return (try? JSONSerialization.data(withJSONObject: ["keys": [key]], options: [.sortedKeys])) ?? Data()
    }

    /// `{kid: PEM certificate}`, the shape of Google's `robot/v1/metadata/x509` document.
    func x509Certificates() -> Data {
        guard let material = try? key.material() else { return Data("{}".utf8) }
        return (try? JSONSerialization.data(withJSONObject: [material.keyId: material.certificatePEM],
                                            options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
    }

    private struct Header: Decodable {
        let alg: String
        let kid: String?
    }
}

/// A signing key that is ready, or being made by a thread of its own; `material()` waits for it.
final class SigningKey: Sendable {
    struct Material: Sendable {
        let privateKey: _RSA.Signing.PrivateKey
        /// The same key in the system's OpenSSL, which signs faster; nil when turned off.
        let systemKey: SystemRSAKey?
        let keyId: String
        let certificatePEM: String
        /// The JWT header, base64url: the same for every token of this key.
        let encodedHeader: [UInt8]
        let refreshTokenKey: SymmetricKey
        let projectAPIKeyKey: SymmetricKey

        init(existingKeyAt keyPath: String, certificatePath: String, systemOpenSSL: Bool) throws {
            guard let data = FileManager.default.contents(atPath: keyPath),
                  let key = try? _RSA.Signing.PrivateKey(pemRepresentation: String(decoding: data, as: UTF8.self)) else {
                throw EmbeddedBackendError.unreadableSigningKey(keyPath)
            }
            try self.init(key: key, certificatePath: certificatePath, systemOpenSSL: systemOpenSSL)
        }

        /// Makes a key and publishes it whole (a process that quits meanwhile leaves no half a
        /// key behind); if another process published one first, that one is used.
        init(newKeyAt keyPath: String, certificatePath: String, systemOpenSSL: Bool) throws {
            let key = try _RSA.Signing.PrivateKey(keySize: .bits2048)
            let temporary = keyPath + ".\(UUID().uuidString).tmp"
            try BackendFiles.createPrivateFile(at: temporary, contents: Data(key.pemRepresentation.utf8))
            defer { unlink(temporary) }
            guard link(temporary, keyPath) == 0 else {
                guard errno == EEXIST else { throw EmbeddedBackendError.dataDirectoryNotWritable(keyPath) }
                try self.init(existingKeyAt: keyPath, certificatePath: certificatePath, systemOpenSSL: systemOpenSSL)
                return
            }
            try self.init(key: key, certificatePath: certificatePath, systemOpenSSL: systemOpenSSL)
        }

        private init(key: _RSA.Signing.PrivateKey, certificatePath: String, systemOpenSSL: Bool) throws {
            privateKey = key
            systemKey = systemOpenSSL ? SystemRSAKey(pemRepresentation: key.pemRepresentation) : nil
            let digest = SHA256.hash(data: key.publicKey.derRepresentation)
            keyId = digest.prefix(20).hexadecimal
            var header = JSONWriter(capacity: 80)
            header.beginObject()
            header.field("alg", "RS256")
            header.field("kid", keyId)
            header.field("typ", "JWT")
            header.endObject()
            encodedHeader = Array(Base64URL.encode(header.bytes).utf8)
            refreshTokenKey = HKDF<SHA256>.deriveKey(inputKeyMaterial: SymmetricKey(data: key.derRepresentation),
                                                     info: Data("authdeck refresh tokens v1".utf8), outputByteCount: 32)
            projectAPIKeyKey = HKDF<SHA256>.deriveKey(inputKeyMaterial: SymmetricKey(data: key.derRepresentation),
                                                      info: Data("authdeck project api keys v1".utf8), outputByteCount: 32)
            certificatePEM = try SigningCertificate.loadOrCreate(at: certificatePath, for: key)
        }
    }

    private let result = Mutex<Result<Material, any Error>?>(nil)
    private let made = DispatchGroup()

    init(ready material: Material) {
        result.withLock { $0 = .success(material) }
    }

    init(making make: @escaping @Sendable () throws -> Material) {
        made.enter()
        Thread {
            authdeck_name_thread("signing key")
            self.finish(Result { try make() })
        }.start()
    }

    private func finish(_ outcome: Result<Material, any Error>) {
        result.withLock { $0 = outcome }
        made.leave()
    }

    func material() throws -> Material {
        made.wait()
        return try result.withLock { $0! }.get()
    }
}
