import AuthAdmin
import CryptoExtras
import Foundation
import IdentityTestSupport
import IdentityToolkit
import JWTKit
import Synchronization
import Testing

/// Google's claims of the JWT bearer assertion (RFC 7523), checked by JWTKit against the public key.
private struct AssertionClaims: JWTPayload {
    let iss: IssuerClaim
    let scope: String
    let aud: AudienceClaim
    let iat: IssuedAtClaim
    let exp: ExpirationClaim
    func verify(using algorithm: some JWTAlgorithm) async throws {}
}

/// A token endpoint on loopback: it answers the grant with `ya29.<n>` (which `authdeck serve`
/// without an admin token takes as an administrator, as the emulator does) and keeps every assertion.
private final class TokenEndpoint: WireHandler {
    let assertions = Mutex<[String]>([])
    let forms = Mutex<[String]>([])

    func handle(_ request: WireRequest) async -> WireResponse {
        let form = String(decoding: request.body, as: UTF8.self)
        forms.withLock { $0.append(form) }
        let fields = Dictionary(form.split(separator: "&").map { pair -> (String, String) in
            let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
            return (parts[0], parts.count > 1 ? (parts[1].removingPercentEncoding ?? parts[1]) : "")
        }, uniquingKeysWith: { first, _ in first })
        guard request.path == "/token", fields["grant_type"] == "urn:ietf:params:oauth:grant-type:jwt-bearer",
              let assertion = fields["assertion"] else {
            return WireResponse(status: 400, body: Data(#"{"error":"invalid_grant","error_description":"bad request"}"#.utf8))
        }
        let count = assertions.withLock { $0.append(assertion); return $0.count }
        return WireResponse(status: 200, body: Data(#"{"access_token":"ya29.token-\#(count)","expires_in":3599,"token_type":"Bearer"}"#.utf8))
    }
}

private func withTokenEndpoint(_ body: (TokenEndpoint, Int) async throws -> Void) async throws {
    let endpoint = TokenEndpoint()
    try await withServedHandler(endpoint) { port in try await body(endpoint, port) }
}

private func keyFile(tokenURI: String, key: _RSA.Signing.PrivateKey) throws -> Data {
    try JSONSerialization.data(withJSONObject: [
        "type": "service_account", "project_id": "demo-project", "private_key_id": "key-1",
        "private_key": key.pkcs8PEMRepresentation, "client_email": "deck@demo-project.iam.gserviceaccount.com",
        "client_id": "1234", "token_uri": tokenURI,
    ])
}

// Generous: under a parallel suite the cooperative pool is shared with scrypt-heavy tests.
@Suite(.timeLimit(.minutes(5)))
struct ServiceAccountCredentialTests {
    @Test func theAssertionVerifiesWithThePublicKeyAndCarriesGooglesClaims() async throws {
        let key = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        let clock = MovableClock()
        try await withTokenEndpoint { endpoint, port in
            let tokenURI = "http://127.0.0.1:\(port)/token"
            let credential = ServiceAccountCredential(key: try ServiceAccountKey(json: keyFile(tokenURI: tokenURI, key: key), file: "sa.json"),
                                                      clock: { clock.now })
            #expect(try await credential.bearerToken() == "ya29.token-1")
            // Kept while valid; exchanged again within five minutes of expiry.
            clock.advance(days: 50 * 60 / 86_400)
            #expect(try await credential.bearerToken() == "ya29.token-1")
            clock.advance(days: 10 * 60 / 86_400)
            #expect(try await credential.bearerToken() == "ya29.token-2")
            try await credential.shutdown()

            let assertion = try #require(endpoint.assertions.withLock { $0.first })
            let keys = JWTKeyCollection()
            await keys.add(rsa: try Insecure.RSA.PublicKey(pem: key.publicKey.pemRepresentation), digestAlgorithm: .sha256)
            let claims = try await keys.verify(assertion, as: AssertionClaims.self)
            #expect(claims.iss.value == "deck@demo-project.iam.gserviceaccount.com")
            #expect(claims.aud.value == [tokenURI])
            #expect(claims.scope.split(separator: " ").contains("https://www.googleapis.com/auth/identitytoolkit"))
            #expect(claims.iat.value == Date(timeIntervalSince1970: 1_750_000_000))
            #expect(claims.exp.value.timeIntervalSince(claims.iat.value) == 3600)
            let header = try #require(Data(base64Encoded: String(assertion.split(separator: ".")[0]) + "=="))
            #expect(String(decoding: header, as: UTF8.self).contains(#""kid":"key-1""#))

            // Another key's signature does not verify.
            let other = JWTKeyCollection()
            await other.add(rsa: try Insecure.RSA.PublicKey(pem: _RSA.Signing.PrivateKey(keySize: .bits2048).publicKey.pemRepresentation),
                            digestAlgorithm: .sha256)
            await #expect(throws: (any Error).self) { _ = try await other.verify(assertion, as: AssertionClaims.self) }
        }
    }

    @Test func theAccessTokenAdministersAServedBackend() async throws {
        let key = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        try await withTokenEndpoint { _, port in
            let credential = ServiceAccountCredential(key: try ServiceAccountKey(json: keyFile(tokenURI: "http://127.0.0.1:\(port)/token", key: key),
                                                                                 file: "sa.json"))
            try await withTestBackend(.http) { served in
                let exchanges = ExchangeLog()
                let admin = AccountAdmin(backend: served.makeAdministratorTransport(credential, exchanges: exchanges),
                                         projectId: served.backend.projectId, capability: .authdeck)
                _ = try await admin.createUser(uid: "u-1", email: "one@example.com")
                #expect(try await admin.page(filter: .none, sort: AccountSort(), offset: 0, limit: 10).users.map(\.uid) == ["u-1"])
                // The inspector sees that a token went, never the token.
                #expect(await exchanges.entries.allSatisfy { $0.authorization == "Bearer •••(12)" })
            }
            try await credential.shutdown()
        }
    }

    @Test func aBadKeyFileIsOneLineNamingIt() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("authdeck-sa-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let missing = directory.appendingPathComponent("missing.json").path
        #expect(throws: AuthAdminError.serviceAccount(file: missing, reason: "does not exist")) { try ServiceAccountKey(contentsOf: missing) }
        let junk = directory.appendingPathComponent("junk.json")
        try Data("{not json".utf8).write(to: junk)
        #expect(throws: AuthAdminError.serviceAccount(file: junk.path, reason: "is not a service-account JSON key")) {
            try ServiceAccountKey(contentsOf: junk.path)
        }
        let user = directory.appendingPathComponent("user.json")
        try Data(#"{"type": "authorized_user", "client_id": "x"}"#.utf8).write(to: user)
        #expect(throws: AuthAdminError.serviceAccount(file: user.path, reason: "has type 'authorized_user', not 'service_account'")) {
            try ServiceAccountKey(contentsOf: user.path)
        }
        let noKey = directory.appendingPathComponent("nokey.json")
        try Data(#"{"type": "service_account", "client_email": "a@b", "private_key": "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n"}"#.utf8)
            .write(to: noKey)
        #expect(throws: AuthAdminError.serviceAccount(file: noKey.path, reason: "has no usable RSA private_key")) {
            try ServiceAccountKey(contentsOf: noKey.path)
        }
        #expect(AuthAdminError.serviceAccount(file: "/x/sa.json", reason: "does not exist").description == "service account /x/sa.json: does not exist")
    }
}
