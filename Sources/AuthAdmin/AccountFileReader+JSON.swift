import Foundation
import IdentityToolkit

/// The JSON import file: `{"users": [ … ]}`, each user decoded on its own.
extension AccountFileReader {
    static func readJSON(_ data: Data) -> (users: [(line: Int, user: ExportedUser)], problems: [AccountFileProblem]) {
        /// One element of `users`, decoded on its own so that a bad one is a problem, not the end.
        struct Entry: Decodable {
            let result: Result<ExportedUser, any Error>
            init(from decoder: any Decoder) throws { result = Result { try ExportedUser(from: decoder) } }
        }
        struct File: Decodable { var users: [Entry]? }
        guard let file = try? JSONDecoder().decode(File.self, from: data), let users = file.users else {
            return ([], [.init(line: 1, uid: nil, reason: "not a JSON file with a \"users\" list")])
        }
        let lines = userStartLines(data)
        var records: [(line: Int, user: ExportedUser)] = []
        var problems: [AccountFileProblem] = []
        for (index, entry) in users.enumerated() {
            let line = index < lines.count ? lines[index] : 1
            switch entry.result {
            case let .success(user) where user.localId.isEmpty:
                problems.append(.init(line: line, uid: nil, reason: "localId is empty"))
            case let .success(user):
                records.append((line, user))
            case let .failure(DecodingError.keyNotFound(key, _)):
                problems.append(.init(line: line, uid: nil, reason: "\(key.stringValue) is missing"))
            case let .failure(DecodingError.typeMismatch(_, context)):
                let path = context.codingPath.dropFirst(2).map(\.stringValue).joined(separator: ".")
                problems.append(.init(line: line, uid: nil, reason: "\(path) has the wrong type"))
            case .failure:
                problems.append(.init(line: line, uid: nil, reason: "not a user record"))
            }
        }
        return (records, problems)
    }

    /// The line on which each element of the top-level object's array starts (the users), by a
    /// scan that knows strings and nesting.
    static func userStartLines(_ data: Data) -> [Int] {
        var lines: [Int] = []
        var line = 1, depth = 0, inString = false, escaped = false
        for byte in data {
            if byte == UInt8(ascii: "\n") { line += 1 }
            if inString {
                if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                if depth == 2, byte == UInt8(ascii: "{") { lines.append(line) }
                depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"): depth -= 1
            default: break
            }
        }
        return lines
    }
}
