import TerminalUI

/// Wraps a line of code to a width at token boundaries: between identifiers, punctuation and
/// string literals, never inside an identifier (unless one alone is wider than the line).
/// Continuation rows are indented four cells past the line's own indentation.
enum CodeWrap {
    static func wrap(_ line: String, width: Int) -> [String] {
        guard width > 0 else { return [] }
        guard TextWidth.cells(line) > width else { return [line] }
        let leading = line.prefix { $0 == " " }.count
        let indent = String(repeating: " ", count: min(leading, width / 2))
        let continuation = String(repeating: " ", count: min(indent.count + 4, width / 2))
        var rows: [String] = []
        var row = indent
        var rowCells = indent.count
        var rowHasCode = false

        func flush() {
            while row.last == " " { row.removeLast() }
            rows.append(row)
            row = continuation
            rowCells = continuation.count
            rowHasCode = false
        }

        func place(_ token: String) {
            let cells = TextWidth.cells(token)
            if rowCells + cells > width, rowHasCode { flush() }
            // A continuation row never starts with the space that separated the tokens.
            if !rowHasCode, token.allSatisfy({ $0 == " " }), !rows.isEmpty { return }
            if rowCells + cells <= width {
                row += token
                rowCells += cells
                rowHasCode = true
                return
            }
            // Wider than a whole row: cut by glyph, the one case a cut is unavoidable.
            for glyph in TextWidth.glyphs(token) {
                if rowCells + glyph.width > width, rowHasCode { flush() }
                row += glyph.text
                rowCells += glyph.width
                rowHasCode = true
            }
        }

        for token in tokens(String(line.dropFirst(leading))) {
            // A literal or joined token too long for any row breaks between its own words and punctuation.
            if TextWidth.cells(token) > width - continuation.count {
                tokens(token, literalsWhole: false).forEach(place)
            } else {
                place(token)
            }
        }
        if rowHasCode { flush() }
        return rows
    }

    /// Identifier runs, space runs, string literals and single other characters. With `literalsWhole`
    /// (for wrapping), a literal is one token and closing punctuation joins the token before it.
    static func tokens(_ text: String, literalsWhole: Bool = true) -> [String] {
        var tokens: [String] = []
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            var end = text.index(after: index)
            // A member access breaks before its dot: `.enroll(` starts a row, `hint.` never ends one.
            if isIdentifierCharacter(character) || (literalsWhole && character == "." && end < text.endIndex
                                                     && isIdentifierCharacter(text[end])) {
                while end < text.endIndex, isIdentifierCharacter(text[end]) { end = text.index(after: end) }
            } else if character == " " {
                while end < text.endIndex, text[end] == " " { end = text.index(after: end) }
            } else if literalsWhole, character == "\"" || character == "`" {
                var escaped = false
                while end < text.endIndex {
                    let next = text[end]
                    end = text.index(after: end)
                    if escaped { escaped = false } else if next == "\\" { escaped = true } else if next == character { break }
                }
            }
            // Closing punctuation stays with what it closes: a row never starts with `;` or `)`.
            if literalsWhole, ";,)]}".contains(character), let last = tokens.last, last.last != " " {
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
