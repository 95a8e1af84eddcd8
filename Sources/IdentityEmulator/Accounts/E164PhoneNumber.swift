import Foundation

/// Phone numbers as Firebase stores them: E.164, a `+` and at most 15 digits.
enum E164PhoneNumber {
    static func validated(_ raw: String) -> String? {
        let digits = raw.dropFirst()
        guard raw.first == "+", (1...15).contains(digits.count), digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return raw
    }
}
