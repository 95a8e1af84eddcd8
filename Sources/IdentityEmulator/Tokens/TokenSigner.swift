import Crypto
import CryptoExtras
import Foundation

/// Signs and verifies RS256 ID tokens with the backend's RSA key, kept as PEM in the data directory.
struct TokenSigner: Sendable {
    private let privateKey: _RSA.Signing.PrivateKey
    /// Derived from the public key, so it is stable across restarts and changes with the key.
    let keyId: String
    /// The self-signed certificate of the public key, PEM.
    let certificatePEM: String

    init(keyPath: String, certificatePath: String) throws {
        if FileManager.default.fileExists(atPath: keyPath) {
            guard let data = FileManager.default.contents(atPath: keyPath),
                  let key = try? _RSA.Signing.PrivateKey(pemRepresentation: String(decoding: data, as: UTF8.self)) else {
                throw EmbeddedBackendError.unreadableSigningKey(keyPath)
            }
            privateKey = key
        } else {
            privateKey = try _RSA.Signing.PrivateKey(keySize: .bits2048)
            try DataDirectory.createPrivateFile(at: keyPath, contents: Data(privateKey.pemRepresentation.utf8))
        }
        let digest = SHA256.hash(data: privateKey.publicKey.derRepresentation)
        keyId = digest.prefix(20).map { String(format: "%02x", $0) }.joined()
        certificatePEM = try SigningCertificate.loadOrCreate(at: certificatePath, for: privateKey)
    }

    func sign(claims: [String: Any]) throws -> String {
        let header: [String: Any] = ["alg": "RS256", "kid": keyId, "typ": "JWT"]
        let options: JSONSerialization.WritingOptions = [.sortedKeys, .withoutEscapingSlashes]
        let signingInput = try JSONSerialization.data(withJSONObject: header, options: options).base64URLEncodedString() + "."
            + JSONSerialization.data(withJSONObject: claims, options: options).base64URLEncodedString()
        let signature = try privateKey.signature(for: Data(signingInput.utf8), padding: .insecurePKCS1v1_5)
        return signingInput + "." + signature.rawRepresentation.base64URLEncodedString()
    }

    /// The payload of a token this signer issued, or nil when the header or signature is not ours.
    func verifiedPayload(of token: String) -> Data? {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3,
              let headerData = Data(base64URLEncoded: String(parts[0])),
              let header = try? JSONDecoder().decode(Header.self, from: headerData),
              header.alg == "RS256", header.kid == keyId,
              let payload = Data(base64URLEncoded: String(parts[1])),
              let signature = Data(base64URLEncoded: String(parts[2])) else { return nil }
        let signingInput = Data(token.utf8.prefix(parts[0].utf8.count + 1 + parts[1].utf8.count))
        guard privateKey.publicKey.isValidSignature(_RSA.Signing.RSASignature(rawRepresentation: signature), for: signingInput,
                                                    padding: .insecurePKCS1v1_5) else { return nil }
        return payload
    }

    /// `{"keys":[{kty, alg, use, kid, n, e}]}` so that other processes can verify our tokens.
    func jwks() -> Data {
        guard let primitives = try? privateKey.publicKey.getKeyPrimitives() else { return Data(#"{"keys":[]}"#.utf8) }
        let key: [String: String] = [
            "kty": "RSA", "alg": "RS256", "use": "sig", "kid": keyId,
            "n": primitives.modulus.base64URLEncodedString(), "e": primitives.publicExponent.base64URLEncodedString(),
        ]
        return (try? JSONSerialization.data(withJSONObject: ["keys": [key]], options: [.sortedKeys])) ?? Data()
    }

    /// `{kid: PEM certificate}`, the shape of Google's `robot/v1/metadata/x509` document.
    func x509Certificates() -> Data {
        (try? JSONSerialization.data(withJSONObject: [keyId: certificatePEM], options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
    }

    private struct Header: Decodable {
        let alg: String
        let kid: String?
    }
}
