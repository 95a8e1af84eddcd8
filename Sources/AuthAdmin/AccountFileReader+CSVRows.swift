import Foundation

/// The CSV tokenizer: RFC 4180 rows, each with the line it starts on.
extension AccountFileReader {
    /// RFC 4180 rows with the line each starts on; quoted fields may hold commas, quotes and line breaks.
    public static func csvRows(_ text: String) -> [(line: Int, fields: [String])] {
        var rows: [(line: Int, fields: [String])] = []
        var fields: [String] = []
        var field = ""
        var quoted = false, afterQuote = false
        var line = 1, rowLine = 1
        var characters = text.makeIterator()
        while let character = characters.next() {
            if quoted {
                if character == "\"" { quoted = false; afterQuote = true } else {
                    if character == "\n" || character == "\r\n" { line += 1 }
                    field.append(character)
                }
                continue
            }
            switch character {
            case "\"":
                if afterQuote { field.append("\"") }
                quoted = true
                afterQuote = false
            case ",":
                fields.append(field); field = ""; afterQuote = false
            case "\n", "\r\n", "\r":
                fields.append(field); field = ""; afterQuote = false
                rows.append((rowLine, fields)); fields = []
                line += 1
                rowLine = line
            default:
                field.append(character); afterQuote = false
            }
        }
        if !field.isEmpty || !fields.isEmpty {
            fields.append(field)
            rows.append((rowLine, fields))
        }
        // firebase auth:export ends each row with a comma: a last empty column that is no column.
        return rows.map { row in
            var fields = row.fields
            if fields.count == 29, fields.last == "" { fields.removeLast() }
            return (row.line, fields)
        }
    }
}
