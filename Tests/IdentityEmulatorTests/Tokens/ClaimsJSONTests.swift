import Foundation
import Testing
@testable import IdentityEmulator

/// The hand-written claims JSON reads back as the claims it was written from.
@Suite struct ClaimsJSONTests {
    private func parsed(_ data: Data) throws -> NSDictionary {
        try #require(try JSONSerialization.jsonObject(with: data) as? NSDictionary)
    }

    @Test func awkwardStringsRoundTrip() throws {
        let awkward = ["quote \" and \\ backslash", "line\nbreak\r\ttab", "bell \u{07} nul \u{00} unit \u{1F}", "slash / stays",
                       "naïve 日本語 🙂", "\u{2028}\u{2029}", ""]
        for value in awkward {
            let claims: [String: Any] = ["name": value, value: "as a key"]
            let data = try #require(ClaimsJSON.data(claims))
            let object = try parsed(data)
            #expect(object["name"] as? String == value)
            #expect(object[value] as? String == "as a key")
            #expect(!String(decoding: data, as: UTF8.self).contains("\\/"))
        }
    }

    @Test func theBackendsOwnClaimsRoundTripWithSortedKeys() throws {
        let claims: [String: Any] = [
            "sub": "abc", "iat": Int64(1_700_000_000), "email_verified": false, "count": 3,
            "firebase": ["identities": ["email": ["a@example.com"]], "sign_in_provider": "password"] as [String: Any],
            "roles": ["admin", "ops"],
        ]
        let data = try #require(ClaimsJSON.data(claims))
        let object = try parsed(data)
        #expect(object["sub"] as? String == "abc")
        #expect((object["iat"] as? NSNumber)?.int64Value == 1_700_000_000)
        #expect((object["firebase"] as? NSDictionary)?["sign_in_provider"] as? String == "password")
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.hasPrefix(#"{"count":3,"email_verified":false,"firebase":{"identities":{"email":["a@example.com"]}"#))
        #expect(text.contains(#""iat":1700000000,"roles":["admin","ops"],"sub":"abc"}"#))
    }

    /// A custom claim read by JSONSerialization (an NSNumber, NSNull) is left to JSONSerialization.
    @Test func otherValuesAreDeclined() throws {
        let custom = try #require(try JSONSerialization.jsonObject(with: Data(#"{"level":2.5,"none":null}"#.utf8)) as? [String: Any])
        #expect(ClaimsJSON.data(["sub": "abc", "level": custom["level"]!]) == nil)
        #expect(ClaimsJSON.data(["sub": "abc", "none": custom["none"]!]) == nil)
        #expect(ClaimsJSON.data(["nested": ["level": custom["level"]!] as [String: Any]]) == nil)
    }
}

@Suite struct SecureRandomTests {
    @Test func localIdsAreTwentyEightAlphanumericsAndDistinct() {
        let ids = (0..<2_000).map { _ in SecureRandom.localId() }
        #expect(Set(ids).count == ids.count)
        for id in ids {
            #expect(id.utf8.count == 28)
            #expect(id.unicodeScalars.allSatisfy { ("A"..."Z").contains($0) || ("a"..."z").contains($0) || ("0"..."9").contains($0) })
        }
        // Every character of the alphabet turns up in 56,000 draws (each missing with odds below 1e-300).
        #expect(Set(ids.joined()).count == 62)
    }

    @Test func bytesAreAsManyAsAskedAndVary() {
        #expect(SecureRandom.bytes(48).count == 48)
        #expect(SecureRandom.bytes(0).isEmpty)
        #expect(SecureRandom.bytes(16) != SecureRandom.bytes(16))
    }
}
