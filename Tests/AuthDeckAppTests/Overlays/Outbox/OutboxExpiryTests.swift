import AppData
@testable import AuthDeckApp
import AuthClient
import Foundation
import IdentityTestSupport
import Logging
import Testing

/// The backend's outbox drops a message when its code is used and when it expires: the console
/// says which, by the expiry the backend gives and the client's clock, moved here by hand.
@Suite("The outbox after a code expired", .timeLimit(.minutes(3)))
struct OutboxExpiryTests {
    @Test(arguments: BackendTransport.allCases)
    func aMessageDroppedAtItsExpiryReadsExpiredAndOneUsedInTimeStaysUsed(_ transport: BackendTransport) async throws {
        let clock = TestClock()
        try await withTestBackend(transport, clock: clock.read) { served in
            let auth = Auth(backend: served.makeTransport(), clock: clock.read)
            let outbox = AuthEmulatorOutbox(backend: served.makeTransport(), projectId: served.backend.projectId)
            let runner = EffectRunner(auth: auth, cart: try CartStore(), outbox: outbox, logger: Logger(label: "test"), send: { _ in })
            _ = try await auth.createUser(email: "ada@example.com", password: "hunter22")
            try await auth.sendEmailVerification()
            try await auth.sendSignInLink(toEmail: "grace@example.com")
            let sent = try await Self.read(runner)
            let verify = try #require(sent.emails.first { $0.action == .verifyEmail })
            let link = try #require(sent.emails.first { $0.action == .signIn })
            #expect(sent.mark(verify) == nil && sent.mark(link) == nil)
            #expect(link.expiresAt == clock.now.addingTimeInterval(3600))

            // The verification used elsewhere (not opened by this console) within its hour.
            clock.advance(60)
            try await auth.applyActionCode(verify.oobCode)
            let used = try await Self.read(runner)
            #expect(used.mark(verify) == .used && used.mark(link) == nil)

            // The hour passes: the link's code expires and the backend drops it unused.
            clock.advance(3600)
            let later = try await Self.read(runner)
            #expect(later.mark(link) == .expired && later.mark(verify) == .used)
            #expect(later.emails.count == 2)
            #expect(OutboxScreen.emailDetail(link, in: later, remoteTerminal: true).contains("Expired: its code is no longer taken"))
        }
    }

    @Test func aTextIsJudgedOnceAtTheReadThatFoundItGone() {
        let t0 = Date(timeIntervalSince1970: 1_790_000_000)
        let text = Outbox.TextMessage(to: "+15555550100", code: "111111", verificationID: "s1", sentAt: t0, expiresAt: t0.addingTimeInterval(600))
        let early = Outbox.TextMessage(to: "+15555550101", code: "222222", verificationID: "s2", sentAt: t0, expiresAt: t0.addingTimeInterval(600))
        let history = OutboxHistory()
        _ = history.stamp(Outbox(texts: [text, early]), now: t0)
        // One code used before its ten minutes were up, the other dropped at their end.
        #expect(history.stamp(Outbox(texts: [text]), now: t0.addingTimeInterval(30)).mark(early) == .used)
        let after = history.stamp(Outbox(), now: t0.addingTimeInterval(600))
        #expect(after.mark(text) == .expired && after.mark(early) == .used)
    }

    private static func read(_ runner: EffectRunner) async throws -> Outbox {
        guard case let .verification(.outboxChanged(.success(outbox)))? = await runner.perform(.verification(.refreshOutbox)) else {
            throw OutboxProblem.noOutbox
        }
        return outbox
    }
}
