import Crypto
import Foundation

/// Time-based one-time passwords (RFC 6238) over HOTP (RFC 4226) with HMAC-SHA1: what
/// authenticator apps compute from the shared secret.
enum Totp {
    static let period: Int64 = 30
    static let digits = 6
    static let algorithm = "SHA1"
    /// 160 bits, as RFC 4226 recommends: 32 Base32 characters.
    static let secretLength = 20

    /// The HOTP value for `counter`, zero-padded to `digits`.
    static func code(secret: Data, counter: UInt64, digits: Int = digits) -> String {
        var bigEndian = counter.bigEndian
        let message = withUnsafeBytes(of: &bigEndian) { Data($0) }
        let mac = Array(HMAC<Insecure.SHA1>.authenticationCode(for: message, using: SymmetricKey(data: secret)))
        // Dynamic truncation: the low nibble of the last byte picks four bytes.
        let offset = Int(mac[mac.count - 1] & 0x0F)
        let binary = (UInt32(mac[offset] & 0x7F) << 24) | (UInt32(mac[offset + 1]) << 16)
            | (UInt32(mac[offset + 2]) << 8) | UInt32(mac[offset + 3])
        var modulus: UInt32 = 1
        for _ in 0..<digits { modulus *= 10 }
        let value = String(binary % modulus)
        return String(repeating: "0", count: digits - value.count) + value
    }

    static func step(at seconds: Int64) -> Int64 { seconds / period }

    static func code(secret: Data, at seconds: Int64, digits: Int = digits) -> String {
        code(secret: secret, counter: UInt64(step(at: seconds)), digits: digits)
    }

    /// The time step whose code is `candidate`, within `window` steps of now and after `lastUsed`,
    /// or nil. Compared in constant time per step, so timing says nothing about which digits matched.
    static func matchingStep(of candidate: String, secret: Data, at seconds: Int64, window: Int, after lastUsed: Int64?) -> Int64? {
        guard candidate.count == digits, candidate.allSatisfy(\.isASCII), candidate.allSatisfy(\.isNumber) else { return nil }
        let now = step(at: seconds)
        var found: Int64?
        for step in (now - Int64(window))...(now + Int64(window)) where step >= 0 {
            let expected = code(secret: secret, counter: UInt64(step))
            let equal = zip(expected.utf8, candidate.utf8).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
            if equal, lastUsed.map({ step > $0 }) ?? true { found = step }
        }
        return found
    }
}

/// RFC 4648 Base32 (`A–Z 2–7`), as authenticator apps expect shared secrets; no padding.
enum Base32 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567".utf8)

    static func encode(_ data: Data) -> String {
        var output = [UInt8]()
        var buffer: UInt32 = 0
        var bits = 0
        for byte in data {
            buffer = (buffer << 8) | UInt32(byte)
            bits += 8
            while bits >= 5 {
                output.append(alphabet[Int((buffer >> UInt32(bits - 5)) & 0x1F)])
                bits -= 5
            }
        }
        if bits > 0 { output.append(alphabet[Int((buffer << UInt32(5 - bits)) & 0x1F)]) }
        return String(decoding: output, as: UTF8.self)
    }
}
