import Foundation

/// A token's claims as compact JSON with sorted keys, written by hand for the types the backend
/// itself puts in claims. JSONSerialization took a sixth of a sign-up's CPU besides RSA (dynamic
/// casts of every value, locale-aware key sorting). Anything else — the numbers of a developer's
/// custom claims, which JSONSerialization reads as NSNumber — makes `data` answer nil, and the
/// caller writes those claims with JSONSerialization.
enum ClaimsJSON {
    static func data(_ claims: [String: Any]) -> Data? {
        var output: [UInt8] = []
        output.reserveCapacity(768)
        guard write(claims, into: &output) else { return nil }
        return Data(output)
    }

    private static func write(_ value: Any, into output: inout [UInt8]) -> Bool {
        // Exact types, not casts: a boxed Bool must not read as a number, nor an NSNumber as a Bool.
        switch ObjectIdentifier(type(of: value)) {
        case ObjectIdentifier(String.self):
            writeString(value as! String, into: &output)
        case ObjectIdentifier(Bool.self):
            if value as! Bool { output.append(contentsOf: "true".utf8) } else { output.append(contentsOf: "false".utf8) }
        case ObjectIdentifier(Int64.self):
            output.append(contentsOf: String(value as! Int64).utf8)
        case ObjectIdentifier(Int.self):
            output.append(contentsOf: String(value as! Int).utf8)
        case ObjectIdentifier([String].self):
            output.append(UInt8(ascii: "["))
            for (index, element) in (value as! [String]).enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                writeString(element, into: &output)
            }
            output.append(UInt8(ascii: "]"))
        case ObjectIdentifier([String: [String]].self):
            return writeObject(value as! [String: [String]], into: &output)
        case ObjectIdentifier([String: Any].self):
            return writeObject(value as! [String: Any], into: &output)
        default:
            return false
        }
        return true
    }

    private static func writeObject<Value>(_ object: [String: Value], into output: inout [UInt8]) -> Bool {
        output.append(UInt8(ascii: "{"))
        for (index, name) in object.keys.sorted().enumerated() {
            if index > 0 { output.append(UInt8(ascii: ",")) }
            writeString(name, into: &output)
            output.append(UInt8(ascii: ":"))
            guard write(object[name]!, into: &output) else { return false }
        }
        output.append(UInt8(ascii: "}"))
        return true
    }

    /// JSON's escapes for the quote, the backslash and control characters; everything else as UTF-8.
    private static func writeString(_ string: String, into output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "\""): output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case 0x0A: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0D: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0x09: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0x00..<0x20:
                output.append(contentsOf: "\\u00".utf8)
                output.append(hexDigits[Int(byte >> 4)])
                output.append(hexDigits[Int(byte & 0x0F)])
            default: output.append(byte)
            }
        }
        output.append(UInt8(ascii: "\""))
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)
}
