import Foundation
import IdentityToolkit

/// Reads import files: every record, each with the line it starts on, or every problem found.
public enum AccountFileReader {
    public static func read(_ data: Data, format: AccountFileFormat) -> (users: [(line: Int, user: ExportedUser)], problems: [AccountFileProblem]) {
        let parsed = format == .json ? readJSON(data) : readCSV(data)
        var problems = parsed.problems
        var uids: [String: Int] = [:]
        var emails: [String: Int] = [:]
        for (line, user) in parsed.users {
            if let first = uids[user.localId] {
                problems.append(.init(line: line, uid: user.localId, reason: "duplicate uid (also on line \(first))"))
            } else {
                uids[user.localId] = line
            }
            if let email = user.email?.lowercased(), !email.isEmpty {
                if let first = emails[email] {
                    problems.append(.init(line: line, uid: user.localId, reason: "duplicate email \(email) (also on line \(first))"))
                } else {
                    emails[email] = line
                }
            }
            for (field, value) in [("passwordHash", user.passwordHash), ("salt", user.salt)] {
                if let value, !value.isEmpty, Data(base64Encoded: padded(value)) == nil {
                    problems.append(.init(line: line, uid: user.localId, reason: "\(field) is not base64"))
                }
            }
            if let claims = user.customAttributes, !claims.isEmpty {
                do {
                    _ = try CustomClaims.validated(claims)
                } catch {
                    problems.append(.init(line: line, uid: user.localId, reason: "\(error)"))
                }
            }
        }
        return (parsed.users, problems.sorted { $0.line < $1.line })
    }

    private static func padded(_ base64: String) -> String {
        base64 + String(repeating: "=", count: (4 - base64.count % 4) % 4)
    }
}
