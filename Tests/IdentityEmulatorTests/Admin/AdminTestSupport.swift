import Foundation
import IdentityToolkit
@testable import IdentityEmulator

/// Calls as the Firebase Admin SDK makes them: `Bearer owner` on `/v1/projects/{projectId}/…`.
extension Harness {
    var projectPath: String { "/identitytoolkit.googleapis.com/v1/projects/\(backend.projectId)" }
    var emulatorPath: String { "/emulator/v1/projects/\(backend.projectId)" }

    static let ownerHeaders = ["Authorization": "Bearer owner", "Content-Type": "application/json"]

    /// A raw exchange; `body` is serialised as JSON unless nil.
    func send(_ method: String = "POST", _ path: String, _ body: [String: Any]? = nil,
              headers: [String: String] = ownerHeaders) async throws -> WireResponse {
        let data = try body.map { try JSONSerialization.data(withJSONObject: $0) } ?? Data()
        return await backend.handle(WireRequest(method: method, path: path, headers: headers, body: data))
    }

    /// An administrator's call under this project (`tail` like `/accounts:lookup`), decoded or thrown as the server's error.
    func adminCall<R: Decodable>(_ tail: String, _ body: [String: Any]? = nil, method: String = "POST",
                                 as type: R.Type = R.self) async throws -> R {
        try WireCoding.decode(R.self, from: await send(method, projectPath + tail, body))
    }

    func adminLookup(_ body: [String: Any]) async throws -> [AccountInfo] {
        try await adminCall("/accounts:lookup", body, as: AccountsLookupResponse.self).users ?? []
    }

    func stored(_ localId: String) throws -> StoredAccount? {
        try backend.store.read { try StoredAccount.fetchOne($0, key: localId) }
    }
}

/// The project parameters and test user of the README of Firebase's scrypt (github.com/firebase/scrypt).
enum ScryptReadmeVector {
    static let signerKey = "jxspr8Ki0RYycVU8zykbdLGjFQ3McFUH0uiiTvC8pVMXAn210wjLNmdZJzxUECKbm0QsEmYUSDzZvpjeJ9WmXA=="
    static let saltSeparator = "Bw=="
    static let rounds = 8
    static let memoryCost = 14
    static let password = "user1password"
    static let salt = "42xEC+ixf3L2lw=="
    static let passwordHash = "lSrfV15cpx95/sZS2W9c9Kp6i/LVgQNDNC/qzrCnh1SAyZvqmZqAjTdn3aoItz+VHjoZilo78198JAdRuid5lQ=="

    static var hashOptions: [String: Any] {
        ["hashAlgorithm": "SCRYPT", "signerKey": webSafe(signerKey), "saltSeparator": webSafe(saltSeparator),
         "rounds": rounds, "memoryCost": memoryCost]
    }

    /// The Admin SDKs send keys, hashes and salts as web-safe base64.
    static func webSafe(_ base64: String) -> String {
        base64.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
    }
}
