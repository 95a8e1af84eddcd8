import Foundation

/// Email addresses as the backend stores and matches them.
enum EmailAddress {
    /// Trimmed and lower-cased, or nil when it does not look like `local@domain.tld`.
    static func normalized(_ raw: String) -> String? {
        let email = raw.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        // The Specials block (U+FFF0–U+FFFF) is outside the characters the emulator allows: U+FFFD stands for bytes
        // that were not UTF-8, which no address holds.
        guard !email.unicodeScalars.contains(where: {
            CharacterSet.whitespacesAndNewlines.contains($0) || CharacterSet.controlCharacters.contains($0) || (0xFFF0...0xFFFF).contains($0.value)
        }), email.count <= 254 else { return nil }
        let parts = email.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty else { return nil }
        let labels = parts[1].split(separator: ".", omittingEmptySubsequences: false)
        guard labels.count >= 2, labels.allSatisfy({ !$0.isEmpty && !$0.hasPrefix("-") && !$0.hasSuffix("-") }) else { return nil }
        return email
    }
}
