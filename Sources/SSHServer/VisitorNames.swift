import Synchronization

/// How the room names visitors: by the SSH user name they type (`ssh ada@host` is ada), cleaned to
/// what a table and a log can show, as ssh-chat and terminal.shop do. Names an operator uses are
/// reserved for operators' keys: a visitor cannot pass for the presenter, and an operator whose key
/// did not load is told so (refused) instead of landing as a visitor under their own name.
public enum VisitorName {
    /// Cells a name takes at most in the room.
    public static let maximumLength = 16
    /// The name of a visitor whose user name has nothing left once cleaned.
    public static let fallback = "visitor"

    /// Letters and digits of ASCII, `-`, `_` and `.`, lowercased, at most `maximumLength`;
    /// anything else is dropped (so control characters and wide text never reach the room).
    public static func clean(_ user: String) -> String {
        let kept = user.lowercased().unicodeScalars.filter { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "-_.".unicodeScalars.contains($0)) }
        let name = String(String.UnicodeScalarView(kept.prefix(maximumLength)))
        return name.isEmpty ? fallback : name
    }

    /// `name`, or `name-2`, `name-3`… : the first that `taken` does not hold.
    public static func unique(_ name: String, among taken: Set<String>) -> String {
        guard taken.contains(name) else { return name }
        var suffix = 2
        while taken.contains("\(name)-\(suffix)") { suffix += 1 }
        return "\(name)-\(suffix)"
    }
}

/// The names only an operator's key logs in under: the local part of each operator key's comment
/// (`alice` of `alice@laptop`), and every name an operator has logged in under since the server
/// started. Shared by every connection.
final class ReservedNames: Sendable {
    private let names: Mutex<Set<String>>

    init(operatorKeys: OperatorKeys) {
        let fromComments = operatorKeys.comments.values.compactMap { comment -> String? in
            comment.split(whereSeparator: { $0 == "@" || $0 == " " }).first.map { VisitorName.clean(String($0)) }
        }
        names = Mutex(Set(fromComments).subtracting([VisitorName.fallback]))
    }

    func contains(_ user: String) -> Bool { names.withLock { $0.contains(VisitorName.clean(user)) } }

    func reserve(_ user: String) { _ = names.withLock { $0.insert(VisitorName.clean(user)) } }
}
