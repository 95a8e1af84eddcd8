import Foundation

/// `application/x-www-form-urlencoded` pairs, as in a query string or a form body. Tolerant on
/// purpose: a malformed escape (`%ZZ`) is kept as written instead of failing the request,
/// since Foundation's `URLComponents.percentEncodedQuery` traps on such input.
enum FormEncoding {
    static func items(_ text: String) -> [URLQueryItem] {
        // Split as bytes: splitting the String walked its grapheme clusters, a few µs for a refresh token's
        // body. `&` and `=` are ASCII, so each piece is still whole characters.
        text.utf8.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true).map { pair in
            let parts = pair.split(separator: UInt8(ascii: "="), maxSplits: 1, omittingEmptySubsequences: false)
            return URLQueryItem(name: decode(Substring(parts[0])), value: parts.count > 1 ? decode(Substring(parts[1])) : nil)
        }
    }

    private static func decode(_ part: Substring) -> String {
        // Most parts (`key=…`) have nothing to decode, and Foundation's replacing and decoding cost a few per cent of a lookup.
        guard part.utf8.contains(where: { $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "%") }) else { return String(part) }
        let spaced = part.replacingOccurrences(of: "+", with: " ")
        return spaced.removingPercentEncoding ?? spaced
    }
}
