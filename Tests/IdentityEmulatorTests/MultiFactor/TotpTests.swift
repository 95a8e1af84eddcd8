import Foundation
import Testing
@testable import IdentityEmulator

@Suite struct TotpTests {
    /// RFC 6238 Appendix B, SHA1: the 20-byte ASCII secret "12345678901234567890", 8 digits.
    @Test(arguments: [
        (Int64(59), "94287082"), (1_111_111_109, "07081804"), (1_111_111_111, "14050471"),
        (1_234_567_890, "89005924"), (2_000_000_000, "69279037"), (20_000_000_000, "65353130"),
    ])
    func rfc6238TestVectors(time: Int64, expected: String) {
        #expect(Totp.code(secret: Data("12345678901234567890".utf8), at: time, digits: 8) == expected)
    }

    /// RFC 4226 Appendix D: HOTP values for counters 0…9, 6 digits.
    @Test func rfc4226HotpValues() {
        let expected = ["755224", "287082", "359152", "969429", "338314", "254676", "287922", "162583", "399871", "520489"]
        let secret = Data("12345678901234567890".utf8)
        #expect((0..<10).map { Totp.code(secret: secret, counter: UInt64($0)) } == expected)
    }

    @Test func theWindowAcceptsAdjacentIntervalsOnlyOnceAndInOrder() {
        let secret = Data("12345678901234567890".utf8)
        let now: Int64 = 1_111_111_111
        let current = Totp.code(secret: secret, at: now)
        let twoBack = Totp.code(secret: secret, at: now - 60)
        let threeAhead = Totp.code(secret: secret, at: now + 90)
        #expect(Totp.matchingStep(of: current, secret: secret, at: now, window: 1, after: nil) == now / 30)
        #expect(Totp.matchingStep(of: twoBack, secret: secret, at: now, window: 1, after: nil) == nil)
        #expect(Totp.matchingStep(of: twoBack, secret: secret, at: now, window: 2, after: nil) == now / 30 - 2)
        #expect(Totp.matchingStep(of: threeAhead, secret: secret, at: now, window: 2, after: nil) == nil)
        // A code already used (or an older one) is refused: RFC 6238 §5.2.
        #expect(Totp.matchingStep(of: current, secret: secret, at: now, window: 1, after: now / 30) == nil)
        #expect(Totp.matchingStep(of: "12345", secret: secret, at: now, window: 1, after: nil) == nil)
        #expect(Totp.matchingStep(of: "１２３４５６", secret: secret, at: now, window: 1, after: nil) == nil)
    }

    @Test func base32RoundTripsWithAnIndependentDecoder() {
        #expect(Base32.encode(Data("foobar".utf8)) == "MZXW6YTBOI")
        #expect(Base32.encode(Data("f".utf8)) == "MY")
        let random = SecureRandom.bytes(20)
        #expect(Base32.encode(random).count == 32)
        #expect(base32Decode(Base32.encode(random)) == random)
    }
}
