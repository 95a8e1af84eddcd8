import Foundation
import IdentityToolkit

/// The CSV import file: `firebase auth:export`'s 28 columns, one user per row.
extension AccountFileReader {
    static func readCSV(_ data: Data) -> (users: [(line: Int, user: ExportedUser)], problems: [AccountFileProblem]) {
        var records: [(line: Int, user: ExportedUser)] = []
        var problems: [AccountFileProblem] = []
        for (line, fields) in csvRows(String(decoding: data, as: UTF8.self)) {
            if fields.allSatisfy(\.isEmpty) { continue }
            guard fields.count >= 27 else {
                problems.append(.init(line: line, uid: fields.first, reason: "\(fields.count) columns, expected 28 (firebase auth:export's CSV)"))
                continue
            }
            func field(_ index: Int) -> String? { index < fields.count && !fields[index].isEmpty ? fields[index] : nil }
            guard let uid = field(0) else {
                problems.append(.init(line: line, uid: nil, reason: "the uid (first column) is empty"))
                continue
            }
            var flags: [Bool?] = []
            for (index, name) in [(2, "email verified"), (26, "disabled")] {
                switch field(index)?.lowercased() {
                case nil: flags.append(nil)
                case "true": flags.append(true)
                case "false": flags.append(false)
                case let other?:
                    problems.append(.init(line: line, uid: uid, reason: "\(name) is '\(other)', not true or false"))
                    flags.append(nil)
                }
            }
            for index in [23, 24] {
                if let value = field(index), Int64(value) == nil {
                    problems.append(.init(line: line, uid: uid, reason: "'\(value)' is not a time in milliseconds"))
                }
            }
            let providers = ExportedUser.portableProviders.enumerated().compactMap { index, providerId -> ExportedUser.Provider? in
                let start = 7 + 4 * index
                guard let rawId = field(start) else { return nil }
                return .init(providerId: providerId, rawId: rawId, email: field(start + 1), displayName: field(start + 2), photoUrl: field(start + 3))
            }
            records.append((line, ExportedUser(
                localId: uid, email: field(1), emailVerified: flags[0], passwordHash: field(3), salt: field(4), displayName: field(5),
                photoUrl: field(6), lastSignedInAt: field(24), createdAt: field(23), phoneNumber: field(25), disabled: flags[1],
                customAttributes: field(27), providerUserInfo: providers.isEmpty ? nil : providers)))
        }
        return (records, problems)
    }
}
