import Foundation
import Testing
@testable import IdentityEmulator

/// The hand-written JSON must read back, through `JSONSerialization`, as exactly what was written.
struct JSONWriterTests {
    static let nastyStrings = [
        "", "plain", "quote \" and backslash \\ and slash /", "\\\"", "new\nline\r\ttab\u{08}\u{0C}",
        "\u{0}\u{1}\u{7}\u{1F} controls", "\u{7F} delete", "ünïcödé ✓ 漢字", "emoji 👩‍👩‍👧 and 🇩🇪", "\u{2028}\u{2029} separators",
"{\"json\":[1,2]}", "trailing backslash \\",
    ]

    @Test(arguments: nastyStrings)
    func stringsReadBackUnchanged(_ value: String) throws {
        var writer = JSONWriter()
        writer.beginObject()
        writer.field(value, value)
        writer.key("list")
        writer.beginArray()
        writer.string(value)
        writer.string(value)
        writer.endArray()
        writer.endObject()
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(writer.bytes)) as? [String: Any])
        #expect(parsed[value] as? String == value)
        #expect(parsed["list"] as? [String] == [value, value])
        #expect(parsed.count == 2)
    }

    @Test func everyControlCharacterIsEscaped() throws {
        let value = String(decoding: (0..<0x20).map { UInt8($0) }, as: UTF8.self)
        var writer = JSONWriter()
        writer.string(value)
        #expect(!writer.bytes.contains { $0 < 0x20 })
        #expect(try JSONSerialization.jsonObject(with: Data(writer.bytes), options: .fragmentsAllowed) as? String == value)
    }

    /// Everything from U+0020 up is written as its UTF-8, a byte-order mark too (Foundation's parser drops that one).
    @Test func nonControlCharactersStayUTF8() {
        let value = "\u{FEFF}é\u{7F}/\u{2028}👩‍👩‍👧"
        var writer = JSONWriter()
        writer.string(value)
        #expect(writer.bytes == [UInt8(ascii: "\"")] + Array(value.utf8) + [UInt8(ascii: "\"")])
    }

    @Test func nestingNumbersBooleansAndRawValues() throws {
        var writer = JSONWriter()
        writer.beginObject()
        writer.field("min", Int64.min)
        writer.field("max", Int64.max)
        writer.field("yes", true)
        writer.field("no", false)
        writer.field("absent", nil as String?)
        writer.key("raw")
        writer.raw(Array(#"{"a":[1,"b"]}"#.utf8))
        writer.key("empty")
        writer.beginObject()
        writer.endObject()
        writer.key("nested")
        writer.beginArray()
        writer.beginArray()
        writer.endArray()
        writer.beginObject()
        writer.field("x", 1)
        writer.endObject()
        writer.endArray()
        writer.endObject()
        #expect(String(decoding: writer.bytes, as: UTF8.self)
            == #"{"min":-9223372036854775808,"max":9223372036854775807,"yes":true,"no":false,"raw":{"a":[1,"b"]},"empty":{},"nested":[[],{"x":1}]}"#)
        #expect(try JSONSerialization.jsonObject(with: Data(writer.bytes)) is [String: Any])
    }
}

/// Base64url by table, against Foundation's base64 with the url alphabet and no padding.
struct Base64URLTests {
    @Test func matchesFoundationForEveryLengthAndByte() {
        var generator = SystemRandomNumberGenerator()
        for length in 0..<70 {
            let bytes = Data((0..<length).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
            let expected = bytes.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
                .replacingOccurrences(of: "=", with: "")
            #expect(bytes.base64URLEncodedString() == expected)
            #expect(Data(base64URLEncoded: expected) == bytes)
        }
        let all = Data(0...255)
        #expect(Data(base64URLEncoded: all.base64URLEncodedString()) == all)
        #expect(all.base64URLEncodedString().allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" })
    }

    @Test func refusesWhatIsNotBase64() {
        #expect(Data(base64URLEncoded: "a") == nil)
        #expect(Data(base64URLEncoded: "ab$d") == nil)
        #expect(Data(base64URLEncoded: "äbcd") == nil)
    }
}
