import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// What survives a restart: the user snapshot and its tokens (Firebase keeps the same in the
/// keychain on iOS and IndexedDB on the web).
public struct PersistedSession: Sendable, Equatable, Codable {
    public var user: User
    public var idToken: String
    public var refreshToken: String
    public var expirationDate: Date

    public init(user: User, idToken: String, refreshToken: String, expirationDate: Date) {
        self.user = user
        self.idToken = idToken
        self.refreshToken = refreshToken
        self.expirationDate = expirationDate
    }
}

public protocol SessionStore: Sendable {
    func load() throws -> PersistedSession?
    func save(_ session: PersistedSession?) throws
}

/// Keeps the session in one JSON file, mode 0600, written atomically so a killed process
/// leaves either the old session or the new one, never half of each.
public struct FileSessionStore: SessionStore {
    public let url: URL

    public init(url: URL) { self.url = url }

    public func load() throws -> PersistedSession? {
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        let data = try Data(contentsOf: url)
        return try JSONDecoder().decode(PersistedSession.self, from: data)
    }

    public func save(_ session: PersistedSession?) throws {
        guard let session else {
            if FileManager.default.fileExists(atPath: url.path) { try FileManager.default.removeItem(at: url) }
            return
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data = try encoder.encode(session)
        let temporary = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).tmp")
        FileManager.default.createFile(atPath: temporary.path, contents: nil, attributes: [.posixPermissions: 0o600])
        let handle = try FileHandle(forWritingTo: temporary)
        try handle.write(contentsOf: data)
        try handle.synchronize()
        try handle.close()
        guard rename(temporary.path, url.path) == 0 else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path])
        }
    }
}
