/// Firebase's rule for a project id: 6 to 30 characters, lower-case letters, digits and hyphens,
/// starting with a letter and not ending with a hyphen. A served backend keeps each project in a
/// directory named by its id, so nothing else may reach the file system.
public enum ProjectId {
    public static func isValid(_ id: String) -> Bool {
        let bytes = Array(id.utf8)
        guard (6...30).contains(bytes.count), let first = bytes.first, let last = bytes.last,
              (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(first), last != UInt8(ascii: "-") else { return false }
        return bytes.allSatisfy { (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || $0 == UInt8(ascii: "-") }
    }
}
