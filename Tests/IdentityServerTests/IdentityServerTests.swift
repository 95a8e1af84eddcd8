import AsyncHTTPClient
import Foundation
import IdentityEmulator
import IdentityServer
import IdentityTestSupport
import IdentityToolkit
import JWTKit
import NIOHTTP1
import Testing

private struct IDTokenClaims: JWTPayload {
    let iss: IssuerClaim
    let aud: AudienceClaim
    let sub: SubjectClaim
    let exp: ExpirationClaim
    func verify(using algorithm: some JWTAlgorithm) async throws {
        try exp.verifyNotExpired()
    }
}

@Suite("authdeck serve: HTTP concerns", .timeLimit(.minutes(3)))
struct IdentityServerTests {
    @Test func aBodyOverOneMebibyteIsRefusedWith413InGooglesShape() async throws {
        try await withTestBackend(.http) { served in
            let big = Data(repeating: UInt8(ascii: " "), count: IdentityServer.maxRequestBodySize + 1)
            let answer = try await served.raw(.POST, SignUpRequest.endpoint.withKey, body: big)
            #expect(answer.status == 413)
            #expect(answer.contentType?.hasPrefix("application/json") == true)
            #expect(answer.errorCode == 413)
            #expect(answer.errorMessage == "INVALID_ARGUMENT : Request payload size exceeds the limit: 1048576 bytes.")

            // Exactly the limit is still read (and is an empty object: an anonymous sign-up).
            var padded = Data("{}".utf8)
            padded.append(Data(repeating: UInt8(ascii: " "), count: IdentityServer.maxRequestBodySize - 2))
            #expect(try await served.raw(.POST, SignUpRequest.endpoint.withKey, body: padded).status == 200)
        }
    }

    @Test func unknownPathsAndWrongMethodsAre404JSON() async throws {
        try await withTestBackend(.http) { served in
            for (method, path) in [(HTTPMethod.POST, "/identitytoolkit.googleapis.com/v1/accounts:nothing?key=k"),
                                   (.GET, "/nothing"), (.GET, SignUpRequest.endpoint.withKey), (.DELETE, SignUpRequest.endpoint.withKey),
                                   (.POST, "/www.googleapis.com/identitytoolkit/v3/relyingparty/signInWithGameCenter?key=k")] {
                let answer = try await served.raw(method, path, json: "{}")
                #expect(answer.status == 404, "\(method) \(path)")
                #expect(answer.contentType?.hasPrefix("application/json") == true)
                #expect(answer.errorMessage?.hasPrefix("NOT_FOUND") == true, "\(method) \(path)")
                #expect((answer.json?["error"] as? [String: Any])?["status"] as? String == "NOT_FOUND")
            }
            #expect(try await served.backend.handle(WireRequest(method: "GET", path: SignUpRequest.endpoint.withKey)).status == 404)
        }
    }

    @Test func aMissingAPIKeyIs403() async throws {
        try await withTestBackend(.http) { served in
            let answer = try await served.raw(.POST, SignUpRequest.endpoint.emulatorPath, json: "{}")
            #expect(answer.status == 403)
            #expect((answer.json?["error"] as? [String: Any])?["status"] as? String == "PERMISSION_DENIED")
            let withHeader = try await served.raw(.POST, SignUpRequest.endpoint.emulatorPath, json: "{}",
                                                  headers: ["X-Goog-Api-Key": "k", "Content-Type": "application/json"])
            #expect(withHeader.status == 200)
        }
    }

