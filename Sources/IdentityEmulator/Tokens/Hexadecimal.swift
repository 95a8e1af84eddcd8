extension Sequence<UInt8> {
    /// Lower-case hexadecimal, two digits a byte: what `String(format: "%02x")` per byte gives,
    /// without a Foundation formatter per byte (refresh-token hashes are made on every sign-in and
    /// refresh, key ids at every start).
    var hexadecimal: String {
        var text: [UInt8] = []
        text.reserveCapacity(underestimatedCount * 2)
        for byte in self {
            text.append(hexadecimalDigits[Int(byte >> 4)])
            text.append(hexadecimalDigits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}

private let hexadecimalDigits = Array("0123456789abcdef".utf8)
