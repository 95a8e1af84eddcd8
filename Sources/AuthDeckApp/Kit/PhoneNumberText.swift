import AuthClient
import Foundation
import TerminalUI

/// Phone numbers as people type them and as E.164 wants them.
enum PhoneNumberText {
    /// `+1 (555) 555-0100` → `+15555550100`; nil unless it is `+`, then 7 to 15 digits not starting with 0.
    static func e164(_ raw: String) -> String? {
        let kept = raw.filter { !" -().".contains($0) }
        guard kept.first == "+" else { return nil }
        let digits = kept.dropFirst()
        guard (7...15).contains(digits.count), digits.allSatisfy({ $0.isASCII && $0.isNumber }), digits.first != "0" else { return nil }
        return kept
    }

    static let formatHint = "Use international format: + country code and number, e.g. +1 555 555 0100."

    /// What a number field says when its text is not a number in E.164 form.
    static let notE164 = "That is not a phone number in E.164 form. \(formatHint)"

    /// Under a phone number field, wherever one is asked for.
    static let entryHint = "International (E.164) format: +, country code, number, e.g. +1 555 555 0100. A code is texted to it."

    /// Keys a phone field takes: digits, `+`, and the separators people type.
    static func accepts(_ character: Character) -> Bool {
        (character.isASCII && character.isNumber) || "+ -().".contains(character)
    }

    /// All digits but the last four become `*`, as Firebase's sign-in hints show them (`+*******0100`): a
    /// number the backend masked and one masked here look the same.
    static func masked(_ phone: String) -> String {
        var remaining = 4
        return String(phone.reversed().map { character -> Character in
            guard character.isNumber else { return character }
            guard remaining > 0 else { return "*" }
            remaining -= 1
            return character
        }.reversed())
    }
}

/// Edits a field that takes only the characters `accepts` allows; letters stay free for commands.
/// Returns whether the key was the field's.
@discardableResult
func editRestricted(_ field: inout TextField, with key: Key, accepts: (Character) -> Bool) -> Bool {
    switch key {
    case let .character(character):
        guard accepts(character) else { return false }
        return field.handle(key)
    case let .paste(text):
        return field.handle(.paste(String(TextField.sanitizePaste(text).filter(accepts))))
    // Movement, deletion and the rest edit as in any field.
    default:
        return field.handle(key)
    }
}

/// A 6-digit code field.
func codeField() -> TextField { TextField(maxLength: 6) }

/// What every flow that texts a code does once it is sent: say where it went, and refresh the phone pane,
/// where the emulator's text shows.
func codeTexted(to phone: String) -> [FlowStep] {
    [.banner(Banner(.info, "A code was texted to \(phone); it shows in the phone pane (top right).")),
     .run(.verification(.refreshOutbox), busy: nil)]
}

func isDigit(_ character: Character) -> Bool { character.isASCII && character.isNumber }
