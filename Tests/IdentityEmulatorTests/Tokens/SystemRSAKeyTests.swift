import CryptoExtras
import Dispatch
import Foundation
import Synchronization
import Testing
@testable import IdentityEmulator

@Suite struct SystemRSAKeyTests {
    private static let key = try! _RSA.Signing.PrivateKey(keySize: .bits2048)

    /// PKCS#1 v1.5 is deterministic: OpenSSL's signature must be BoringSSL's, byte for byte.
    @Test(arguments: [0, 1, 55, 4_096])
    func signaturesAreBoringSSLsBytes(length: Int) throws {
        let message = [UInt8](SecureRandom.bytes(length))
        let system = SystemRSAKey(pemRepresentation: Self.key.pemRepresentation)
        let signature = try #require(system.signature(for: message), "libcrypto.so.3 (libssl3) should sign here")
        #expect(signature == Array(try Self.key.signature(for: message, padding: .insecurePKCS1v1_5).rawRepresentation))
    }

    @Test func aPKCS8KeyIsReadToo() throws {
        let message = Array("header.payload".utf8)
        let system = SystemRSAKey(pemRepresentation: Self.key.pkcs8PEMRepresentation)
        #expect(try system.signature(for: message) == Array(Self.key.signature(for: message, padding: .insecurePKCS1v1_5).rawRepresentation))
    }

    @Test func anUnreadableKeySignsNothing() {
        #expect(SystemRSAKey(pemRepresentation: "-----BEGIN RSA PRIVATE KEY-----\nnot a key\n-----END RSA PRIVATE KEY-----\n")
            .signature(for: [1, 2, 3]) == nil)
        #expect(SystemRSAKey(pemRepresentation: "").signature(for: []) == nil)
    }

    /// Each thread keeps a signing context per key: threads that alternate between two keys must
    /// never sign with the other one's.
    @Test func threadsSharingTwoKeysSignWithTheRightOne() throws {
        let keys = [Self.key, try _RSA.Signing.PrivateKey(keySize: .bits2048)]
        let systemKeys = keys.map { SystemRSAKey(pemRepresentation: $0.pemRepresentation) }
        let failures = Mutex(0)
        DispatchQueue.concurrentPerform(iterations: 400) { index in
            let which = (index / 3) % 2
            let message = Array("token \(index)".utf8)
            guard let signature = systemKeys[which].signature(for: message),
                  keys[which].publicKey.isValidSignature(_RSA.Signing.RSASignature(rawRepresentation: signature), for: message,
                                                         padding: .insecurePKCS1v1_5) else {
                failures.withLock { $0 += 1 }
                return
            }
        }
        #expect(failures.withLock { $0 } == 0)
    }

    /// The backend's tokens are the same strings whichever library signs them.
    @Test func tokensAreTheSameWithEitherLibrary() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("system-rsa-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let keyPath = directory.appendingPathComponent("key.pem").path
        let certificatePath = directory.appendingPathComponent("certificate.pem").path
        let fast = try TokenSigner(keyPath: keyPath, certificatePath: certificatePath)
        let payload = Array(#"{"sub":"someone","iat":1}"#.utf8)
        let token = try fast.sign(payload: payload)
        let boring = try TokenSigner(keyPath: keyPath, certificatePath: certificatePath, systemOpenSSL: false)
        #expect(try boring.sign(payload: payload) == token)
        #expect(boring.verifiedPayload(of: token).map(Array.init) == payload)
    }
}
