import Crypto
import CryptoExtras
import Foundation
import SwiftASN1
import X509

/// A self-signed X.509 certificate for the ID-token signing key. Google publishes its signer's
/// keys as certificates (`{kid: PEM}`), and verifiers such as the Admin SDKs take them in that
/// form. Kept beside the key so that it is the same across restarts; made anew only when it is
/// missing, for another key, or about to expire. One that does not parse is damage, not something
/// to paper over: it is refused and left as it is.
enum SigningCertificate {
    static let commonName = "securetoken.system.gserviceaccount.com"
    static let lifetime: TimeInterval = 5 * 365 * 24 * 3600

    /// The PEM text of the certificate at `path` for `key`, creating or replacing it when needed.
    static func loadOrCreate(at path: String, for key: _RSA.Signing.PrivateKey, now: Date = Date()) throws -> String {
        if let (certificate, pem) = try existing(at: path),
           certificate.publicKey == Certificate.PublicKey(key.publicKey), certificate.notValidAfter > now.addingTimeInterval(24 * 3600) {
            return pem
        }
        let pem = try make(for: key, now: now)
        try BackendFiles.replacePrivateFile(at: path, contents: Data(pem.utf8))
        return pem
    }

    /// The certificate at `path` and its PEM text, nil when there is none; one that does not parse is refused.
    static func existing(at path: String) throws -> (Certificate, String)? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        guard let data = FileManager.default.contents(atPath: path),
              let certificate = try? Certificate(pemEncoded: String(decoding: data, as: UTF8.self)) else {
            throw EmbeddedBackendError.unreadableFile(path)
        }
        return (certificate, String(decoding: data, as: UTF8.self))
    }

    static func make(for key: _RSA.Signing.PrivateKey, now: Date) throws -> String {
        let name = try DistinguishedName { CommonName(commonName) }
        let signingKey = Certificate.PrivateKey(key)
        let certificate = try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: signingKey.publicKey,
            notValidBefore: now.addingTimeInterval(-3600), notValidAfter: now.addingTimeInterval(lifetime),
            issuer: name, subject: name, signatureAlgorithm: .sha256WithRSAEncryption,
            extensions: Certificate.Extensions {
                Critical(BasicConstraints.notCertificateAuthority)
                Critical(KeyUsage(digitalSignature: true))
                try ExtendedKeyUsage([.clientAuth])
            },
            issuerPrivateKey: signingKey)
        return try certificate.serializeAsPEM().pemString + "\n"
    }
}
