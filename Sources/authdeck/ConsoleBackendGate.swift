import Foundation
import IdentityEmulator
import IdentityToolkit

/// The embedded backend as `authdeck ssh` serves it to its consoles on loopback, where every local
/// user can reach it too: a request is answered only when it carries what a console this server
/// started holds, in its environment and never on a command line. That is the admin token (operators'
/// consoles), the operators' project key made for this run (operators' consoles), or a visitor
/// project's key (which the backend checks, and which opens that project only). Anything else is
/// refused as Google refuses a key it does not know: the emulator's "any key is the default
/// project's" would otherwise let any local user add accounts to the operators' project.
struct ConsoleBackendGate: WireHandler {
    let backend: BackendProjects
    let adminToken: String
    let operatorsKey: String

    /// Keys of visitors' projects (`ProjectAPIKeys`), whose MAC the backend checks.
    static let projectKeyPrefix = "adk-"
    static let refusal = "API key not valid. Please pass a valid API key."

    var preferredExecutor: (any TaskExecutor)? { backend.preferredExecutor }

    func handle(_ request: WireRequest) async -> WireResponse {
        guard admits(request) else { return WireResponse(status: 400, body: WireCoding.errorBody(status: 400, message: Self.refusal)) }
        return await backend.handle(request)
    }

    func admits(_ request: WireRequest) -> Bool {
        for (name, value) in request.headers where name.lowercased() == "authorization" {
            if Self.same(value, "Bearer " + adminToken) { return true }
        }
        // Every key the request carries must pass, whichever one the backend reads.
        guard let keys = Self.apiKeys(of: request), !keys.isEmpty else { return false }
        return keys.allSatisfy { $0.hasPrefix(Self.projectKeyPrefix) || Self.same($0, operatorsKey) }
    }

    /// The keys a request carries: `x-goog-api-key` headers, `key` and `apiKey` parameters; nil when
    /// one of these parameters does not decode.
    static func apiKeys(of request: WireRequest) -> [String]? {
        var keys = request.headers.filter { $0.key.lowercased() == "x-goog-api-key" && !$0.value.isEmpty }.map(\.value)
        guard let mark = request.path.firstIndex(of: "?") else { return keys }
        for item in request.path[request.path.index(after: mark)...].split(separator: "&") {
            let parts = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = parts[0].removingPercentEncoding, name == "key" || name == "apiKey" else { continue }
            guard let value = parts.count > 1 ? parts[1].replacingOccurrences(of: "+", with: " ").removingPercentEncoding : "" else { return nil }
            if !value.isEmpty { keys.append(value) }
        }
        return keys
    }

    /// Compared in a time that does not depend on where they differ.
    private static func same(_ a: String, _ b: String) -> Bool {
        let (x, y) = (Array(a.utf8), Array(b.utf8))
        return x.count == y.count && zip(x, y).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
