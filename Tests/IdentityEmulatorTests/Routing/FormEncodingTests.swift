import Foundation
import Testing
@testable import IdentityEmulator

@Suite struct FormEncodingTests {
    /// Pairs split at `&` and the first `=`, `+` and escapes decoded, a malformed escape kept as
    /// written, empty pairs skipped, text outside ASCII left whole.
    @Test func pairsAreSplitAndDecoded() {
        let items = FormEncoding.items("grant_type=refresh_token&&token=a=b&bad=%ZZ&spaced=x+y%21&flag&é=ü%20👩‍👩‍👧&=v")
        #expect(items.map(\.name) == ["grant_type", "token", "bad", "spaced", "flag", "é", ""])
        #expect(items.map(\.value) == ["refresh_token", "a=b", "%ZZ", "x y!", nil, "ü 👩‍👩‍👧", "v"])
    }

    @Test func nothingIsNoPairs() {
        #expect(FormEncoding.items("").isEmpty)
        #expect(FormEncoding.items("&&").isEmpty)
    }
}
