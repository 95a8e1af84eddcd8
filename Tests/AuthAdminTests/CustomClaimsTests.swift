import AuthAdmin
import Testing

/// Claims are JSON as RFC 8259 has it: what Foundation's parser would also take (a trailing comma) is refused.
@Suite struct CustomClaimsTests {
    @Test(arguments: [
        (#"{"admin": true,}"#, "a trailing comma before } at character 15, which JSON does not allow"),
        (#"{"roles": ["a", "b",]}"#, "a trailing comma before ] at character 20, which JSON does not allow"),
        (#"{"a": 1,,}"#, "expected a name in double quotes at character 9"),
        (#"{"a": 1 /* note */}"#, "expected , or } at character 9"),
        ("{\"a\": 1} // note", "more text after the JSON at character 10"),
        (#"{'a': 1}"#, "expected a name in double quotes at character 2"),
        (#"{a: 1}"#, "expected a name in double quotes at character 2"),
        (#"{"a" 1}"#, "expected : after the name at character 6"),
        (#"{"a": 01}"#, "a leading zero in a number at character 8"),
        (#"{"a": .5}"#, "expected a value at character 7"),
        (#"{"a": +1}"#, "expected a value at character 7"),
        (#"{"a": 1.}"#, "expected a digit after the decimal point at character 9"),
        (#"{"a": 1e}"#, "expected a digit in the exponent at character 9"),
        (#"{"a": -}"#, "expected a digit at character 8"),
        (#"{"a": NaN}"#, "expected a value at character 7"),
        (#"{"a": tru}"#, "expected a value at character 7"),
        ("{\"a\": \"x\ty\"}", "a control character in a string (escape it) at character 9"),
        (#"{"a": "\x"}"#, "not an escape JSON has at character 9"),
        (#"{"a": "\u12G4"}"#, #"expected four hex digits after \u at character 12"#),
        (#"{"a": "open"#, "the text ends before the JSON does"),
        (#"{"a": [1, 2"#, "the text ends before the JSON does"),
        ("\u{FEFF}{}", "expected a value at character 1"),
    ])
    func whatIsNotStrictJSONIsRefusedAndSaysWhere(_ text: String, _ reason: String) {
        #expect(throws: AuthAdminError.invalidClaims("not valid JSON: \(reason)")) { try CustomClaims.validated(text) }
    }

    @Test(arguments: [
        "{\n\t\"a\": [ ],\r\n \"b\": { } }",
        #"{"n": -0.5e+3, "m": 0, "k": 10E2, "z": null, "f": false, "t": true}"#,
        #"{"s": "\"\\\/\b\f\n\r\t\u00e9 é 😀"}"#,
        #"{"a": [[], [{}], {"b": [1, "2", null]}]}"#,
    ])
    func strictJSONIsTaken(_ text: String) throws {
        _ = try CustomClaims.validated(text)
    }

    @Test func theStoredFormIsCompact() throws {
        #expect(try CustomClaims.validated(#" {"admin" : true, "tier": "gold"} "#) == #"{"admin":true,"tier":"gold"}"#)
        #expect(try CustomClaims.validated("  ") == "{}")
    }

    @Test func nestingIsBounded() {
        let deep = String(repeating: "[", count: 600) + String(repeating: "]", count: 600)
        #expect(throws: AuthAdminError.invalidClaims("not valid JSON: nested more than 512 deep")) { try CustomClaims.validated(#"{"a": \#(deep)}"#) }
    }
}
