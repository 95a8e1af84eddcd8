/// One platform's code for a step, as a template whose `{name}` placeholders the step's values fill.
enum Snippet: Sendable, Hashable, ExpressibleByStringLiteral {
    case code(String)
    /// The SDK has no API for the step: why, and what a developer does instead (a comment, not code).
    case unavailable(String)

    init(stringLiteral template: String) {
        self = .code(template)
    }

    var template: String {
        switch self {
        case .code(let text), .unavailable(let text): text
        }
    }

    var isAvailable: Bool {
        if case .code = self { return true }
        return false
    }

    /// The template with each `{name}` replaced by the value `name` as `platform` writes it; a
    /// placeholder without a value stays as it is, where the catalogue's tests find it. A comment line
    /// that shows a value the run does not have yet (an empty one, before the step is taken) is left out.
    func filled(with values: [String: TeachingValue], for platform: SDKPlatform) -> String {
        template.split(separator: "\n", omittingEmptySubsequences: false).compactMap { line -> String? in
            let empty = Self.placeholders(in: String(line)).contains { values[$0]?.isEmpty == true }
            return empty && line.drop { $0 == " " }.hasPrefix("//") ? nil : Self.fill(line, with: values, for: platform)
        }.joined(separator: "\n")
    }

    private static func fill(_ line: Substring, with values: [String: TeachingValue], for platform: SDKPlatform) -> String {
        var out = ""
        var rest = line
        while let open = rest.firstIndex(of: "{") {
            out += rest[..<open]
            let afterOpen = rest.index(after: open)
            guard let close = rest[afterOpen...].firstIndex(where: { !Self.isNameCharacter($0) }), rest[close] == "}",
                  close > afterOpen, let value = values[String(rest[afterOpen..<close])] else {
                out.append("{")
                rest = rest[afterOpen...]
                continue
            }
            out += value.filling(for: platform)
            rest = rest[rest.index(after: close)...]
        }
        return out + rest
    }

    /// The placeholders' names in the template, in order.
    var placeholders: [String] {
        Self.placeholders(in: template)
    }

    /// Names written `{name}` (letters and digits, a letter first) in `text`.
    static func placeholders(in text: String) -> [String] {
        var names: [String] = []
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "{") {
            let afterOpen = rest.index(after: open)
            if let close = rest[afterOpen...].firstIndex(where: { !isNameCharacter($0) }), rest[close] == "}",
               close > afterOpen, rest[afterOpen].isLetter {
                names.append(String(rest[afterOpen..<close]))
            }
            rest = rest[afterOpen...]
        }
        return names
    }

    private static func isNameCharacter(_ character: Character) -> Bool {
        character.isASCII && (character.isLetter || character.isNumber)
    }
}

/// A step's snippets on the four platforms, with the step's title: one entry of a flow's file.
struct SnippetSet: Sendable {
    var title: String
    var swift: Snippet
    var kotlin: Snippet
    var javascript: Snippet
    var cpp: Snippet

    subscript(platform: SDKPlatform) -> Snippet {
        switch platform {
        case .swift: swift
        case .kotlin: kotlin
        case .javascript: javascript
        case .cpp: cpp
        }
    }
}
