// Int64s as 8 big-endian bytes, as refresh tokens (`RefreshTokenSession`) and an account's
// revocations (`SessionCuts`) store them.
extension Array where Element == UInt8 {
    mutating func appendBigEndian(_ value: Int64) {
        Swift.withUnsafeBytes(of: value.bigEndian) { append(contentsOf: $0) }
    }
}

extension Int64 {
    /// `bytes`: exactly 8.
    init(bigEndianBytes bytes: some Collection<UInt8>) {
        self = bytes.reduce(0) { $0 << 8 | Int64($1) }
    }
}
