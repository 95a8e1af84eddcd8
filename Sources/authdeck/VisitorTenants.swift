import Foundation
import IdentityToolkit
import SSHServer

/// Visitors' sandboxes as Identity Platform tenants of a backend this host shares with others (an
/// `authdeck serve`, the Firebase Auth Emulator, a real project). Only the tenants this host made are
/// its own: each has a directory under `<data>/visitor-tenants/`, named by the sandbox's id, with
/// `owner.json` (who it is for, and the tenant's id) and the console's session and app data. Another
/// host's tenants, on the same backend, are never listed, emptied or removed here.
struct VisitorTenants: SandboxStore {
    /// A visitor's console reaches its tenant with the tenant's own key, or on a backend that gives
    /// none (the emulator, Google) with the key it has (`nil`: the console's own).
    struct Access: Sendable {
        let tenantId: String
        let apiKey: String?
    }

    /// `owner.json`: the tenant made for the sandbox, once made, and who it is for, once known.
    private struct Record: Codable {
        var tenantId: String?
        var owner: SandboxOwner?
    }

    static let directoryName = "visitor-tenants"

    let projectId: String
    /// An administrator's: the admin token, `owner`, or the service account.
    let administrator: HTTPTransport
    let root: URL
    /// The key a console uses where the backend gives a tenant none: a real project's.
    let projectKey: String?

    func sandboxIds() async throws -> [String] {
        let root = root
        return try await BlockingWork.run {
            guard FileManager.default.fileExists(atPath: root.path) else { return [] }
            return try FileManager.default.contentsOfDirectory(atPath: root.path).filter(Self.isSandboxId).sorted()
        }
    }

    /// Its tenant was made and is still on the backend: one deleted behind this host's back is made anew.
    func exists(_ id: String) async throws -> Bool {
        guard let tenant = await read(id)?.tenantId else { return false }
        return try await tenantIds().contains(tenant)
    }

    func reserve(_ id: String) async throws {
        let directory = directory(of: id)
        try await BlockingWork.run {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        }
    }

    func prepare(_ id: String, name: String) async throws -> Access {
        try await reserve(id)
        var record = await read(id) ?? Record()
        if try await !exists(id) {
            let tenant = try await administrator.call(CreateTenantRequest(projectId: projectId, displayName: Self.displayName(for: name)))
            record.tenantId = tenant.tenantId
            try await write(record, of: id)
        }
        guard let tenantId = record.tenantId else { throw ConsoleRefusal("AuthDeck could not make your tenant; try again later.") }
        return Access(tenantId: tenantId, apiKey: try await apiKey(of: tenantId))
    }

    /// `authdeck serve`'s key for the tenant; the Firebase Auth Emulator has none to give (404), and Google's project key serves every tenant.
    private func apiKey(of tenantId: String) async throws -> String? {
        if let projectKey { return projectKey }
        do {
            return try await administrator.call(TenantAPIKeyRequest(projectId: projectId, tenantId: tenantId)).apiKey
        } catch IdentityToolkitError.server(status: 404, _) {
            return nil
        }
    }

    func owner(of id: String) async -> SandboxOwner? { await read(id)?.owner }

    func setOwner(_ owner: SandboxOwner, of id: String) async throws {
        var record = await read(id) ?? Record()
        record.owner = owner
        try await write(record, of: id)
    }

    func accountCount(of id: String) async throws -> Int {
        guard let tenant = await read(id)?.tenantId else { return 0 }
        let answer = try await administrator.call(TenantAdministratorRequest(QueryAccountsRequest(projectId: projectId, returnUserInfo: false), tenantId: tenant))
        return answer.recordsCount.flatMap { Int($0) } ?? 0
    }

    /// The emulator's wipe of the tenant (accounts and outbox); Google has none, so there its accounts
    /// are deleted a page at a time.
    func empty(_ id: String) async throws {
        guard let tenant = await read(id)?.tenantId else { return }
        guard administrator.target == .production else {
            _ = try await administrator.call(EmptyTenantRequest(projectId: projectId, tenantId: tenant))
            return
        }
        while true {
            let page = try await administrator.call(TenantAdministratorRequest(BatchGetAccountsRequest(projectId: projectId, maxResults: 1000), tenantId: tenant))
            let ids = (page.users ?? []).map(\.localId)
            if ids.isEmpty { return }
            _ = try await administrator.call(TenantAdministratorRequest(BatchDeleteAccountsRequest(projectId: projectId, localIds: ids), tenantId: tenant))
        }
    }

    /// The tenant (one already gone is fine), then the directory.
    func remove(_ id: String) async throws {
        if let tenant = await read(id)?.tenantId, try await tenantIds().contains(tenant) {
            _ = try await administrator.call(DeleteTenantRequest(projectId: projectId, tenantId: tenant))
        }
        let directory = directory(of: id)
        try await BlockingWork.run {
            if FileManager.default.fileExists(atPath: directory.path) { try FileManager.default.removeItem(at: directory) }
        }
    }

    func directory(of id: String) -> URL { root.appendingPathComponent(id, isDirectory: true) }

    func label(of id: String) async -> String { await read(id)?.tenantId ?? id }

    /// Every tenant of the project: a listing makes nothing, where a read of one tenant would make it on an emulator.
    func tenantIds() async throws -> Set<String> {
        try await ConsoleTenant.tenantIds(projectId: projectId, administrator: administrator)
    }

    private func read(_ id: String) async -> Record? {
        let file = directory(of: id).appendingPathComponent("owner.json")
        return try? await BlockingWork.run {
            guard let data = try? Data(contentsOf: file) else { return nil }
            return try Self.decoder.decode(Record.self, from: data)
        }
    }

    private func write(_ record: Record, of id: String) async throws {
        let file = directory(of: id).appendingPathComponent("owner.json")
        let data = try Self.encoder.encode(record)
        try await BlockingWork.run { try data.write(to: file, options: .atomic) }
    }

    /// Times to the millisecond: two visitors who leave in the same second must still be told apart.
    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .millisecondsSince1970
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }()

    private static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .millisecondsSince1970
        return decoder
    }()

    private static func isSandboxId(_ name: String) -> Bool {
        (name.hasPrefix("visitor-") || name.hasPrefix("guest-")) && name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
    }

    /// A tenant's display name from the visitor's: `visitor-ada`, within Identity Platform's rule (4 to 20
    /// characters, a letter first, then letters, digits and hyphens).
    static func displayName(for name: String) -> String {
        var tail = ""
        for character in name.lowercased() where tail.count < 12 {
            if character.isASCII, character.isLetter || character.isNumber {
                tail.append(character)
            } else if !tail.isEmpty, tail.last != "-" {
                tail.append("-")
            }
        }
        while tail.hasSuffix("-") { tail.removeLast() }
        return tail.isEmpty ? "visitor" : "visitor-" + tail
    }
}
