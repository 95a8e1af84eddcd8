import Foundation
import Testing
@testable import IdentityEmulator

@Suite struct HexadecimalTests {
    @Test func everyByteIsWrittenAsFoundationsFormatWritesIt() {
        let bytes = (0...255).map(UInt8.init)
        #expect(bytes.hexadecimal == bytes.map { String(format: "%02x", $0) }.joined())
        #expect([UInt8]().hexadecimal.isEmpty)
    }
}
