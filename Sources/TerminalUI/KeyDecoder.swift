import CCurses

/// One result of curses' `wget_wch`.
public enum RawInput: Sendable, Hashable {
    /// `wget_wch` returned KEY_CODE_YES: a curses key code such as KEY_UP.
    case keyCode(Int32)
    /// `wget_wch` returned OK: a character's code point.
    case character(UInt32)
}

/// Turns `wget_wch` results into `Key`s, one result at a time, so decoding is tested without
/// a terminal. Curses decodes the keys terminfo knows; this assembles what it does not:
/// a lone escape (decided on `flush`, when input pauses) and bracketed paste, whose
/// `ESC [ 2 0 0 ~` … `ESC [ 2 0 1 ~` markers arrive as plain characters.
public struct KeyDecoder: Sendable {
    /// Pasted text beyond this many UTF-8 bytes is dropped: nothing here needs more, and a
    /// runaway paste must not grow memory without bound.
    public static let pasteLimit = 64 * 1024

    private enum State: Sendable {
        case ground
        /// Saw ESC: an escape key, or the start of a sequence.
        case escape
        /// Inside `ESC [`, holding the parameter and intermediate bytes so far.
        case controlSequence(String)
        case pasting
        /// Inside a paste, saw ESC and then these characters: perhaps the end marker.
        case pastingEscape(String)
    }

    private static let pasteStart = "200~"
    private static let pasteEnd = "[201~"

    private var state = State.ground
    private var pasted = ""
    private var pastedBytes = 0

    public init() {}

    /// True between the start and end markers of a paste.
    public var isPasting: Bool {
        switch state {
        case .pasting, .pastingEscape: true
        default: false
        }
    }

    public mutating func feed(_ input: RawInput) -> [Key] {
        switch (state, input) {
        case (.ground, .character(27)):
            state = .escape
            return []
        case (.ground, .character(let code)):
            return Self.decode(character: code).map { [$0] } ?? []
        case (.ground, .keyCode(let code)):
            return Self.decode(keyCode: code).map { [$0] } ?? []

        case (.escape, .character(0x5B)):  // "["
            state = .controlSequence("")
            return []
        case (.escape, _):
            // ESC then something else: the escape key, then that input on its own.
            state = .ground
            return [.escape] + feed(input)

        case (.controlSequence(let body), .character(let code)) where (0x20...0x3F).contains(code):
            // Parameter and intermediate bytes; a sequence this long is junk, drop it.
            state = body.count < 16 ? .controlSequence(body + String(UnicodeScalar(UInt8(code)))) : .ground
            return []
        case (.controlSequence(let body), .character(let code)) where (0x40...0x7E).contains(code):
            let sequence = body + String(UnicodeScalar(UInt8(code)))
            if sequence == Self.pasteStart {
                state = .pasting
                pasted = ""
                pastedBytes = 0
            } else {
                state = .ground  // a sequence curses did not know: never type it into a field
            }
            return []
        case (.controlSequence, _):
            state = .ground
            return feed(input)

        case (.pasting, .character(27)):
            state = .pastingEscape("")
            return []
        case (.pasting, .character(let code)):
            appendToPaste(code)
            return []
        case (.pasting, .keyCode):
            return []  // curses' reading of pasted bytes as a key: not text, drop it

        case (.pastingEscape(let seen), .character(let code)):
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
            return feed(input)
        case (.pastingEscape, .keyCode):
            return []
        }
    }

    /// Input has paused: an ESC still pending was the escape key (curses has already waited
    /// ESCDELAY for the rest of any sequence). A paste in progress is left open; it may
    /// continue in the next read.
    public mutating func flush() -> [Key] {
        switch state {
        case .escape:
            state = .ground
            return [.escape]
        case .controlSequence(let body):
            state = .ground
            return [.escape, .character("[")] + body.map { .character($0) }
        case .ground, .pasting, .pastingEscape:
            return []
        }
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
