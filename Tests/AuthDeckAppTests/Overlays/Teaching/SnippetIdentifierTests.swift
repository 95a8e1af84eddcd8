@testable import AuthDeckApp
import Testing

/// The API names a snippet uses, by a deliberately simple rule. In a template with its
/// `{placeholders}`, string literals and `//` comments removed, a word is an API name when it
/// follows `.` or `::` (or `->` in C++), comes right before `(`, or starts with an upper-case
/// letter. Not counted: the language's keywords, and names the snippet declares, which are
/// words right after another word that is not a keyword (`let nonce`, `val options`,
/// `Credential credential`) or after a declaring keyword (`let`, `val`, `const`, `auto`, `int`, ...),
/// and in C++ words after `>`, `*` or `&` that are followed by `(`, `=`, `;` or `{`.
enum SnippetIdentifiers {
    static let keywords: [SDKPlatform: Set<String>] = [
        .swift: ["let", "var", "func", "if", "guard", "else", "try", "await", "return", "throw", "throws", "catch",
                 "as", "is", "where", "import", "in", "do", "for", "while", "case", "default", "self", "true", "false",
                 "nil", "async"],
        .kotlin: ["val", "var", "fun", "if", "else", "is", "as", "in", "return", "object", "override", "when", "try",
                  "catch", "true", "false", "null", "this", "import"],
        .javascript: ["const", "let", "var", "function", "if", "else", "return", "await", "async", "new", "import",
                      "from", "export", "try", "catch", "throw", "typeof", "of", "in", "true", "false", "null",
                      "undefined"],
        .cpp: ["auto", "const", "int", "bool", "void", "char", "for", "if", "else", "return", "nullptr", "new",
               "delete", "true", "false", "this", "static", "unsigned"],
    ]
    static let declaring: Set<String> = ["let", "var", "val", "const", "auto", "func", "fun", "function", "int",
                                         "bool", "void", "char", "class", "struct", "enum"]

    static func names(in template: String, on platform: SDKPlatform) -> Set<String> {
        let code = stripped(template)
        let keywords = keywords[platform] ?? []
        let tokens = tokenize(code)
        var declared: Set<String> = []
        var candidates: [String] = []
        for (index, token) in tokens.enumerated() where isWord(token.text) {
            let previous = index > 0 ? tokens[index - 1].text : ""
            let next = token.next
            if isWord(previous), declaring.contains(previous) || !keywords.contains(previous) {
                declared.insert(token.text)
                continue
            }
            if platform == .cpp, ["&", "*", ">"].contains(previous), ["(", "=", ";", "{"].contains(token.nextNonSpace) {
                declared.insert(token.text)
                continue
            }
            if keywords.contains(token.text) { continue }
            let member = previous == "." || previous == "::" || (platform == .cpp && previous == "->")
            if member || next == "(" || token.text.first!.isUppercase {
                candidates.append(token.text)
            }
        }
        return Set(candidates).subtracting(declared)
    }

    /// The template without placeholders, string literals and line comments, each replaced by a space.
    static func stripped(_ template: String) -> String {
        var out = ""
        var characters = Substring(template.replacingPlaceholders())
        while let character = characters.first {
            if character == "\"" || character == "`" {
                characters = characters.dropFirst()
                var escaped = false
                while let inner = characters.popFirst() {
                    if escaped { escaped = false } else if inner == "\\" { escaped = true } else if inner == character { break }
                }
                out += " "
            } else if characters.hasPrefix("//") {
                characters = characters.drop { $0 != "\n" }
            } else {
                out.append(character)
                characters = characters.dropFirst()
            }
        }
        return out
    }

    struct Token {
        var text: String
        /// The character right after the token, and the first one after any spaces.
        var next: Character?
        var nextNonSpace: Character?
    }

    /// Words (letters, digits, `_`), `::` and `->`, and single other characters; spaces separate.
    static func tokenize(_ code: String) -> [Token] {
        let characters = Array(code)
        var tokens: [Token] = []
        var index = 0
        while index < characters.count {
            let character = characters[index]
            var end = index + 1
            if CodeWrap.isIdentifierCharacter(character) {
                while end < characters.count, CodeWrap.isIdentifierCharacter(characters[end]) { end += 1 }
            } else if end < characters.count, [":", "-"].contains(character),
                      characters[end] == (character == ":" ? ":" : ">") {
                end += 1
            } else if character.isWhitespace {
                index = end
                continue
            }
            let next = end < characters.count ? characters[end] : nil
            let nextNonSpace = characters[end...].first { !$0.isWhitespace }
            tokens.append(Token(text: String(characters[index..<end]), next: next, nextNonSpace: nextNonSpace))
            index = end
        }
        return tokens
    }

    /// A word that can name something: a letter or `_` first (so `60L` and `0` are not words).
    static func isWord(_ text: String) -> Bool {
        guard let first = text.first else { return false }
        return (first.isLetter || first == "_") && text.allSatisfy(CodeWrap.isIdentifierCharacter)
    }
}

private extension String {
    func replacingPlaceholders() -> String {
        var text = self
        for name in Snippet.placeholders(in: self) {
            text = text.replacing("{\(name)}", with: " ")
        }
        return text
    }
}

@Suite("Snippets name only SDK identifiers from their platform's checked list")
struct SnippetIdentifierTests {
    @Test func everySnippetNamesOnlyListedIdentifiers() {
        for (kind, set) in TeachingCatalogue.snippets {
            for platform in SDKPlatform.allCases {
                let unknown = SnippetIdentifiers.names(in: set[platform].template, on: platform)
                    .subtracting(SDKIdentifiers.list(for: platform).all)
                #expect(unknown.isEmpty, "\(kind) on \(platform): \(unknown.sorted())")
            }
        }
    }

    @Test func everyListedIdentifierIsUsed() {
        for platform in SDKPlatform.allCases {
            let used = TeachingCatalogue.snippets.values.reduce(into: Set<String>()) {
                $0.formUnion(SnippetIdentifiers.names(in: $1[platform].template, on: platform))
            }
            let list = SDKIdentifiers.list(for: platform)
            let unused = list.firebase.union(list.platform).subtracting(used)
            #expect(unused.isEmpty, "\(platform): \(unused.sorted())")
        }
    }

    @Test func aTypoIsCaught() {
        let names = SnippetIdentifiers.names(in: "let r = try await Auth.auth().signInAnonymusly()", on: .swift)
        #expect(names == ["Auth", "auth", "signInAnonymusly"])
        #expect(names.subtracting(SDKIdentifiers.swift.all) == ["signInAnonymusly"])
    }

    @Test func literalsCommentsPlaceholdersAndDeclaredNamesAreNotChecked() {
        let kotlin = #"""
            val credential = Provider.getCredential("{email}", "x.notApi()")  // comment.call()
            credential.link(credential)
            """#
        #expect(SnippetIdentifiers.names(in: kotlin, on: .kotlin) == ["Provider", "getCredential", "link"])
        let cpp = #"""
            std::uniform_int_distribution<int> digit(0, 15);
            firebase::auth::FederatedOAuthProvider provider(data);
            auth->SignOut();
            """#
        #expect(SnippetIdentifiers.names(in: cpp, on: .cpp)
            == ["uniform_int_distribution", "auth", "FederatedOAuthProvider", "SignOut"])
    }
}
