import Foundation
import IdentityToolkit

/// One user in the file formats of `firebase auth:export` / `auth:import`: the same JSON keys
/// (`lastSignedInAt` for `lastLoginAt`) and the same 28 CSV columns; hashes and salts in standard base64.
public struct ExportedUser: Codable, Sendable, Equatable {
    public struct Provider: Codable, Sendable, Equatable {
        public var providerId: String
        public var rawId: String
        public var email: String?
        public var displayName: String?
        public var photoUrl: String?

        public init(providerId: String, rawId: String, email: String? = nil, displayName: String? = nil, photoUrl: String? = nil) {
            self.providerId = providerId
            self.rawId = rawId
            self.email = email
            self.displayName = displayName
            self.photoUrl = photoUrl
        }
    }

    public var localId: String
    public var email: String?
    public var emailVerified: Bool?
    public var passwordHash: String?
    public var salt: String?
    public var displayName: String?
    public var photoUrl: String?
    /// Milliseconds since 1970, as a string.
    public var lastSignedInAt: String?
    /// Milliseconds since 1970, as a string.
    public var createdAt: String?
    public var phoneNumber: String?
    public var disabled: Bool?
    public var customAttributes: String?
    public var providerUserInfo: [Provider]?

    /// Anonymous, as Identity Platform's clean-up of anonymous accounts counts them: no email, no phone
    /// number, no linked provider.
    public var isAnonymous: Bool {
        (email ?? "").isEmpty && (phoneNumber ?? "").isEmpty && (providerUserInfo ?? []).isEmpty
    }

    /// When the account was created, if the record says.
    public var creationDate: Date? {
        createdAt.flatMap(Int64.init).map { Date(timeIntervalSince1970: TimeInterval($0) / 1000) }
    }

    public init(localId: String, email: String? = nil, emailVerified: Bool? = nil, passwordHash: String? = nil, salt: String? = nil,
                displayName: String? = nil, photoUrl: String? = nil, lastSignedInAt: String? = nil, createdAt: String? = nil,
                phoneNumber: String? = nil, disabled: Bool? = nil, customAttributes: String? = nil, providerUserInfo: [Provider]? = nil) {
        self.localId = localId
        self.email = email
        self.emailVerified = emailVerified
        self.passwordHash = passwordHash
        self.salt = salt
        self.displayName = displayName
        self.photoUrl = photoUrl
        self.lastSignedInAt = lastSignedInAt
        self.createdAt = createdAt
        self.phoneNumber = phoneNumber
        self.disabled = disabled
        self.customAttributes = customAttributes
        self.providerUserInfo = providerUserInfo
    }

    /// The providers `firebase auth:export` writes and `auth:import` reads (password and phone
    /// follow from the hash, the email and the number).
    public static let portableProviders = ["google.com", "facebook.com", "twitter.com", "github.com"]

    init(wire info: AccountInfo) {
        self.init(
            localId: info.localId, email: info.email, emailVerified: info.emailVerified ?? false,
            passwordHash: info.passwordHash.map(Self.standardBase64), salt: info.passwordHash == nil ? nil : info.salt.map(Self.standardBase64),
            displayName: info.displayName, photoUrl: info.photoUrl, lastSignedInAt: info.lastLoginAt, createdAt: info.createdAt,
            phoneNumber: info.phoneNumber, disabled: info.disabled ?? false, customAttributes: info.customAttributes,
            providerUserInfo: (info.providerUserInfo ?? []).filter { Self.portableProviders.contains($0.providerId) }.map {
                Provider(providerId: $0.providerId, rawId: $0.rawId ?? "", email: $0.email, displayName: $0.displayName, photoUrl: $0.photoUrl)
            })
    }

    var wire: ImportedAccount {
        ImportedAccount(
            localId: localId, email: email.flatMap { $0.isEmpty ? nil : $0 }, emailVerified: emailVerified,
            displayName: displayName.flatMap { $0.isEmpty ? nil : $0 }, photoUrl: photoUrl.flatMap { $0.isEmpty ? nil : $0 },
            phoneNumber: phoneNumber.flatMap { $0.isEmpty ? nil : $0 }, disabled: disabled,
            passwordHash: passwordHash.flatMap { $0.isEmpty ? nil : Self.webSafeBase64($0) },
            salt: salt.flatMap { $0.isEmpty ? nil : Self.webSafeBase64($0) },
            customAttributes: customAttributes.flatMap { $0.isEmpty ? nil : $0 },
            createdAt: createdAt.flatMap { $0.isEmpty ? nil : $0 }, lastLoginAt: lastSignedInAt.flatMap { $0.isEmpty ? nil : $0 },
            providerUserInfo: providerUserInfo.map { $0.map {
                ProviderUserInfo(providerId: $0.providerId, rawId: $0.rawId, email: $0.email, displayName: $0.displayName, photoUrl: $0.photoUrl)
            } })
    }

    /// Standard base64 with its padding, as `firebase auth:export` writes it (the API sends web-safe, maybe unpadded).
    static func standardBase64(_ text: String) -> String {
        let standard = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        return standard + String(repeating: "=", count: (4 - standard.count % 4) % 4)
    }

    static func webSafeBase64(_ text: String) -> String {
        text.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
    }
}

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

    private static func readJSON(_ data: Data) -> (users: [(line: Int, user: ExportedUser)], problems: [AccountFileProblem]) {
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

    private static func readCSV(_ data: Data) -> (users: [(line: Int, user: ExportedUser)], problems: [AccountFileProblem]) {
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

    /// RFC 4180 rows with the line each starts on; quoted fields may hold commas, quotes and line breaks.
    public static func csvRows(_ text: String) -> [(line: Int, fields: [String])] {
        var rows: [(line: Int, fields: [String])] = []
        var fields: [String] = []
        var field = ""
        var quoted = false, afterQuote = false
        var line = 1, rowLine = 1
        var characters = text.makeIterator()
        while let character = characters.next() {
            if quoted {
                if character == "\"" { quoted = false; afterQuote = true } else {
                    if character == "\n" || character == "\r\n" { line += 1 }
                    field.append(character)
                }
                continue
            }
            switch character {
            case "\"":
                if afterQuote { field.append("\"") }
                quoted = true
                afterQuote = false
            case ",":
                fields.append(field); field = ""; afterQuote = false
            case "\n", "\r\n", "\r":
                fields.append(field); field = ""; afterQuote = false
                rows.append((rowLine, fields)); fields = []
                line += 1
                rowLine = line
            default:
                field.append(character); afterQuote = false
            }
        }
        if !field.isEmpty || !fields.isEmpty {
            fields.append(field)
            rows.append((rowLine, fields))
        }
        // firebase auth:export ends each row with a comma: a last empty column that is no column.
        return rows.map { row in
            var fields = row.fields
            if fields.count == 29, fields.last == "" { fields.removeLast() }
            return (row.line, fields)
        }
    }
}