    @Test func malformedJSONAndWrongTypesAre400InvalidArgument() async throws {
        try await withTestBackend(.http) { served in
            let malformed = try await served.raw(.POST, SignUpRequest.endpoint.withKey, json: #"{"email": "#)
            #expect(malformed.status == 400)
            #expect(malformed.errorMessage == "INVALID_ARGUMENT : Invalid JSON payload received.")
            let wrongType = try await served.raw(.POST, SignInWithPasswordRequest.endpoint.withKey, json: #"{"email": ["a"], "password": "x"}"#)
            #expect(wrongType.status == 400)
            #expect(wrongType.errorMessage == "INVALID_ARGUMENT : Invalid value at 'email'")
            for notAnObject in [#"[1,2]"#, "null", "42"] {
                let answer = try await served.raw(.POST, SignUpRequest.endpoint.withKey, json: notAnObject)
                #expect(answer.errorMessage == "INVALID_ARGUMENT : Invalid JSON payload received.", "\(notAnObject)")
            }
        }
    }

    @Test func badClientInputNeverGetsA5xx() async throws {
        try await withTestBackend(.http) { served in
            let paths = [SignUpRequest.endpoint, SignInWithPasswordRequest.endpoint, AccountsLookupRequest.endpoint,
                         AccountsUpdateRequest.endpoint, AccountsDeleteRequest.endpoint, SecureTokenRequest.endpoint].map(\.withKey)
            let bodies = [#"[]"#, #"null"#, #"42"#, #""x""#, #"{"idToken": 5}"#, #"{"idToken": "a.b.c"}"#, #"{"idToken": "....."}"#,
                          #"{"email": null, "password": {}}"#, "\u{0}\u{1}\u{2}", #"{"refreshToken": "x", "grantType": 7}"#,
                          "grant_type=refresh_token&refresh_token=%ZZ", #"{"localId": ["a"], "deleteProvider": "password"}"#]
            var seen: Set<Int> = []
            for path in paths {
                for body in bodies {
                    let answer = try await served.raw(.POST, path, json: body)
                    #expect(answer.status < 500, "\(path) \(body) → \(answer.status) \(answer.errorMessage ?? "")")
                    #expect(answer.json != nil, "\(path) \(body): the answer is JSON")
                    seen.insert(answer.status)
                }
            }
            #expect(seen.contains(400))
            // Malformed escapes in the query or a form body are read as written, never a crash.
            for path in [SignUpRequest.endpoint.emulatorPath + "?key=%ZZ&=&&x", SecureTokenRequest.endpoint.emulatorPath + "?key=%"] {
                let answer = await served.backend.handle(WireRequest(path: path, headers: ["Content-Type": "application/x-www-form-urlencoded"],
                                                                     body: Data("grant_type=%E0%A4%A&refresh_token=%".utf8)))
                #expect(answer.status < 500, "\(path)")
            }
        }
    }

    @Test func concurrentSignUpsAreAllServedAndAnEmailIsTakenOnce() async throws {
        try await withTestBackend(.http) { served in
            let transport = served.makeTransport()
            let uids = try await withThrowingTaskGroup(of: String.self) { group in
                for index in 0..<24 {
                    group.addTask {
                        try await transport.call(SignUpRequest(email: "user\(index)@example.com", password: "secret-\(index)")).localId
                    }
                }
                return try await group.reduce(into: Set<String>()) { $0.insert($1) }
            }
            #expect(uids.count == 24)

            let outcomes = await withTaskGroup(of: Result<String, IdentityToolkitError>.self) { group in
                for _ in 0..<8 {
                    group.addTask {
                        do {
                            return .success(try await transport.call(SignUpRequest(email: "same@example.com", password: "secret-1")).localId)
                        } catch let error as IdentityToolkitError {
                            return .failure(error)
                        } catch {
                            return .failure(.malformedResponse("\(error)"))
                        }
                    }
                }
                return await group.reduce(into: [Result<String, IdentityToolkitError>]()) { $0.append($1) }
            }
            #expect(outcomes.filter { if case .success = $0 { true } else { false } }.count == 1)
            #expect(outcomes.filter { $0 == .failure(.server(status: 400, message: "EMAIL_EXISTS")) }.count == 7)

            let entries = await transport.exchanges.entries
            #expect(entries.count == 32)
            #expect(Set(entries.map(\.status)) == [200, 400])
        }
    }

    @Test func theSignersKeysArePublishedAndVerifyAMintedToken() async throws {
        try await withTestBackend(.http) { served in
            let signedUp = try await served.makeTransport().call(SignUpRequest(email: "ada@example.com", password: "hunter22"))
            let idToken = try #require(signedUp.idToken)

            let jwks = try await served.raw(.GET, "/www.googleapis.com/service_accounts/v1/jwk/securetoken@system.gserviceaccount.com")
            #expect(jwks.status == 200)
            let fromJWKS = JWTKeyCollection()
            try await fromJWKS.add(jwksJSON: String(decoding: jwks.body, as: UTF8.self))
            let verified = try await fromJWKS.verify(idToken, as: IDTokenClaims.self)
            #expect(verified.sub.value == signedUp.localId)
            #expect(verified.iss.value == "https://securetoken.google.com/authdeck-local")

            // The certificate document needs no API key either, and `@` may come percent-encoded.
            let x509 = try await served.raw(.GET, "/www.googleapis.com/robot/v1/metadata/x509/securetoken%40system.gserviceaccount.com")
            #expect(x509.status == 200)
            let certificates = try #require(x509.json as? [String: String])
            #expect(certificates.count == 1)
            let (kid, pem) = try #require(certificates.first)
            #expect(pem.hasPrefix("-----BEGIN CERTIFICATE-----"))
            let fromCertificate = JWTKeyCollection()
            await fromCertificate.add(rsa: try Insecure.RSA.PublicKey(certificatePEM: pem), digestAlgorithm: .sha256, kid: JWKIdentifier(string: kid))
            #expect(try await fromCertificate.verify(idToken, as: IDTokenClaims.self).sub.value == signedUp.localId)

            // A token whose payload was changed fails against the same keys.
            let parts = idToken.split(separator: ".").map(String.init)
            var claims = try #require(try JSONSerialization.jsonObject(with: Data(base64URL: parts[1])) as? [String: Any])
            claims["sub"] = "someone-else"
            let forged = parts[0] + "." + (try JSONSerialization.data(withJSONObject: claims)).base64URLString + "." + parts[2]
            await #expect(throws: (any Error).self) { _ = try await fromCertificate.verify(forged, as: IDTokenClaims.self) }
        }
    }

    @Test func theCertificateIsStableAcrossRestartsAndPrivate() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("authdeck-cert-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let first = try EmbeddedBackend(dataDirectory: directory).publicKeysX509()
        let second = try EmbeddedBackend(dataDirectory: directory).publicKeysX509()
        #expect(first == second)
        let path = directory.appendingPathComponent("keys/securetoken.crt").path
        #expect((try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) == 0o600)

        // A damaged certificate is damage to report, not to paper over: it is refused and left as it is.
        try Data("garbage".utf8).write(to: URL(fileURLWithPath: path))
        #expect(throws: EmbeddedBackendError.unreadableFile(path)) { _ = try EmbeddedBackend(dataDirectory: directory) }
        #expect(FileManager.default.contents(atPath: path) == Data("garbage".utf8))
    }

    @Test(arguments: BackendTransport.allCases)
    func legacyRelyingPartyPathsReachTheV1Handlers(_ transport: BackendTransport) async throws {
        try await withTestBackend(transport) { served in
            let legacy = "/www.googleapis.com/identitytoolkit/v3/relyingparty/"
            let signUp = WireRequest(path: legacy + "signupNewUser?key=k", body: Data(#"{"email":"ada@example.com","password":"hunter22"}"#.utf8))
            let created = try WireCoding.decode(SignUpResponse.self, from: await served.backend.handle(signUp))
            let signIn = WireRequest(path: legacy + "verifyPassword?key=k", body: Data(#"{"email":"ada@example.com","password":"hunter22"}"#.utf8))
            let signedIn = try WireCoding.decode(SignInWithPasswordResponse.self, from: await served.backend.handle(signIn))
            #expect(signedIn.localId == created.localId)
            let lookup = WireRequest(path: legacy + "getAccountInfo?key=k", body: Data(#"{"idToken":"\#(signedIn.idToken!)"}"#.utf8))
            #expect(try WireCoding.decode(AccountsLookupResponse.self, from: await served.backend.handle(lookup)).users?.first?.email == "ada@example.com")
            if transport == .http {
                let overHTTP = try await served.raw(.POST, legacy + "verifyPassword?key=k", json: #"{"email":"ada@example.com","password":"wrong!!"}"#)
                #expect(overHTTP.status == 400)
                #expect(overHTTP.errorMessage == "INVALID_LOGIN_CREDENTIALS")
            }
        }
    }

    @Test func withAnAdminTokenOnlyThatTokenIsAnAdministrator() async throws {
        var configuration = EmbeddedBackendConfiguration()
        configuration.adminToken = "s3cret-admin-token-0123"
        try await withTestBackend(.http, configuration: configuration) { served in
            let created = try await served.makeTransport().call(SignUpRequest(email: "ada@example.com", password: "hunter22"))
            let body = #"{"localId":["\#(created.localId)"]}"#
            for refused in ["Bearer owner", "Bearer OWNER", "Bearer ya29.anything", "Bearer s3cret-admin-token-012"] {
                let answer = try await served.raw(.POST, AccountsLookupRequest.endpoint.emulatorPath, json: body,
                                                  headers: ["Authorization": refused, "Content-Type": "application/json"])
                #expect(answer.status == 401, "\(refused)")
                #expect((answer.json?["error"] as? [String: Any])?["status"] as? String == "UNAUTHENTICATED")
            }
            let admitted = try await served.raw(.POST, AccountsLookupRequest.endpoint.emulatorPath, json: body,
                                                headers: ["Authorization": "Bearer s3cret-admin-token-0123", "Content-Type": "application/json"])
            #expect(admitted.status == 200)
            #expect(((admitted.json?["users"] as? [[String: Any]])?.first?["email"] as? String) == "ada@example.com")
        }
        try await withTestBackend(.http) { served in
            let answer = try await served.raw(.POST, AccountsLookupRequest.endpoint.emulatorPath, json: #"{"localId":["x"]}"#,
                                              headers: ["Authorization": "Bearer owner", "Content-Type": "application/json"])
            #expect(answer.status == 200)
        }
    }

    @Test func onlyLoopbackAddressesCountAsLoopback() {
        for host in ["127.0.0.1", "127.1.2.3", "localhost", "LOCALHOST", "::1", "[::1]"] {
            #expect(IdentityServer.isLoopback(host), "\(host)")
        }
        for host in ["0.0.0.0", "::", "192.168.1.10", "10.0.0.1", "example.com", "127.0.0.1.example.com", "127.0.0", "128.0.0.1", ""] {
            #expect(!IdentityServer.isLoopback(host), "\(host)")
        }
    }
}

extension Data {
    init(base64URL text: String) throws {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        guard let data = Data(base64Encoded: base64) else { throw CocoaError(.coderReadCorrupt) }
        self = data
    }

    var base64URLString: String {
        base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
