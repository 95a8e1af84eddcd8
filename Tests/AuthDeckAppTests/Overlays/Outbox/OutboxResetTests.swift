@testable import AuthClient
@testable import AuthDeckApp
import Foundation
import Testing

/// A message leaves the backend's outbox when its code is used, or when the presenter's reset empties
/// its project: only the first is marked used; the second goes from the list as from the project.
@Suite("The outbox after a reset of the demo")
struct OutboxResetTests {
    static let t0 = Date(timeIntervalSince1970: 1_790_000_000)
    static let visitor = "visitor-0123456789abcdef"
    static let used = Outbox.TextMessage(to: "+15555550100", code: "111111", verificationID: "s1", project: visitor)
    static let waiting = Outbox.TextMessage(to: "+15555550100", code: "222222", verificationID: "s2", project: visitor)
    static let verify = Outbox.Email(to: "ada@example.com", action: .verifyEmail, oobCode: "v1", link: "http://x/v1", project: visitor)
    static let own = Outbox.Email(to: "op@example.com", action: .verifyEmail, oobCode: "o1", link: "http://x/o1", project: "authdeck-local")

    @Test func aVisitorsMessagesGoneAfterAResetAreDroppedNotMarkedUsed() {
        let history = OutboxHistory()
        let visitor = { (_: String) in true }
        _ = history.stamp(Outbox(emails: [Self.verify], texts: [Self.waiting, Self.used]), now: Self.t0, resets: 0, emptiedByReset: visitor)
        // One code used before the reset: the backend dropped it, and it is marked used.
        let beforeReset = history.stamp(Outbox(emails: [Self.verify], texts: [Self.waiting]), now: Self.t0, resets: 0, emptiedByReset: visitor)
        #expect(beforeReset.mark(Self.used) == .used && beforeReset.mark(Self.waiting) == nil && beforeReset.count == 3)
        // The reset empties the project: nothing of it is listed, used or not.
        let afterReset = history.stamp(Outbox(project: Self.visitor), now: Self.t0, resets: 1, emptiedByReset: visitor)
        #expect(afterReset.emails.isEmpty && afterReset.texts.isEmpty && afterReset.gone.isEmpty)
        // A code sent after it is listed as any other, and marked used once used.
        let fresh = Outbox.TextMessage(to: "+15555550100", code: "333333", verificationID: "s3", project: Self.visitor)
        #expect(history.stamp(Outbox(texts: [fresh]), now: Self.t0, resets: 1, emptiedByReset: visitor).mark(fresh) == nil)
        #expect(history.stamp(Outbox(), now: Self.t0, resets: 1, emptiedByReset: visitor).mark(fresh) == .used)
    }

    @Test func aReadBeforeTheConsoleHeardOfTheResetIsPutRightByTheNext() {
        let history = OutboxHistory()
        _ = history.stamp(Outbox(texts: [Self.waiting]), now: Self.t0, resets: 0, emptiedByReset: { _ in true })
        // The project was emptied, the room's word not in yet: gone, as if used.
        #expect(history.stamp(Outbox(), now: Self.t0, resets: 0, emptiedByReset: { _ in true }).mark(Self.waiting) == .used)
        #expect(history.stamp(Outbox(), now: Self.t0, resets: 1, emptiedByReset: { _ in true }).texts.isEmpty)
    }

    @Test func anOperatorKeepsTheUsedMessagesOfTheServersOwnProject() {
        let history = OutboxHistory()
        let operatorRule = { (project: String) in project != "authdeck-local" }
        _ = history.stamp(Outbox(emails: [Self.own, Self.verify], project: "authdeck-local"), now: Self.t0, resets: 0, emptiedByReset: operatorRule)
        // The operator's own link used, and the visitors' projects reset, in one go.
        let after = history.stamp(Outbox(project: "authdeck-local"), now: Self.t0, resets: 1, emptiedByReset: operatorRule)
        #expect(after.emails == [Self.own] && after.mark(Self.own) == .used)
    }
}
