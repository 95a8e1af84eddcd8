import CCurses

/// One result of curses' `wgetch`.
public enum RawInput: Sendable, Hashable {
    /// A curses key code such as KEY_UP (the terminal sent a sequence terminfo knows).
    case keyCode(Int32)
    /// One byte of input, in UTF-8 or not: the decoder assembles characters itself, so an
    /// invalid byte becomes a replacement character instead of vanishing inside curses.
    case byte(UInt8)
}

/// Turns `wgetch` results into `Key`s, one result at a time, so decoding is tested without
/// a terminal. Curses decodes the keys terminfo knows; this assembles what it does not:
/// UTF-8 (an invalid or cut-off sequence is one U+FFFD per maximal invalid part, as Unicode
/// recommends), a lone escape (decided on `flush`, when input pauses), bracketed paste, whose
/// `ESC [ 2 0 0 ~` … `ESC [ 2 0 1 ~` markers arrive as plain characters, and the sequences a
/// terminal or a paste may send unasked, which are swallowed whole: an escape followed at once
/// by a character (Alt with that key: nothing here binds it), control sequences, and control
/// strings (DCS, OSC, SOS, PM, APC) up to their terminator.
public struct KeyDecoder: Sendable {
    /// Pasted text beyond this many UTF-8 bytes is dropped: nothing here needs more, and a
    /// runaway paste must not grow memory without bound.
    public static let pasteLimit = 64 * 1024

    private enum State: Sendable {
        case ground
        /// Saw ESC: an escape key, or the start of a sequence.
        case escape
        /// Inside `ESC [`, holding the parameter and intermediate bytes so far (at most 16).
        case controlSequence(String)
        /// Saw `ESC O`: one more character ends it.
        case singleShift
        /// Inside a control string (`ESC P`, `ESC ]`, `ESC X`, `ESC ^`, `ESC _`); `sawEscape`
        /// when its last character was ESC, perhaps the start of the terminator `ESC \`.
        case controlString(sawEscape: Bool)
        case pasting
        /// Inside a paste, saw ESC and then these characters: perhaps the end marker.
        case pastingEscape(String)
    }

    private static let pasteStart = "200~"
    private static let pasteEnd = "[201~"

    private var state = State.ground
    private var pasted = ""
    private var pastedBytes = 0
    private var utf8 = UTF8Assembler()

    public init() {}

    /// True between the start and end markers of a paste.
    public var isPasting: Bool {
        switch state {
        case .pasting, .pastingEscape: true
        case .ground, .escape, .controlSequence, .singleShift, .controlString: false
        }
    }

    /// True while a paste or a control string is open: its end may come in a later read, so
    /// the loop waits for it, but not for ever (`inputStalled`).
    public var awaitsMore: Bool {
        switch state {
        case .pasting, .pastingEscape, .controlString: true
        case .ground, .escape, .controlSequence, .singleShift: false
        }
    }

    public mutating func feed(_ input: RawInput) -> [Key] {
        switch input {
        case let .byte(byte):
            return utf8.feed(byte).flatMap { feed(scalar: $0) }
        case let .keyCode(code):
            // A key in the middle of a character: the bytes so far were not one.
            let cut = utf8.flush()
            return cut.isEmpty ? feed(keyCode: code) : cut.flatMap { feed(scalar: $0) } + feed(keyCode: code)
        }
    }

    private mutating func feed(keyCode code: Int32) -> [Key] {
        switch state {
        case .ground:
            return Self.decode(keyCode: code).map { [$0] } ?? []
        case .escape:
            state = .ground
            return [.escape] + feed(keyCode: code)
        case .controlSequence, .singleShift:
            state = .ground
            return feed(keyCode: code)
        case .controlString, .pasting, .pastingEscape:
            return []  // curses' reading of bytes inside a string or a paste as a key: not a key press
        }
    }

