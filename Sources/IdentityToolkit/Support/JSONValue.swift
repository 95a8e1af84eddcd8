import Foundation

/// Any JSON value, for payloads whose shape is open (JWT claims, custom attributes).
public enum JSONValue: Sendable, Hashable, Codable {
    case string(String)
    case number(Double)
    case bool(Bool)
    case array([JSONValue])
    case object([String: JSONValue])
    case null

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let bool = try? container.decode(Bool.self) {
            self = .bool(bool)
        } else if let number = try? container.decode(Double.self) {
            self = .number(number)
        } else if let string = try? container.decode(String.self) {
            self = .string(string)
        } else if let array = try? container.decode([JSONValue].self) {
            self = .array(array)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case let .string(value): try container.encode(value)
        case let .number(value): try container.encode(value)
        case let .bool(value): try container.encode(value)
        case let .array(value): try container.encode(value)
        case let .object(value): try container.encode(value)
        case .null: try container.encodeNil()
        }
    }

    public var stringValue: String? {
        if case let .string(value) = self { return value }
        return nil
    }

    public var numberValue: Double? {
        if case let .number(value) = self { return value }
        return nil
    }

    public subscript(key: String) -> JSONValue? {
        if case let .object(object) = self { return object[key] }
        return nil
    }

    /// Compact, key-sorted JSON text, for display.
    public var compactText: String {
        switch self {
        case let .string(value): return "\"\(value)\""
        case let .number(value):
            return value.rounded() == value && abs(value) < 1e15 ? String(Int64(value)) : String(value)
        case let .bool(value): return value ? "true" : "false"
        case .null: return "null"
        case let .array(values): return "[" + values.map(\.compactText).joined(separator: ",") + "]"
        case let .object(object):
            return "{" + object.keys.sorted().map { "\"\($0)\":" + (object[$0]?.compactText ?? "null") }.joined(separator: ",") + "}"
        }
    }
}

/// Reads a JWT's payload without verifying it: clients display and schedule on claims;
/// only the backend trusts them.
public enum UnverifiedJWT {
    public static func claims(of token: String) -> [String: JSONValue]? {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count >= 2, let data = base64URLDecode(String(parts[1])) else { return nil }
        guard case let .object(claims)? = try? JSONDecoder().decode(JSONValue.self, from: data) else { return nil }
        return claims
    }

    public static func header(of token: String) -> [String: JSONValue]? {
        guard let first = token.split(separator: ".", omittingEmptySubsequences: false).first,
              let data = base64URLDecode(String(first)),
              case let .object(header)? = try? JSONDecoder().decode(JSONValue.self, from: data) else { return nil }
        return header
    }

    public static func base64URLDecode(_ text: String) -> Data? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        return Data(base64Encoded: base64)
    }
}
