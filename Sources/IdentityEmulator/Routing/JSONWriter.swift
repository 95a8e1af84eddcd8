import Foundation

/// JSON written straight into a byte buffer, for the hot answers (ID-token claims, `batchGet`
/// pages): `JSONSerialization` and `JSONEncoder` spent more time building and sorting their
/// dictionaries than RSA spent signing. Keys are written in the order given; strings are escaped
/// as RFC 8259 requires (quote, backslash, control characters) and otherwise left as UTF-8.
struct JSONWriter {
    private(set) var bytes: [UInt8] = []
    /// No separator before the next key or value: just after `{`, `[` or a key.
    private var first = true

    init(capacity: Int = 512) { bytes.reserveCapacity(capacity) }

    mutating func beginObject() { separate(); bytes.append(UInt8(ascii: "{")); first = true }
    mutating func endObject() { bytes.append(UInt8(ascii: "}")); first = false }
    mutating func beginArray() { separate(); bytes.append(UInt8(ascii: "[")); first = true }
    mutating func endArray() { bytes.append(UInt8(ascii: "]")); first = false }

    mutating func key(_ name: String) {
        separate()
        appendString(name)
        bytes.append(UInt8(ascii: ":"))
        first = true
    }

    mutating func string(_ value: String) { separate(); appendString(value); first = false }

    mutating func integer(_ value: Int64) {
        separate()
        bytes.append(contentsOf: String(value).utf8)
        first = false
    }

    mutating func bool(_ value: Bool) {
        separate()
        bytes.append(contentsOf: value ? Self.trueLiteral : Self.falseLiteral)
        first = false
    }

    /// A value that is JSON already (a custom claim as `JSONSerialization` wrote it).
    mutating func raw(_ json: some Sequence<UInt8>) { separate(); bytes.append(contentsOf: json); first = false }

    mutating func field(_ name: String, _ value: String) { key(name); string(value) }
    mutating func field(_ name: String, _ value: Int64) { key(name); integer(value) }
    mutating func field(_ name: String, _ value: Bool) { key(name); bool(value) }

    /// The field only when there is a value, as `JSONEncoder` leaves out a nil optional.
    mutating func field(_ name: String, _ value: String?) { if let value { field(name, value) } }
    mutating func field(_ name: String, _ value: Bool?) { if let value { field(name, value) } }

    /// An array field, each element written by `element`; none for nil, as `JSONEncoder` leaves it out.
    mutating func field<Element>(_ name: String, _ elements: [Element]?, _ element: (Element, inout JSONWriter) -> Void) {
        guard let elements else { return }
        key(name)
        beginArray()
        for each in elements { element(each, &self) }
        endArray()
    }

    /// An object, its fields written by `fields`.
    mutating func object(_ fields: (inout JSONWriter) -> Void) {
        beginObject()
        fields(&self)
        endObject()
    }

    /// One object as bytes, its fields written by `fields`.
    static func object(capacity: Int, _ fields: (inout JSONWriter) -> Void) -> Data {
        var json = JSONWriter(capacity: capacity)
        json.object(fields)
        return Data(json.bytes)
    }

    private mutating func separate() { if !first { bytes.append(UInt8(ascii: ",")) } }

    private mutating func appendString(_ value: String) {
        bytes.append(UInt8(ascii: "\""))
        var value = value
        // Runs that need no escape (all of a token, nearly all of any text) are copied whole.
        value.withUTF8 { utf8 in
            var run = 0
            for index in utf8.indices where utf8[index] < 0x20 || utf8[index] == UInt8(ascii: "\"") || utf8[index] == UInt8(ascii: "\\") {
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[run..<index]))
                appendEscaped(utf8[index])
                run = index + 1
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[run...]))
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private mutating func appendEscaped(_ byte: UInt8) {
        switch byte {
        case UInt8(ascii: "\""): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
        case UInt8(ascii: "\\"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
        case UInt8(ascii: "\n"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
        case UInt8(ascii: "\r"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
        case UInt8(ascii: "\t"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
        // Backspace and form feed as `JSONEncoder` writes them.
        case 0x08: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
        case 0x0C: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
        default:
            bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                                      Self.hexDigits[Int(byte >> 4)], Self.hexDigits[Int(byte & 0xF)]])
        }
    }

    private static let trueLiteral = Array("true".utf8)
    private static let falseLiteral = Array("false".utf8)
    private static let hexDigits = Array("0123456789abcdef".utf8)
}
