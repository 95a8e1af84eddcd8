/// Standard base64 (RFC 4648, with padding): the clipboard control string's encoding.
enum Base64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    static func encode(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index < bytes.count {
            let count = min(3, bytes.count - index)
            let chunk = (0..<3).map { $0 < count ? UInt32(bytes[index + $0]) : 0 }
            let value = chunk[0] << 16 | chunk[1] << 8 | chunk[2]
            for position in 0..<4 {
                out.append(position <= count ? alphabet[Int(value >> UInt32(18 - 6 * position) & 0x3F)] : UInt8(ascii: "="))
            }
            index += 3
        }
        return String(decoding: out, as: UTF8.self)
    }
}
