import Foundation

/// `json` or `csv`, as `firebase auth:export --format` names them.
public enum AccountFileFormat: String, Sendable, CaseIterable {
    case json, csv

    /// From the file name's extension, as `firebase auth:export` decides.
    public init?(fileName: String) {
        switch URL(fileURLWithPath: fileName).pathExtension.lowercased() {
        case "json": self = .json
        case "csv": self = .csv
        default: return nil
        }
    }
}

/// One record of an import file that cannot be imported, and where it is.
public struct AccountFileProblem: Error, Sendable, Equatable, CustomStringConvertible {
    public var line: Int
    public var uid: String?
    public var reason: String

    public init(line: Int, uid: String?, reason: String) {
        self.line = line
        self.uid = uid
        self.reason = reason
    }

    public var description: String { "line \(line)\(uid.map { " (\($0))" } ?? ""): \(reason)" }
}
