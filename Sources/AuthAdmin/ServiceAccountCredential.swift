import AsyncHTTPClient
import Crypto
import CryptoExtras
import Foundation
import IdentityToolkit
import NIOCore
import NIOFoundationCompat

/// A Google service-account key file (`GOOGLE_APPLICATION_CREDENTIALS`), the fields the OAuth 2
/// JWT bearer grant needs.
public struct ServiceAccountKey: Sendable {
    public static let environmentVariable = "GOOGLE_APPLICATION_CREDENTIALS"

    public let file: String
    public let projectId: String?
    public let clientEmail: String
    public let privateKeyId: String?
    public let tokenURI: String
    let privateKey: _RSA.Signing.PrivateKey

    /// Reads and checks the key file; every problem names the file, so the operator hears it in one line.
    public init(contentsOf path: String) throws {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            let reason = FileManager.default.fileExists(atPath: path) ? "cannot be read" : "does not exist"
            throw AuthAdminError.serviceAccount(file: path, reason: reason)
        }
        try self.init(json: data, file: path)
    }

    public init(json data: Data, file: String) throws {
        struct KeyFile: Decodable {
            var type: String?
            var project_id: String?
            var private_key_id: String?
            var private_key: String?
            var client_email: String?
            var token_uri: String?
        }
        guard let key = try? JSONDecoder().decode(KeyFile.self, from: data) else {
            throw AuthAdminError.serviceAccount(file: file, reason: "is not a service-account JSON key")
        }
        guard key.type == "service_account" else {
            throw AuthAdminError.serviceAccount(file: file, reason: "has type \(key.type.map { "'\($0)'" } ?? "none"), not 'service_account'")
        }
        guard let email = key.client_email, !email.isEmpty else { throw AuthAdminError.serviceAccount(file: file, reason: "has no client_email") }
        guard let pem = key.private_key, let privateKey = try? _RSA.Signing.PrivateKey(pemRepresentation: pem) else {
            throw AuthAdminError.serviceAccount(file: file, reason: "has no usable RSA private_key")
        }
        let tokenURI = key.token_uri ?? "https://oauth2.googleapis.com/token"
        guard let url = URL(string: tokenURI), ["https", "http"].contains(url.scheme ?? ""), url.host != nil else {
            throw AuthAdminError.serviceAccount(file: file, reason: "has an invalid token_uri")
        }
        self.file = file
        projectId = key.project_id
        clientEmail = email
        privateKeyId = key.private_key_id
        self.tokenURI = tokenURI
        self.privateKey = privateKey
    }

    /// The scopes the Identity Toolkit admin API needs.
    public static let scopes = ["https://www.googleapis.com/auth/cloud-platform", "https://www.googleapis.com/auth/identitytoolkit"]

    /// The signed RS256 assertion of RFC 7523: `iss` = the service account, `aud` = the token URI, one hour.
    public func assertion(issuedAt: Date) throws -> String {
        var header: [String: String] = ["alg": "RS256", "typ": "JWT"]
        if let privateKeyId { header["kid"] = privateKeyId }
        let iat = Int(issuedAt.timeIntervalSince1970.rounded(.down))
        let claims: [String: Any] = ["iss": clientEmail, "scope": Self.scopes.joined(separator: " "), "aud": tokenURI,
                                     "iat": iat, "exp": iat + 3600]
        let signingInput = try Self.base64URL(JSONSerialization.data(withJSONObject: header, options: [.sortedKeys]))
            + "." + Self.base64URL(JSONSerialization.data(withJSONObject: claims, options: [.sortedKeys, .withoutEscapingSlashes]))
        let signature = try privateKey.signature(for: SHA256.hash(data: Data(signingInput.utf8)), padding: .insecurePKCS1v1_5)
        return signingInput + "." + Self.base64URL(signature.rawRepresentation)
    }

    static func base64URL(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}

/// An OAuth 2 access token for a service account, from its key file's `token_uri`, kept until
/// five minutes before it expires and then exchanged again. The RSA signature runs on a
/// dispatch queue, off Swift's cooperative pool.
public actor ServiceAccountCredential: AdministratorCredential {
    public let key: ServiceAccountKey
    private let client: HTTPClient
    private let clock: @Sendable () -> Date
    private var current: (token: String, expires: Date)?
    /// Refreshed this long before the token expires, so a call never carries one about to lapse.
    static let refreshMargin: TimeInterval = 300

    public init(key: ServiceAccountKey, clock: @escaping @Sendable () -> Date = Date.init) {
        self.key = key
        self.clock = clock
        client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup)
    }

    public func bearerToken() async throws -> String {
        if let current, current.expires.timeIntervalSince(clock()) > Self.refreshMargin { return current.token }
        let issued = clock()
        let key = self.key
        let assertion = try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<String, any Error>) in
            DispatchQueue.global().async { continuation.resume(with: Result { try key.assertion(issuedAt: issued) }) }
        }
        var request = HTTPClientRequest(url: key.tokenURI)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
        let form = "grant_type=" + "urn:ietf:params:oauth:grant-type:jwt-bearer".addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
            + "&assertion=" + assertion
        request.body = .bytes(ByteBuffer(string: form))
        let response: HTTPClientResponse
        let body: ByteBuffer
        do {
            response = try await client.execute(request, timeout: .seconds(30))
            body = try await response.body.collect(upTo: 1 << 20)
        } catch {
            throw AuthAdminError.tokenExchange("\(key.tokenURI) cannot be reached: \(error)")
        }
        struct TokenResponse: Decodable {
            var access_token: String?
            var expires_in: Double?
            var error: String?
            var error_description: String?
        }
        let answer = try? JSONDecoder().decode(TokenResponse.self, from: Data(buffer: body))
        guard response.status == .ok, let token = answer?.access_token, !token.isEmpty else {
            let reason = [answer?.error, answer?.error_description].compactMap { $0 }.joined(separator: ": ")
            throw AuthAdminError.tokenExchange("\(key.tokenURI) answered \(response.status.code)\(reason.isEmpty ? "" : " (\(reason))")")
        }
        current = (token, issued.addingTimeInterval(answer?.expires_in ?? 3600))
        return token
    }

    public func shutdown() async throws { try await client.shutdown() }
}
