import Foundation

/// One operator action: who, when, what, which accounts.
public struct AuditEntry: Codable, Sendable, Equatable {
    public var date: Date
    /// The operator: the local user, or the SSH key that connected.
    public var `operator`: String
    public var action: String
    /// The project the accounts are in (entries written before projects were recorded have none).
    public var project: String?
    /// The project's Identity Platform tenant the accounts are in; nil for the project's own.
    public var tenant: String?
    public var uids: [String]
    /// The addresses, for an action on addresses rather than accounts (lifting the lock-out of any address).
    public var emails: [String]?
    /// How many of `uids` it failed for.
    public var failed: Int

    public init(date: Date, operator: String, action: String, project: String? = nil, tenant: String? = nil, uids: [String],
                emails: [String]? = nil, failed: Int) {
        self.emails = emails
        self.date = date
        self.operator = `operator`
        self.action = action
        self.project = project
        self.tenant = tenant
        self.uids = uids
        self.failed = failed
    }
}

/// The operators' audit log: JSON lines appended to a file (mode 0600) in the data directory,
/// so that several consoles on one directory write to one log.
public actor AuditLog {
    public nonisolated let path: String

    public init(path: String) { self.path = path }

    public func record(_ entry: AuditEntry) throws {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        // Slashes as they are: operators are named by key fingerprints, which are base64.
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var line = try encoder.encode(entry)
        line.append(UInt8(ascii: "\n"))
        if !FileManager.default.fileExists(atPath: path) {
            FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600])
        }
        guard let handle = FileHandle(forWritingAtPath: path) else { throw CocoaError(.fileWriteNoPermission) }
        defer { try? handle.close() }
        // One write at the end: lines of consoles writing at once never interleave.
        try handle.seekToEnd()
        try handle.write(contentsOf: line)
    }

    /// The newest `limit` entries, newest first; lines that are not entries are skipped.
    public func entries(limit: Int = 500) throws -> [AuditEntry] {
        guard let data = FileManager.default.contents(atPath: path) else { return [] }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return data.split(separator: UInt8(ascii: "\n")).suffix(limit).reversed().compactMap {
            try? decoder.decode(AuditEntry.self, from: Data($0))
        }
    }
}
