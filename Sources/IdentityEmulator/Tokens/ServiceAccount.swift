import Crypto
import CryptoExtras
import Foundation
import Synchronization

/// The project's service account: the RSA key an app's server signs custom tokens with. It is kept
/// as a service-account JSON file in Google's format (`service-account.json`, 0600), so that the
/// Admin SDKs load it as they load one downloaded from the Firebase console
/// (`credentials.Certificate(path)`) and their `create_custom_token` signs with it.
struct ServiceAccount: Sendable {
    let projectId: String
    let clientEmail: String
    /// `private_key_id`: the `kid` of the tokens the Admin SDKs sign with it.
    let keyId: String
    let publicKey: _RSA.Signing.PublicKey

    static func clientEmail(projectId: String) -> String { "firebase-adminsdk-authdeck@\(projectId).iam.gserviceaccount.com" }

    /// Reads the file, or creates a new key and file when there is none. A file that cannot be read,
    /// or that belongs to another project, is refused and left untouched.
    static func loadOrCreate(at path: String, projectId: String) throws -> ServiceAccount {
        if FileManager.default.fileExists(atPath: path) {
            guard let data = FileManager.default.contents(atPath: path),
                  let file = try? JSONDecoder().decode(File.self, from: data), file.type == "service_account",
                  let key = try? _RSA.Signing.PrivateKey(pemRepresentation: file.privateKey) else {
                throw EmbeddedBackendError.unreadableServiceAccount(path)
            }
            guard file.projectId == projectId else { throw EmbeddedBackendError.serviceAccountOfAnotherProject(path, file.projectId) }
            return ServiceAccount(projectId: projectId, clientEmail: file.clientEmail, keyId: file.privateKeyId, publicKey: key.publicKey)
        }
        let key = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        let keyId = SHA256.hash(data: key.publicKey.derRepresentation).prefix(20).hexadecimal
        let email = clientEmail(projectId: projectId)
        let clientId = SHA256.hash(data: Data(email.utf8)).prefix(10).map { String($0 % 10) }.joined()
        let encodedEmail = email.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(.init(charactersIn: "-._"))) ?? email
        let file = File(type: "service_account", projectId: projectId, privateKeyId: keyId, privateKey: key.pkcs8PEMRepresentation + "\n",
                        clientEmail: email, clientId: "1" + clientId + clientId,
                        authUri: "https://accounts.google.com/o/oauth2/auth", tokenUri: "https://oauth2.googleapis.com/token",
                        authProviderX509CertUrl: "https://www.googleapis.com/oauth2/v1/certs",
                        clientX509CertUrl: "https://www.googleapis.com/robot/v1/metadata/x509/\(encodedEmail)",
                        universeDomain: "googleapis.com")
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .withoutEscapingSlashes]
        try BackendFiles.createPrivateFile(at: path, contents: try encoder.encode(file) + Data("\n".utf8))
        return ServiceAccount(projectId: projectId, clientEmail: email, keyId: keyId, publicKey: key.publicKey)
    }

    /// Whether `signingInput` was signed (RS256) by this account's key.
    func isValidSignature(_ signature: Data, for signingInput: Data) -> Bool {
        publicKey.isValidSignature(_RSA.Signing.RSASignature(rawRepresentation: signature), for: signingInput, padding: .insecurePKCS1v1_5)
    }

    /// The keys of Google's service-account JSON, in its order.
    private struct File: Codable {
        var type: String
        var projectId: String
        var privateKeyId: String
        var privateKey: String
        var clientEmail: String
        var clientId: String
        var authUri: String
        var tokenUri: String
        var authProviderX509CertUrl: String
        var clientX509CertUrl: String
        var universeDomain: String?

        enum CodingKeys: String, CodingKey {
            case type
            case projectId = "project_id"
            case privateKeyId = "private_key_id"
            case privateKey = "private_key"
            case clientEmail = "client_email"
            case clientId = "client_id"
            case authUri = "auth_uri"
            case tokenUri = "token_uri"
            case authProviderX509CertUrl = "auth_provider_x509_cert_url"
            case clientX509CertUrl = "client_x509_cert_url"
            case universeDomain = "universe_domain"
        }
    }
}

/// The service account, read or created on first need: generating an RSA key takes a moment, and
/// only `serve` (at start) and a signed custom token need it.
final class ServiceAccountSlot: Sendable {
    private let path: String
    private let projectId: String
    private let loaded = Mutex<ServiceAccount?>(nil)

    init(path: String, projectId: String) {
        self.path = path
        self.projectId = projectId
    }

    func account() throws -> ServiceAccount {
        try loaded.withLock { slot in
            if let slot { return slot }
            let account = try ServiceAccount.loadOrCreate(at: path, projectId: projectId)
            slot = account
            return account
        }
    }
}

extension EmbeddedBackend {
    /// The project's service-account JSON file, created with a new key when there is none yet
    /// (`authdeck serve` calls this at start). Load it with the Admin SDK's `credentials.Certificate`.
    @discardableResult
    public func prepareServiceAccount() throws -> URL {
        _ = try serviceAccount.account()
        return URL(fileURLWithPath: serviceAccountPath)
    }
}
