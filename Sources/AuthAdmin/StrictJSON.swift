/// JSON text checked against RFC 8259's grammar, and nothing else. Foundation's parser takes more
/// than JSON (a comma before `}` or `]`), so text a person typed is checked here before it is read.
enum StrictJSON {
    /// Why `text` is not one JSON value with optional whitespace around it, or nil when it is.
    /// Positions are counted in Unicode scalars from 1, as an editor's column would be.
    static func problem(in text: String) -> String? {
        var scanner = Scanner(scalars: Array(text.unicodeScalars))
        do throws(Failure) {
            scanner.skipWhitespace()
            try scanner.value(depth: 0)
            scanner.skipWhitespace()
            guard scanner.next == nil else { throw Failure("more text after the JSON at character \(scanner.index + 1)") }
            return nil
        } catch {
            return error.reason
        }
    }

    private struct Failure: Error {
        let reason: String
        init(_ reason: String) { self.reason = reason }
    }

    private struct Scanner {
        let scalars: [Unicode.Scalar]
        var index = 0

        /// Deeper than this, the text is refused rather than the stack risked.
        static let maximumDepth = 512

        var next: Unicode.Scalar? { index < scalars.count ? scalars[index] : nil }

        func failure(_ what: String) -> Failure {
            next == nil ? Failure("the text ends before the JSON does") : Failure("\(what) at character \(index + 1)")
        }

        mutating func skipWhitespace() {
            while let scalar = next, scalar == " " || scalar == "\t" || scalar == "\n" || scalar == "\r" { index += 1 }
        }

        mutating func expect(_ scalar: Unicode.Scalar, _ what: String) throws(Failure) {
            guard next == scalar else { throw failure(what) }
            index += 1
        }

        mutating func value(depth: Int) throws(Failure) {
            guard depth < Self.maximumDepth else { throw Failure("nested more than \(Self.maximumDepth) deep") }
            guard let scalar = next else { throw failure("") }
            switch scalar {
            case "{": try object(depth: depth + 1)
            case "[": try array(depth: depth + 1)
            case "\"": try string(expected: "expected a value")
            case "t": try literal("true")
            case "f": try literal("false")
            case "n": try literal("null")
            case "-", "0"..."9": try number()
            default: throw failure("expected a value")
            }
        }

        mutating func object(depth: Int) throws(Failure) {
            guard !opensEmpty(closedBy: "}") else { return }
            repeat {
                try string(expected: "expected a name in double quotes")
                skipWhitespace()
                try expect(":", "expected : after the name")
                skipWhitespace()
                try value(depth: depth)
            } while try another(before: "}")
        }

        mutating func array(depth: Int) throws(Failure) {
            guard !opensEmpty(closedBy: "]") else { return }
            repeat {
                try value(depth: depth)
            } while try another(before: "]")
        }

        /// Past the opening bracket: whether `close` follows at once (an empty object or array).
        mutating func opensEmpty(closedBy close: Unicode.Scalar) -> Bool {
            index += 1
            skipWhitespace()
            guard next == close else { return false }
            index += 1
            return true
        }

        /// After a member: true past a comma (another member follows), false past `close`.
        mutating func another(before close: Unicode.Scalar) throws(Failure) -> Bool {
            skipWhitespace()
            if next == close {
                index += 1
                return false
            }
            let comma = index
            try expect(",", "expected , or \(close)")
            skipWhitespace()
            guard next != close else { throw Failure("a trailing comma before \(close) at character \(comma + 1), which JSON does not allow") }
            return true
        }

        mutating func string(expected: String) throws(Failure) {
            try expect("\"", expected)
            while let scalar = next {
                index += 1
                switch scalar {
                case "\"": return
                case "\\":
                    guard let escaped = next else { throw failure("") }
                    switch escaped {
                    case "\"", "\\", "/", "b", "f", "n", "r", "t": index += 1
                    case "u":
                        index += 1
                        for _ in 0..<4 {
                            guard let digit = next, digit.properties.isASCIIHexDigit else { throw failure("expected four hex digits after \\u") }
                            index += 1
                        }
                    default: throw failure("not an escape JSON has")
                    }
                case "\u{0}"..."\u{1F}":
                    index -= 1
                    throw failure("a control character in a string (escape it)")
                default: break
                }
            }
            throw failure("")
        }

        mutating func literal(_ word: String) throws(Failure) {
            let start = index
            for scalar in word.unicodeScalars {
                guard next == scalar else {
                    index = start
                    throw failure("expected a value")
                }
                index += 1
            }
        }

        /// `-`? (`0` | a digit 1–9 then digits) (`.` digits)? (`e`|`E` `+`|`-`? digits)?
        mutating func number() throws(Failure) {
            if next == "-" { index += 1 }
            if next == "0" {
                index += 1
                guard !isDigit(next) else { throw failure("a leading zero in a number") }
            } else {
                try digits(after: "expected a digit")
            }
            if next == "." {
                index += 1
                try digits(after: "expected a digit after the decimal point")
            }
            if next == "e" || next == "E" {
                index += 1
                if next == "+" || next == "-" { index += 1 }
                try digits(after: "expected a digit in the exponent")
            }
        }

        /// One digit or more.
        mutating func digits(after what: String) throws(Failure) {
            guard isDigit(next) else { throw failure(what) }
            while isDigit(next) { index += 1 }
        }

        func isDigit(_ scalar: Unicode.Scalar?) -> Bool {
            scalar.map { ("0"..."9").contains($0) } ?? false
        }
    }
}
