#if canImport(Glibc)
import Glibc
#endif

/// Who a connection comes from, as the per-address limits and penalties count it: an IPv4 address
/// as it is, an IPv6 address by its /64 (one host or one home network is given a /64 at a time,
/// so its 2^64 addresses are one source), an IPv4-mapped IPv6 address as the IPv4 address.
enum SourceAddress {
    static func of(_ address: String) -> String {
        var bytes = [UInt8](repeating: 0, count: 16)
        guard address.contains(":"), inet_pton(AF_INET6, address, &bytes) == 1 else { return address }
        if bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xFF, bytes[11] == 0xFF {
            return bytes[12...].map(String.init).joined(separator: ".")
        }
        let groups = stride(from: 0, to: 8, by: 2).map { String(UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]), radix: 16) }
        return groups.joined(separator: ":") + "::/64"
    }

    static func isAddress(_ address: String) -> Bool {
        var bytes = [UInt8](repeating: 0, count: 16)
        return inet_pton(AF_INET, address, &bytes) == 1 || inet_pton(AF_INET6, address, &bytes) == 1
    }
}
