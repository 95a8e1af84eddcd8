import Crypto
import Foundation

/// The Web API keys of a served backend: each project's, `adk-<projectId>-<MAC>`, and each tenant's,
/// `adk-<projectId>.<tenantId>-<MAC>` (no project or tenant id has a dot). As in production, a key
/// names the project a client's requests go to; here it is also the credential that scopes a client
/// (a visitor's console) to that project, or to that one tenant, on a shared backend, so its MAC is
/// keyed from the signing key and cannot be made without the data directory.
struct ProjectAPIKeys: Sendable {
    static let prefix = "adk-"
    private static let tenantSeparator = UInt8(ascii: ".")
    /// 128 bits of HMAC-SHA256, base64url.
    private static let macLength = 22

    /// What a key reaches: a project, or one tenant of it.
    struct Scope: Equatable {
        var projectId: String
        var tenantId: String?
    }

    let key: SymmetricKey

    func apiKey(for projectId: String) -> String {
        Self.prefix + projectId + "-" + mac(Scope(projectId: projectId))
    }

    func apiKey(for projectId: String, tenant tenantId: String) -> String {
        let scope = Scope(projectId: projectId, tenantId: tenantId)
        return Self.prefix + projectId + "." + tenantId + "-" + mac(scope)
    }

    /// What a key reaches; nil for a key of no project (any other key: the served default project's,
    /// as the emulator takes any key).
    func scope(of apiKey: String) throws -> Scope? {
        guard apiKey.hasPrefix(Self.prefix) else { return nil }
        let body = apiKey.utf8.dropFirst(Self.prefix.utf8.count)
        guard body.count > Self.macLength + 1 else { throw BackendFailure.invalidAPIKey }
        let macStart = body.index(body.endIndex, offsetBy: -Self.macLength)
        let separator = body.index(before: macStart)
        guard body[separator] == UInt8(ascii: "-") else { throw BackendFailure.invalidAPIKey }
        let ids = body[body.startIndex..<separator]
        let scope: Scope
        if let dot = ids.firstIndex(of: Self.tenantSeparator) {
            guard let projectId = String(ids[..<dot]), let tenantId = String(ids[ids.index(after: dot)...]),
                  TenantDirectory.isValidId(tenantId) else { throw BackendFailure.invalidAPIKey }
            scope = Scope(projectId: projectId, tenantId: tenantId)
        } else {
            guard let projectId = String(ids) else { throw BackendFailure.invalidAPIKey }
            scope = Scope(projectId: projectId)
        }
        guard ProjectId.isValid(scope.projectId), constantTimeEqual(Array(body[macStart...]), Array(mac(scope).utf8)) else {
            throw BackendFailure.invalidAPIKey
        }
        return scope
    }

    /// A tenant's MAC is over `<projectId>/<tenantId>`, which no project id can spell: no project's key
    /// passes for a tenant's, nor one tenant's for another's.
    private func mac(_ scope: Scope) -> String {
        let message = scope.tenantId.map { scope.projectId + "/" + $0 } ?? scope.projectId
        let code = HMAC<SHA256>.authenticationCode(for: Data(message.utf8), using: key)
        return String(Base64URL.encode(Array(code)).prefix(Self.macLength))
    }

    private func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        return zip(a, b).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
