import Foundation
import Synchronization

/// A project's tenants on disk: `tenants/<id>/tenant.json` beside the project's own database, a
/// directory per tenant so that everything of it (its settings now, its accounts' database beside
/// them) is removed with it and no query of one tenant can reach another's rows.
struct TenantDirectory {
    let root: URL

    /// Every project's tenant changes, one at a time: a create, patch or delete reads and writes a file.
    private static let changes = Mutex<Void>(())

    static func isValidId(_ id: String) -> Bool {
        let bytes = id.utf8
        guard (1...63).contains(bytes.count), bytes.first != UInt8(ascii: "-") else { return false }
        return bytes.allSatisfy { (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || $0 == UInt8(ascii: "-") }
    }

    /// The tenant's accounts, a database of its own in the tenant's directory.
    func databasePath(_ id: String) -> String {
        root.appendingPathComponent(id, isDirectory: true).appendingPathComponent("identity.sqlite").path
    }

    private func file(_ id: String) -> URL {
        root.appendingPathComponent(id, isDirectory: true).appendingPathComponent("tenant.json")
    }

    /// The tenant, or nil when there is none: never made, or deleted by another request meanwhile
    /// (a listing reads unlocked, so a tenant may go between its directory's listing and its reading).
    func read(_ id: String) throws -> TenantSettings? {
        guard Self.isValidId(id) else { return nil }
        let data: Data
        do {
            data = try Data(contentsOf: file(id))
        } catch CocoaError.fileReadNoSuchFile {
            return nil
        }
        return try JSONDecoder().decode(TenantSettings.self, from: data)
    }

    /// The tenant after `change`, which sees it as it is (nil: none yet) and returns it as it is to be.
    func update(_ id: String, _ change: (TenantSettings?) throws -> TenantSettings) throws -> TenantSettings {
        try Self.changes.withLock { _ in
            let updated = try change(try read(id))
            try FileManager.default.createDirectory(at: file(id).deletingLastPathComponent(), withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
            try JSONEncoder().encode(updated).write(to: file(id), options: .atomic)
            return updated
        }
    }

    /// Creates a tenant under a fresh id, as the emulator names them (28 letters and digits).
    func create(_ make: (String) -> TenantSettings) throws -> TenantSettings {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
        var generator = SystemRandomNumberGenerator()
        while true {
            let id = String((0..<28).map { _ in alphabet[Int(generator.next(upperBound: UInt(alphabet.count)))] })
            var fresh = false
            let tenant = try update(id) { existing in
                fresh = existing == nil
                return existing ?? make(id)
            }
            if fresh { return tenant }
        }
    }

    /// Renamed out of the way first (a name no tenant can have), then removed: a database still open in
    /// it can make no file there meanwhile, which would stop the removal.
    func remove(_ id: String) throws {
        guard Self.isValidId(id) else { return }
        try Self.changes.withLock { _ in
            let directory = root.appendingPathComponent(id, isDirectory: true)
            guard FileManager.default.fileExists(atPath: directory.path) else { return }
            let removed = root.appendingPathComponent(".removed-\(id)-\(UUID().uuidString)", isDirectory: true)
            try FileManager.default.moveItem(at: directory, to: removed)
            try FileManager.default.removeItem(at: removed)
        }
    }

    /// Every tenant, removed as `remove` removes one: renamed out of the way first. Their databases
    /// must be closed first.
    func removeAll() throws {
        try Self.changes.withLock { _ in
            guard FileManager.default.fileExists(atPath: root.path) else { return }
            let removed = root.deletingLastPathComponent().appendingPathComponent(".removed-tenants-\(UUID().uuidString)", isDirectory: true)
            try FileManager.default.moveItem(at: root, to: removed)
            try FileManager.default.removeItem(at: removed)
        }
    }

    /// `body`'s result while the tenant exists, no removal running meanwhile; nil when it does not exist.
    func whileExisting<T>(_ id: String, _ body: () throws -> T) throws -> T? {
        try Self.changes.withLock { _ in try read(id) == nil ? nil : body() }
    }

    /// Every tenant, by id, after `pageToken` (the last id of the page before).
    func list(after pageToken: String?) throws -> [TenantSettings] {
        guard FileManager.default.fileExists(atPath: root.path) else { return [] }
        let after = pageToken ?? ""
        return try FileManager.default.contentsOfDirectory(atPath: root.path).filter { Self.isValidId($0) && $0 > after }.sorted()
            .compactMap { try read($0) }
    }
}
