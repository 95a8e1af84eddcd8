/// The Firebase SDKs the teaching pane shows code for: the platforms of the seed guides.
public enum SDKPlatform: String, CaseIterable, Sendable, Hashable {
    case swift, kotlin, javascript, cpp

    /// The language, as the pane's language key names it.
    var name: String {
        switch self {
        case .swift: "Swift"
        case .kotlin: "Kotlin"
        case .javascript: "JavaScript"
        case .cpp: "C++"
        }
    }

    /// The pane's header for this platform's code.
    var title: String {
        switch self {
        case .swift: "Swift (Apple platforms)"
        case .kotlin: "Kotlin (Android)"
        case .javascript: "JavaScript (web, modular API)"
        case .cpp: "C++"
        }
    }

    /// The platform named by a `--sdk` option value: swift, kotlin, js (or javascript), cpp (or c++).
    public init?(option: String) {
        switch option.lowercased() {
        case "swift": self = .swift
        case "kotlin": self = .kotlin
        case "js", "javascript": self = .javascript
        case "cpp", "c++": self = .cpp
        default: return nil
        }
    }

    /// `text` as the inside of a double-quoted string literal. The four languages share C's
    /// escapes; Kotlin also interpolates `$`, so a typed value can never change the code around it.
    func escapedLiteral(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": out += "\\\\"
            case "\"": out += "\\\""
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "$" where self == .kotlin: out += "\\$"
            // Other control characters would draw nothing or move the cursor: dropped.
            case _ where scalar.properties.generalCategory == .control: continue
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// A map literal of already quoted keys and values: `["k": "v"]`, `mapOf("k" to "v")`, `{ "k": "v" }`,
    /// `{{"k", "v"}}` (a `std::map` initializer).
    func mapLiteral(_ pairs: [(key: String, value: String)]) -> String {
        switch self {
        case .swift: pairs.isEmpty ? "[:]" : "[" + pairs.map { "\($0.key): \($0.value)" }.joined(separator: ", ") + "]"
        case .kotlin: "mapOf(" + pairs.map { "\($0.key) to \($0.value)" }.joined(separator: ", ") + ")"
        case .javascript: pairs.isEmpty ? "{}" : "{ " + pairs.map { "\($0.key): \($0.value)" }.joined(separator: ", ") + " }"
        case .cpp: "{" + pairs.map { "{\($0.key), \($0.value)}" }.joined(separator: ", ") + "}"
        }
    }
}
