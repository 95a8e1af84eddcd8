import TerminalUI

/// Wraps a line of code to a width only where the four languages all allow a line break, so that
/// what the pane draws is still the code: after `(`, `[`, `{` and `,`, after an assignment's `=`, and
/// before a member access's `.`; never inside a string literal or an identifier. A `//` comment
/// too long for its row goes on rows of its own, each starting with `//`. Continuation rows of
/// code are indented four cells past the line's own indentation. A token with no break around it
/// that is still wider than a row (a long typed value in a string literal) is left whole: its row
/// runs past the width, and the pane scrolls sideways to it.
enum CodeWrap {
    static func wrap(_ line: String, width: Int) -> [String] {
        guard width > 0 else { return [] }
        guard TextWidth.cells(line) > width else { return [line] }
        let leading = line.prefix { $0 == " " }.count
        let indent = String(repeating: " ", count: min(leading, width / 2))
        let body = String(line.dropFirst(leading))
        let (code, comment) = splitComment(body)
        var rows: [String] = []
        if !code.isEmpty {
            rows = wrapCode(code, indent: indent, width: width)
        }
        if let comment {
            // After code, the comment goes on with it when it fits, else it starts a row of its own.
            if let last = rows.last, TextWidth.cells(last) + 1 + TextWidth.cells(comment) <= width {
                rows[rows.count - 1] = last + " " + comment
            } else {
                rows += wrapComment(comment, indent: indent, width: width)
            }
        }
        return rows
    }

    /// The code before a `//` that is outside any string literal, without the spaces before the
    /// comment, and the comment itself.
    static func splitComment(_ text: String) -> (code: String, comment: String?) {
        var quote: Character?
        var escaped = false
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            if let open = quote {
                if escaped { escaped = false } else if character == "\\" { escaped = true } else if character == open { quote = nil }
            } else if character == "\"" || character == "`" || character == "'" {
                quote = character
            } else if character == "/", text[index...].hasPrefix("//") {
                var code = String(text[..<index])
                while code.last == " " { code.removeLast() }
                return (code, String(text[index...]))
            }
            index = text.index(after: index)
        }
        return (text, nil)
    }

    /// A comment's words on rows of at most `width`, each row a comment of its own.
    private static func wrapComment(_ comment: String, indent: String, width: Int) -> [String] {
        let words = comment.dropFirst(2).split(separator: " ", omittingEmptySubsequences: true)
        var rows: [String] = []
        var row = indent + "//"
        var hasWord = false
        for word in words {
            if hasWord, TextWidth.cells(row) + 1 + TextWidth.cells(String(word)) > width {
                rows.append(row)
                row = indent + "//"
            }
            row += " " + word
            hasWord = true
        }
        rows.append(row)
        return rows
    }

    private static func wrapCode(_ code: String, indent: String, width: Int) -> [String] {
        let continuation = String(repeating: " ", count: min(indent.count + 4, width / 2))
        var rows: [String] = []
        // The pieces of the row being filled, its indentation first.
        var row: [String] = [indent]
        func cells(_ pieces: ArraySlice<String>) -> Int { TextWidth.cells(pieces.joined().trimmingTrailingSpaces) }
        for piece in breakablePieces(code) {
            let text = row.count > 1 ? piece : String(piece.drop { $0 == " " })
            guard row.count > 1, cells(row[...]) + TextWidth.cells(text.trimmingTrailingSpaces) > width else {
                row.append(text)
                continue
            }
            // Rather than cut a member chain, go back to the row's last bracket or comma when what follows it fits.
            let strong = { (text: String) in text.last.map { "([{,=".contains($0) } ?? false }
            let moved = strong(row[row.count - 1]) ? row.count : (2..<row.count).last { index in
                strong(row[index - 1]) && continuation.count + cells(row[index...]) + TextWidth.cells(piece.trimmingTrailingSpaces) <= width
            } ?? row.count
            rows.append(row[..<moved].joined().trimmingTrailingSpaces)
            let carried = row[moved...].enumerated().map { $0.offset == 0 ? String($0.element.drop { $0 == " " }) : $0.element }
            row = [continuation] + carried + [carried.isEmpty ? String(piece.drop { $0 == " " }) : piece]
        }
        if row.count > 1 { rows.append(row.joined().trimmingTrailingSpaces) }
        return rows
    }

    /// The code cut at every point where a line break is allowed: the pieces, joined, are the code.
    static func breakablePieces(_ code: String) -> [String] {
        let tokens = tokens(code)
        var pieces: [String] = []
        var piece = ""
        for (index, token) in tokens.enumerated() {
            let previous = index > 0 ? tokens[index - 1] : ""
            let next = index + 1 < tokens.count ? tokens[index + 1] : ""
            // Before a member access: `.signIn(` may start a row when something it belongs to ends the last.
            if token.hasPrefix("."), token.count > 1, let last = previous.last, !piece.isEmpty,
               isIdentifierCharacter(last) || ")]!".contains(last), !(previous.allSatisfy(\.isNumber)) {
                pieces.append(piece)
                piece = ""
            }
            piece += token
            // After an opening bracket or a comma, and after an assignment's lone `=`.
            let opens = token.last.map { "([{,".contains($0) } ?? false
            let assigns = token == "=" && previous == " " && next == " "
            if opens || assigns {
                pieces.append(piece)
                piece = ""
            }
        }
        if !piece.isEmpty { pieces.append(piece) }
        return pieces
    }

    /// Identifier runs (with a member access's leading dot), space runs, string literals whole,
    /// and single other characters; closing punctuation joins the token before it, so that a row
    /// never starts with `;` or `)`.
    static func tokens(_ text: String) -> [String] {
        var tokens: [String] = []
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            var end = text.index(after: index)
            if isIdentifierCharacter(character) || (character == "." && end < text.endIndex && isIdentifierCharacter(text[end])) {
                while end < text.endIndex, isIdentifierCharacter(text[end]) { end = text.index(after: end) }
            } else if character == " " {
                while end < text.endIndex, text[end] == " " { end = text.index(after: end) }
            } else if character == "\"" || character == "`" || character == "'" {
                var escaped = false
                while end < text.endIndex {
                    let next = text[end]
                    end = text.index(after: end)
                    if escaped { escaped = false } else if next == "\\" { escaped = true } else if next == character { break }
                }
            }
            if ";,)]}".contains(character), let last = tokens.last, last.last != " " {
                tokens[tokens.count - 1] = last + String(text[index..<end])
            } else {
                tokens.append(String(text[index..<end]))
            }
            index = end
        }
        return tokens
    }

    static func isIdentifierCharacter(_ character: Character) -> Bool {
        character == "_" || character.isLetter || character.isNumber
    }
}

private extension String {
    var trimmingTrailingSpaces: String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}