    private mutating func feed(scalar code: UInt32) -> [Key] {
        switch state {
        case .ground:
            if code == 27 {
                state = .escape
                return []
            }
            return Self.decode(character: code).map { [$0] } ?? []

        case .escape:
            switch code {
            case 0x5B:  // "["
                state = .controlSequence("")
            case 0x4F:  // "O"
                state = .singleShift
            case 0x50, 0x5D, 0x58, 0x5E, 0x5F:  // P ] X ^ _
                state = .controlString(sawEscape: false)
            case 27:
                // Escape pressed twice: the first is a key; the second may start anything.
                return [.escape]
            case 0..<0x20:
                // ESC then a control key (enter, ctrl-c): the escape key, then that key.
                state = .ground
                return [.escape] + feed(scalar: code)
            default:
                // ESC and a character within the escape delay: Alt with that key, which nothing
                // binds. Never the character alone, or ESC q would quit.
                state = .ground
            }
            return []

        case .controlSequence(let body):
            switch code {
            case 0x20...0x3F:
                // Parameter and intermediate bytes; beyond 16 the rest is swallowed unkept.
                if body.count < 16 { state = .controlSequence(body + String(UnicodeScalar(UInt8(code)))) }
                return []
            case 0x40...0x7E:
                let sequence = body + String(UnicodeScalar(UInt8(code)))
                state = .ground
                if sequence == Self.pasteStart {
                    state = .pasting
                    pasted = ""
                    pastedBytes = 0
                    return []
                }
                // A sequence curses did not know: never type it into a field.
                return Self.cursorKey(final: code, parameters: body).map { [$0] } ?? []
            default:
                state = .ground
                return feed(scalar: code)
            }

        case .singleShift:
            state = .ground
            return (0x40...0x7E).contains(code) ? Self.cursorKey(final: code, parameters: "").map { [$0] } ?? [] : feed(scalar: code)

        case .controlString(let sawEscape):
            // BEL ends an OSC in xterm's dialect; ST (ESC \) ends every control string.
            if code == 7 || (sawEscape && code == 0x5C) {
                state = .ground
            } else {
                state = .controlString(sawEscape: code == 27)
            }
            return []

        case .pasting:
            if code == 27 {
                state = .pastingEscape("")
            } else {
                appendToPaste(code)
            }
            return []

        case .pastingEscape(let seen):
            let candidate = seen + String(Character(UnicodeScalar(code) ?? "\u{FFFD}"))
            if candidate == Self.pasteEnd {
                return finishPaste()
            }
            if Self.pasteEnd.hasPrefix(candidate) {
                state = .pastingEscape(candidate)
                return []
            }
            // Not the end marker: what we held back was pasted content.
            appendToPaste(27)
            seen.unicodeScalars.forEach { appendToPaste($0.value) }
            state = .pasting
            return feed(scalar: code)
        }
    }

    /// Input has paused: an ESC still pending was the escape key (curses has already waited
    /// ESCDELAY for the rest of any sequence), a character cut off is a replacement character,
    /// and a sequence cut off is dropped. A paste or a control string in progress is left open;
    /// it may continue in the next read.
    public mutating func flush() -> [Key] {
        let pending = utf8.flush().flatMap { feed(scalar: $0) }
        switch state {
        case .escape:
            state = .ground
            return pending + [.escape]
        case .controlSequence, .singleShift:
            state = .ground
            return pending
        case .ground, .controlString, .pasting, .pastingEscape:
            return pending
        }
    }

    /// The rest of an open paste or control string has not come (the loop gave up waiting):
    /// the paste ends with what arrived, the control string is dropped.
    public mutating func inputStalled() -> [Key] {
        if case .controlString = state {
            state = .ground
            return []
        }
        return finishPaste()
    }

    /// Ends a paste now: the end marker came, or never will (the loop gives up after a pause).
    public mutating func finishPaste() -> [Key] {
        guard isPasting else { return [] }
        let text = pasted
        state = .ground
        pasted = ""
        pastedBytes = 0
        return [.paste(text)]
    }

    private mutating func appendToPaste(_ code: UInt32) {
        guard let scalar = UnicodeScalar(code) else { return }
        let bytes = String(scalar).utf8.count
        guard pastedBytes + bytes <= Self.pasteLimit else { return }
        pasted.unicodeScalars.append(scalar)
        pastedBytes += bytes
    }

