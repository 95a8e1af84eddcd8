import Foundation
import IdentityToolkit

/// Writes the export formats: JSON as `{"users": [ … ]}` one user after another, CSV with
/// `firebase auth:export`'s 28 columns and its trailing comma.
public enum AccountFileWriter {
    public static func header(_ format: AccountFileFormat) -> String {
        format == .json ? "{\"users\": [\n" : ""
    }

    public static func footer(_ format: AccountFileFormat) -> String {
        format == .json ? "\n]}\n" : ""
    }

    /// The user's text; `first` says whether a JSON separator is needed before it.
    public static func record(_ user: ExportedUser, format: AccountFileFormat, first: Bool) throws -> String {
        switch format {
        case .json:
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.withoutEscapingSlashes]
            return (first ? "" : ",\n") + String(decoding: try encoder.encode(user), as: UTF8.self)
        case .csv:
            var columns = Array(repeating: "", count: 28)
            columns[0] = user.localId
            columns[1] = user.email ?? ""
            columns[2] = String(user.emailVerified ?? false)
            columns[3] = user.passwordHash ?? ""
            columns[4] = user.salt ?? ""
            columns[5] = user.displayName ?? ""
            columns[6] = user.photoUrl ?? ""
            for provider in user.providerUserInfo ?? [] {
                guard let index = ExportedUser.portableProviders.firstIndex(of: provider.providerId) else { continue }
                let start = 7 + 4 * index
                columns[start] = provider.rawId
                columns[start + 1] = provider.email ?? ""
                columns[start + 2] = provider.displayName ?? ""
                columns[start + 3] = provider.photoUrl ?? ""
            }
            columns[23] = user.createdAt ?? ""
            columns[24] = user.lastSignedInAt ?? ""
            columns[25] = user.phoneNumber ?? ""
            columns[26] = String(user.disabled ?? false)
            columns[27] = user.customAttributes ?? ""
            return columns.map(csvField).joined(separator: ",") + ",\n"
        }
    }

    /// RFC 4180: quoted when it holds a comma, a quote or a line break; quotes doubled.
    static func csvField(_ text: String) -> String {
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
