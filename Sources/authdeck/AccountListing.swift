import AuthAdmin
import Foundation

/// How `authdeck accounts list` prints accounts: a table for people, JSON for scripts.
enum AccountListing {
    /// The project's lock-outs by address in lower case, as the console's table matches them to its rows.
    typealias Lockouts = [String: Date]

    static func lockouts(_ list: [EmailLockout]) -> Lockouts {
        Dictionary(list.map { ($0.email.lowercased(), $0.lockedUntil) }, uniquingKeysWith: max)
    }

    static func lockedUntil(_ user: UserRecord, in lockouts: Lockouts) -> Date? {
        user.email.flatMap { lockouts[$0.lowercased()] }
    }

    static func table(_ users: [UserRecord], lockouts: Lockouts) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate, .withTime, .withColonSeparatorInTime, .withSpaceBetweenDateAndTime]
        let rows = users.map { user -> [String] in
            [user.uid, user.email ?? user.phoneNumber ?? "-", user.providerData.map(\.providerId).joined(separator: ",").nilIfEmpty ?? "-",
             user.metadata.creationTime.map(formatter.string(from:)) ?? "-", user.metadata.lastSignInTime.map(formatter.string(from:)) ?? "-",
             flags(user, locked: lockedUntil(user, in: lockouts) != nil).joined(separator: ",").nilIfEmpty ?? "-"]
        }
        let header = ["UID", "EMAIL/PHONE", "PROVIDERS", "CREATED", "LAST SIGN-IN", "FLAGS"]
        let widths = header.indices.map { column in ([header] + rows).map { $0[column].count }.max() ?? 0 }
        return ([header] + rows).map { row in
            row.enumerated().map { $0.offset == row.count - 1 ? $0.element : $0.element.padding(toLength: widths[$0.offset], withPad: " ", startingAt: 0) }
                .joined(separator: "  ")
        }.joined(separator: "\n")
    }

    /// Flags as words, never as colour; the console's letters (A D U 2 L) in its order, named as `--filter` names them.
    static func flags(_ user: UserRecord, locked: Bool) -> [String] {
        var flags: [String] = []
        if user.isAnonymous { flags.append("anonymous") }
        if user.disabled { flags.append("disabled") }
        if user.email != nil, !user.emailVerified { flags.append("unverified") }
        if !user.multiFactor.isEmpty { flags.append("2fa") }
        if locked { flags.append("locked") }
        return flags
    }

    static func json(_ users: [UserRecord], lockouts: Lockouts) throws -> String {
        let formatter = ISO8601DateFormatter()
        let objects: [[String: Any]] = users.map { user in
            let lockedUntil = lockedUntil(user, in: lockouts)
            var object: [String: Any] = ["uid": user.uid, "emailVerified": user.emailVerified, "disabled": user.disabled,
                                         "anonymous": user.isAnonymous, "hasPassword": user.hasPassword, "locked": lockedUntil != nil]
            object["lockedUntil"] = lockedUntil.map(formatter.string(from:))
            object["email"] = user.email
            object["phoneNumber"] = user.phoneNumber
            object["displayName"] = user.displayName
            object["creationTime"] = user.metadata.creationTime.map(formatter.string(from:))
            object["lastSignInTime"] = user.metadata.lastSignInTime.map(formatter.string(from:))
            object["providerData"] = user.providerData.map { ["providerId": $0.providerId, "uid": $0.uid ?? ""] }
            object["customClaims"] = user.customClaims.flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) }
            object["multiFactor"] = user.multiFactor.map { factor -> [String: Any] in
                var entry: [String: Any] = ["uid": factor.uid, "factorId": factor.factorId.rawValue]
                entry["phoneNumber"] = factor.maskedPhoneNumber
                entry["displayName"] = factor.displayName
                return entry
            }
            return object
        }
        let data = try JSONSerialization.data(withJSONObject: objects, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
        return String(decoding: data, as: UTF8.self)
    }
}

extension String {
    var nilIfEmpty: String? { isEmpty ? nil : self }
}
