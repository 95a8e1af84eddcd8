@testable import AuthClient
@testable import AuthDeckApp
import Foundation
import SnapshotTesting
import Testing

@Suite("The outbox shows when each message arrived and marks superseded codes")
struct OutboxTimesTests {
    static let t0 = Date(timeIntervalSince1970: 1_790_000_000)
    static let newerReset = Outbox.Email(to: "ada@example.com", action: .resetPassword, oobCode: "r2", link: "http://x/r2")
    static let olderReset = Outbox.Email(to: "ADA@example.com", action: .resetPassword, oobCode: "r1", link: "http://x/r1")
    static let verify = Outbox.Email(to: "ada@example.com", action: .verifyEmail, oobCode: "v1", link: "http://x/v1")
    static let newerCode = Outbox.TextMessage(to: "+15555550100", code: "222222", verificationID: "s2")
    static let olderCode = Outbox.TextMessage(to: "+15555550100", code: "111111", verificationID: "s1")
    static let otherNumber = Outbox.TextMessage(to: "+15555550199", code: "333333", verificationID: "s3")

    static let outbox = Outbox(emails: [newerReset, verify, olderReset], texts: [newerCode, otherNumber, olderCode])

    @Test func anOlderMessageOfTheSameKindToTheSameAddressIsSuperseded() {
        #expect(Self.outbox.isSuperseded(Self.olderReset))
        #expect(!Self.outbox.isSuperseded(Self.newerReset))
        #expect(!Self.outbox.isSuperseded(Self.verify))
        #expect(Self.outbox.isSuperseded(Self.olderCode))
        #expect(!Self.outbox.isSuperseded(Self.newerCode))
        #expect(!Self.outbox.isSuperseded(Self.otherNumber))
    }

    @Test func aMessageKeepsTheTimeItWasFirstReadAndGoneOnesAreForgotten() {
        let arrivals = OutboxArrivals()
        let first = arrivals.stamp(Outbox(emails: [Self.olderReset]), now: Self.t0)
        #expect(first.firstSeen == ["r1": Self.t0])
        let later = Self.t0.addingTimeInterval(65)
        let second = arrivals.stamp(Outbox(emails: [Self.newerReset, Self.olderReset], texts: [Self.newerCode]), now: later)
        #expect(second.firstSeen == ["r1": Self.t0, "r2": later, "s2": later])
        let third = arrivals.stamp(Outbox(emails: [Self.newerReset]), now: later.addingTimeInterval(5))
        #expect(third.firstSeen == ["r2": later])
    }

    @Test func theListShowsTimesAndMarks() {
        var model = Fixtures.signedIn(Fixtures.passwordUser())
        var outbox = Self.outbox
        for (index, key) in ["r2", "v1", "r1", "s2", "s3", "s1"].enumerated() {
            outbox.firstSeen[key] = Self.t0.addingTimeInterval(Double(-60 * index))
        }
        model.outbox = outbox
        model.overlay = .outbox(selection: 2)
        let text = render(model)
        assertSnapshot(of: text, as: .lines)
        #expect(text.contains("mail 14:13:20 ada@example.com"))
        #expect(text.contains("Reset your password (superseded)"))
        #expect(text.contains("code 111111 (superseded)"))
        #expect(text.contains("Superseded: a newer one went to the same address"))
    }
}
