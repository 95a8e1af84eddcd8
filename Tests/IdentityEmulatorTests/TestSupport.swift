import Foundation
import IdentityTestSupport
import IdentityToolkit
@testable import IdentityEmulator

/// One backend on a fresh temporary data directory, driven through the JSON codec.
struct Harness {
    let directory: URL
    let clock: TestClock
    let backend: EmbeddedBackend
    let api: InProcessTransport

    init(configuration: EmbeddedBackendConfiguration = .init(), directory: URL? = nil, clock: TestClock = TestClock(Date(timeIntervalSince1970: 1_750_000_000))) throws {
        let directory = directory ?? FileManager.default.temporaryDirectory.appendingPathComponent("authdeck-emu-\(UUID().uuidString)")
        self.directory = directory
        self.clock = clock
        backend = try EmbeddedBackend(dataDirectory: directory, configuration: configuration, clock: { clock.now })
        api = backend.transport()
    }

    /// The same data directory opened again, as after a restart.
    func reopened(configuration: EmbeddedBackendConfiguration = .init()) throws -> Harness {
        try Harness(configuration: configuration, directory: directory, clock: clock)
    }

    /// An administrator's call (`Authorization: Bearer owner`, no API key), as the Admin SDK makes it.
    func admin<R: IdentityRequest>(_ request: R) async throws -> R.Response {
        let wire = WireRequest(path: R.endpoint.emulatorPath, headers: ["Authorization": "Bearer owner"],
                               body: try WireCoding.encoder().encode(request))
        return try WireCoding.decode(R.Response.self, from: await backend.handle(wire))
    }

    func raw(_ path: String, body: String, headers: [String: String] = ["x-goog-api-key": "test-key"]) async -> WireResponse {
        await backend.handle(WireRequest(path: path, headers: headers, body: Data(body.utf8)))
    }

    func signUp(_ email: String, _ password: String = "secret-1") async throws -> SignUpResponse {
        try await api.call(SignUpRequest(email: email, password: password))
    }

    func signIn(_ email: String, _ password: String = "secret-1") async throws -> SignInWithPasswordResponse {
        try await api.call(SignInWithPasswordRequest(email: email, password: password))
    }

    func lookup(_ idToken: String?) async throws -> AccountInfo? {
        try await api.call(AccountsLookupRequest(idToken: idToken)).users?.first
    }

    func refresh(_ refreshToken: String?) async throws -> SecureTokenResponse {
        try await api.call(SecureTokenRequest(refreshToken: refreshToken ?? ""))
    }

    func remove() { try? FileManager.default.removeItem(at: directory) }
}

func server(_ message: String, status: Int = 400) -> IdentityToolkitError {
    .server(status: status, message: message)
}

/// The claims of a JWT, without checking anything (tests check what they need).
func claims(of token: String?) -> [String: Any] {
    part(1, of: token)
}

func header(of token: String?) -> [String: Any] {
    part(0, of: token)
}

private func part(_ index: Int, of token: String?) -> [String: Any] {
    let parts = (token ?? "").split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 3 else { return [:] }
    var base64 = parts[index].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
    base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
    guard let data = Data(base64Encoded: base64),
          let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return [:] }
    return object
}

func int(_ value: Any?) -> Int? {
    (value as? NSNumber)?.intValue ?? (value as? Int)
}

func errorMessage(_ response: WireResponse) -> String? {
    guard let object = try? JSONSerialization.jsonObject(with: response.body) as? [String: Any],
          let error = object["error"] as? [String: Any] else { return nil }
    return error["message"] as? String
}