    /// The cursor keys in their ANSI spellings (`ESC [ A`, `ESC O A`), for a terminal whose
    /// terminfo entry names the other spelling; modified ones (`ESC [ 1 ; 5 A`) are not bound.
    static func cursorKey(final code: UInt32, parameters: String) -> Key? {
        guard parameters.isEmpty else { return nil }
        switch code {
        case 0x41: return .up
        case 0x42: return .down
        case 0x43: return .right
        case 0x44: return .left
        case 0x48: return .home
        case 0x46: return .end
        default: return nil
        }
    }

    static func decode(character code: UInt32) -> Key? {
        switch code {
        case 9: return .tab
        case 10, 13: return .enter
        case 8, 127: return .backspace
        case 0: return .control("@")
        case 1...26: return .control(Character(UnicodeScalar(UInt8(code) + 0x60)))  // 1 → "a"
        case 28...31: return .control(Character(UnicodeScalar(UInt8(code) + 0x40)))  // 28 → "\"
        case 0x80..<0xA0: return nil  // C1 controls
        default: return UnicodeScalar(code).map { .character(Character($0)) }
        }
    }

    static func decode(keyCode code: Int32) -> Key? {
        switch code {
        case KEY_UP: return .up
        case KEY_DOWN: return .down
        case KEY_LEFT: return .left
        case KEY_RIGHT: return .right
        case KEY_HOME: return .home
        case KEY_END: return .end
        case KEY_PPAGE: return .pageUp
        case KEY_NPAGE: return .pageDown
        case KEY_BACKSPACE: return .backspace
        case KEY_DC: return .delete
        case KEY_ENTER: return .enter
        case KEY_BTAB: return .backTab
        case (KEY_F0 + 1)...(KEY_F0 + 63): return .function(Int(code - KEY_F0))
        default: return nil
        }
    }
}

/// Assembles UTF-8 one byte at a time. A byte that cannot continue the sequence so far ends
/// it: the bytes before it become one U+FFFD (the "maximal subpart" rule Swift's own decoding
/// follows) and the byte starts over.
struct UTF8Assembler: Sendable {
    private var pending: [UInt8] = []
    private var expected = 0

    static let replacement: UInt32 = 0xFFFD

    mutating func feed(_ byte: UInt8) -> [UInt32] {
        if pending.isEmpty { return start(byte) }
        guard continues(with: byte) else {
            pending = []
            return [Self.replacement] + start(byte)
        }
        pending.append(byte)
        guard pending.count == expected else { return [] }
        defer { pending = [] }
        var scalar = UInt32(pending[0]) & (0xFF >> (expected + 1))
        for continuation in pending.dropFirst() { scalar = scalar << 6 | UInt32(continuation & 0x3F) }
        return [scalar]
    }

    /// Input paused or a key came: a sequence still open was cut off.
    mutating func flush() -> [UInt32] {
        guard !pending.isEmpty else { return [] }
        pending = []
        return [Self.replacement]
    }

    private mutating func start(_ byte: UInt8) -> [UInt32] {
        switch byte {
        case 0x00...0x7F: return [UInt32(byte)]
        case 0xC2...0xDF: expected = 2
        case 0xE0...0xEF: expected = 3
        case 0xF0...0xF4: expected = 4
        default: return [Self.replacement]  // a stray continuation, C0/C1 (overlong) or F5–FF
        }
        pending = [byte]
        return []
    }

    /// The second byte's range excludes overlong forms, surrogates and code points past U+10FFFF.
    private func continues(with byte: UInt8) -> Bool {
        guard pending.count == 1 else { return (0x80...0xBF).contains(byte) }
        switch pending[0] {
        case 0xE0: return (0xA0...0xBF).contains(byte)
        case 0xED: return (0x80...0x9F).contains(byte)
        case 0xF0: return (0x90...0xBF).contains(byte)
        case 0xF4: return (0x80...0x8F).contains(byte)
        default: return (0x80...0xBF).contains(byte)
        }
    }
}
