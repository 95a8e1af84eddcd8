@testable import AuthClient
@testable import AuthDeckApp
import Foundation
import SnapshotTesting
import TerminalUI
import Testing

@Suite("The outbox shows when each message was sent and marks the ones not to open")
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

    @Test func aMessageKeepsTheTimeItWasFirstRead() {
        let arrivals = OutboxHistory()
        let first = arrivals.stamp(Outbox(emails: [Self.olderReset]), now: Self.t0)
        #expect(first.firstSeen == ["r1": Self.t0])
        let later = Self.t0.addingTimeInterval(65)
        let second = arrivals.stamp(Outbox(emails: [Self.newerReset, Self.olderReset], texts: [Self.newerCode]), now: later)
        #expect(second.firstSeen == ["r1": Self.t0, "r2": later, "s2": later])
    }

    @Test func aMessageTheBackendDropsOnceItsCodeIsUsedStaysListedAsUsed() {
        let history = OutboxHistory()
        _ = history.stamp(Outbox(emails: [Self.olderReset], texts: [Self.olderCode]), now: Self.t0)
        let later = Self.t0.addingTimeInterval(65)
        _ = history.stamp(Outbox(emails: [Self.newerReset, Self.olderReset], texts: [Self.newerCode, Self.olderCode]), now: later)
        // The newer reset link and the newer code were used: the backend no longer holds them.
        let afterUse = history.stamp(Outbox(emails: [Self.olderReset], texts: [Self.olderCode]), now: later.addingTimeInterval(5))
        #expect(afterUse == Outbox(emails: [Self.newerReset, Self.olderReset], texts: [Self.newerCode, Self.olderCode],
                                   firstSeen: ["r1": Self.t0, "s1": Self.t0, "r2": later, "s2": later], gone: ["r2", "s2"]))
        #expect(afterUse.mark(Self.newerReset) == .used)
        #expect(afterUse.mark(Self.newerCode) == .used)
        // The older ones are still not the ones to use.
        #expect(afterUse.mark(Self.olderReset) == .superseded)
        #expect(afterUse.mark(Self.olderCode) == .superseded)
    }

    @Test func anEmailThisConsoleOpenedOrTheBackendRefusedIsMarked() {
        let history = OutboxHistory()
        history.opened(Self.verify)
        history.refused(Self.olderReset)
        let stamped = history.stamp(Outbox(emails: [Self.newerReset, Self.verify, Self.olderReset]), now: Self.t0)
        #expect(stamped.mark(Self.verify) == .used)
        #expect(stamped.mark(Self.olderReset) == .noLongerWorks)
        #expect(stamped.mark(Self.newerReset) == nil)
        // Gone from the outbox, still listed with its mark.
        #expect(history.stamp(Outbox(emails: [Self.newerReset]), now: Self.t0).mark(Self.olderReset) == .noLongerWorks)
    }

    @Test func theSameAddressInTwoProjectsSupersedesNothing() {
        let alpha = Outbox.Email(to: "same@example.com", action: .verifyEmail, oobCode: "a1", link: "l", project: "room-alpha")
        let bravo = Outbox.Email(to: "same@example.com", action: .verifyEmail, oobCode: "b1", link: "l", project: "room-bravo")
        let outbox = Outbox(emails: [alpha, bravo], project: "authdeck-local")
        #expect(!outbox.isSuperseded(bravo))
        #expect(outbox.namesProjects)
    }

    @Test func sendingTimesProjectsAndLinksOverSSH() {
        var model = Fixtures.signedIn(Fixtures.passwordUser())
        let change = Outbox.Email(to: "bob.new@example.com", action: .verifyAndChangeEmail, oobCode: "oobChange123456", link: "http://127.0.0.1:36977/emulator/action?oobCode=x",
                                  account: "bob.b@example.com", project: "authdeck-local", sentAt: Self.t0)
        let theirs = Outbox.TextMessage(to: "+15555550101", code: "424242", verificationID: "s9", project: "visitor-0123456789abcdef",
                                        sentAt: Self.t0.addingTimeInterval(-90))
        model.outbox = Outbox(emails: [change], texts: [theirs], firstSeen: ["oobChange123456": Self.t0.addingTimeInterval(600)], project: "authdeck-local")
        model.overlay = .outbox(selection: 0)
        model.remoteTerminal = true
        model.overlay = .outbox(selection: 1)
        #expect(render(model).contains("To +15555550101 in visitor-0123456789abcdef"))
        model.overlay = .outbox(selection: 0)
        let text = render(model)
        assertSnapshot(of: text, as: .lines)
        // The time is when it was sent, not when this console read it; the address is where it went.
        #expect(text.contains("mail 14:13:20 bob.new@example.com"))
        #expect(text.contains("Confirm your new email"))
        #expect(text.contains("account of bob.b@example.com"))
        #expect(text.contains("here (code oobCha…)"))
        #expect(!text.contains("127.0.0.1"))
        #expect(!text.contains("times when first read"))
        model.remoteTerminal = false
        let local = render(model, size: Size(width: 160, height: 24))
        #expect(local.contains("http://127.0.0.1:36977/emulator/action"))
        #expect(!local.contains("enter opens it here"))
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
        #expect(text.contains("times when first read"))
        #expect(text.contains("Reset your password (superseded)"))
        #expect(text.contains("code 111111 (superseded)"))
        #expect(text.contains("Superseded: a newer one went to"))
    }

    @Test func usedMessagesAreListedAndMarked() {
        var model = Fixtures.signedIn(Fixtures.passwordUser())
        model.outbox = Outbox(emails: [Self.newerReset, Self.olderReset], texts: [Self.newerCode, Self.olderCode], gone: ["r2", "s2"])
        model.overlay = .outbox(selection: 2)
        let text = render(model)
        #expect(text.contains("Reset your password (used)"))
        #expect(text.contains("Reset your password (superseded)"))
        #expect(text.contains("code 222222 (used)"))
        #expect(text.contains("code 111111 (superseded)"))
        #expect(text.contains("Used: the backend no longer takes it."))
    }
}
