import Crypto
import Foundation

/// The Web API key of each project on a served backend: `adk-<projectId>-<MAC>`. As in production,
/// the key names the project a client's requests go to; here it is also the credential that
/// scopes a client (a visitor's console) to that project on a shared backend, so its MAC is keyed
/// from the signing key and cannot be made without the data directory.
struct ProjectAPIKeys: Sendable {
    static let prefix = "adk-"
    /// 128 bits of HMAC-SHA256, base64url.
    private static let macLength = 22

    let key: SymmetricKey

    func apiKey(for projectId: String) -> String {
        Self.prefix + projectId + "-" + mac(projectId)
    }

    /// The project a key names; nil for a key of no project (any other key: the served default
    /// project's, as the emulator takes any key).
    func project(of apiKey: String) throws -> String? {
        guard apiKey.hasPrefix(Self.prefix) else { return nil }
        let body = apiKey.utf8.dropFirst(Self.prefix.utf8.count)
        guard body.count > Self.macLength + 1 else { throw BackendFailure.invalidAPIKey }
        let macStart = body.index(body.endIndex, offsetBy: -Self.macLength)
        let separator = body.index(before: macStart)
        guard body[separator] == UInt8(ascii: "-"), let projectId = String(body[body.startIndex..<separator]),
              ProjectId.isValid(projectId),
              constantTimeEqual(Array(body[macStart...]), Array(mac(projectId).utf8)) else {
            throw BackendFailure.invalidAPIKey
        }
        return projectId
    }

    private func mac(_ projectId: String) -> String {
        let code = HMAC<SHA256>.authenticationCode(for: Data(projectId.utf8), using: key)
        return String(Base64URL.encode(Array(code)).prefix(Self.macLength))
    }

    private func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        return zip(a, b).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
