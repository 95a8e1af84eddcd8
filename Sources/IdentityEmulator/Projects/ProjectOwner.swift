import Foundation
import IdentityToolkit

/// Who a project other than the default is for: a visitor of `authdeck ssh` (by key, or none),
/// kept as `owner.json` in the project's directory, so that it goes with the project.
public struct ProjectOwner: Codable, Sendable, Equatable {
    /// The key's `SHA256:…` fingerprint; nil for a visitor without a key.
    public var key: String?
    public var address: String
    public var createdAt: Date
    public var lastSeen: Date
    /// When the last of its sessions ended; nil while one is open.
    public var leftAt: Date?
    /// The name the visitor chose at their first visit (their SSH user name); a visitor with a key
    /// keeps it with the project, whatever user name they come back under.
    public var name: String?

    public init(key: String?, address: String, createdAt: Date, lastSeen: Date, leftAt: Date? = nil, name: String? = nil) {
        self.key = key
        self.name = name
        self.address = address
        self.createdAt = createdAt
        self.lastSeen = lastSeen
        self.leftAt = leftAt
    }

    static let fileName = "owner.json"

    /// Times to the millisecond: two visitors who leave in the same second must still be told apart
    /// when the project unused the longest is chosen to go. Files written to the second still read.
    private static let precise = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
    private static let toTheSecond = Date.ISO8601FormatStyle()

    static func read(in directory: URL) -> ProjectOwner? {
        guard let data = try? Data(contentsOf: directory.appendingPathComponent(fileName)) else { return nil }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let text = try decoder.singleValueContainer().decode(String.self)
            guard let date = (try? precise.parse(text)) ?? (try? toTheSecond.parse(text)) else {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not an RFC 3339 time: \(text)"))
            }
            return date
        }
        return try? decoder.decode(ProjectOwner.self, from: data)
    }

    func write(in directory: URL) throws {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(date.formatted(Self.precise))
        }
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        try BackendFiles.replacePrivateFile(at: directory.appendingPathComponent(Self.fileName).path, contents: encoder.encode(self))
    }

    var wire: ListProjectsResponse.Owner {
        let format = ISO8601DateFormatter()
        return .init(key: key, name: name, address: address, createdAt: format.string(from: createdAt), lastSeen: format.string(from: lastSeen),
                     leftAt: leftAt.map(format.string(from:)))
    }
}
