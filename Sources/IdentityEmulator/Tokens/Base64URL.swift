import Foundation

/// Base64url without padding (RFC 4648 §5), as JWTs and exported hashes use it. Encoded by table:
/// Foundation's base64 and three `replacingOccurrences` per token cost a tenth of a sign-up.
enum Base64URL {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    static func encode(_ input: some Collection<UInt8>) -> String {
        var output = [UInt8]()
        output.reserveCapacity((input.count * 4 + 2) / 3)
        var iterator = input.makeIterator()
        while let a = iterator.next() {
            let b = iterator.next(), c = b == nil ? nil : iterator.next()
            let bits = UInt32(a) << 16 | UInt32(b ?? 0) << 8 | UInt32(c ?? 0)
            output.append(alphabet[Int(bits >> 18 & 63)])
            output.append(alphabet[Int(bits >> 12 & 63)])
            if b != nil { output.append(alphabet[Int(bits >> 6 & 63)]) }
            if c != nil { output.append(alphabet[Int(bits & 63)]) }
        }
        return String(decoding: output, as: UTF8.self)
    }
}

extension Data {
    func base64URLEncodedString() -> String { Base64URL.encode(self) }

    init?(base64URLEncoded string: String) {
        var base64 = string.utf8.map { byte in
            switch byte {
            case UInt8(ascii: "-"): UInt8(ascii: "+")
            case UInt8(ascii: "_"): UInt8(ascii: "/")
            default: byte
            }
        }
        base64.append(contentsOf: repeatElement(UInt8(ascii: "="), count: (4 - base64.count % 4) % 4))
        self.init(base64Encoded: Data(base64))
    }
}
