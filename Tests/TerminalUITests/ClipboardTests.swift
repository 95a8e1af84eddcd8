import Testing
@testable import TerminalUI

@Suite("The clipboard's control string: OSC 52 with the text's UTF-8 in base64")
struct ClipboardTests {
    @Test func base64AsRFC4648Says() {
        for (text, encoded) in [("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"), ("foob", "Zm9vYg=="), ("fooba", "Zm9vYmE="),
                                ("foobar", "Zm9vYmFy")] {
            #expect(Base64.encode(Array(text.utf8)) == encoded, "\(text)")
        }
        #expect(Base64.encode([0xFB, 0xFF, 0xBF]) == "+/+/")
    }

    @Test func theSequenceSetsTheClipboardToTheTextsUTF8() {
        #expect(Terminal.clipboardSequence("hé\n") == "\u{1B}]52;c;aMOpCg==\u{07}")
        // Nothing in the text can end the control string early: base64 has no BEL or ESC.
        let sequence = Terminal.clipboardSequence("\u{07}\u{1B}\\ end")
        #expect(sequence.dropFirst().dropLast().allSatisfy { $0 != "\u{07}" && $0 != "\u{1B}" })
    }
}
