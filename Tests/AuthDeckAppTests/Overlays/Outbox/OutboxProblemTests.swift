@testable import AuthClient
@testable import AuthDeckApp
import Testing

@Suite("The outbox says when it could not be read, and how to fix it")
struct OutboxProblemTests {
    static let refused = AuthEmulatorOutbox.ReadFailure(.administratorsOnly, AuthError(.internalError, serverMessage: "Request had invalid authentication credentials."))

    /// When the outbox cannot be read (401), the banner says why instead of pointing at an empty
    /// outbox, and that what was asked for was done: only reading the outbox is refused.
    @Test func theBannerThatPointsAtTheOutboxGivesWayToWhyItCannotBeRead() {
        var store = FlowStore(Fixtures.signedIn(Fixtures.passwordUser()))
        store.send(.key(.character("v")), effects: [.verification(.sendEmailVerification)]) { $0.busy = "Sending the verification email…" }
        store.send(.verification(.emailVerificationSent(.success("ada@example.com"))), effects: [.verification(.refreshOutbox)]) {
            $0.busy = nil
            $0.banner = Banner(.info, "A verification email to ada@example.com is in the outbox: press m and open it.")
        }
        let problem = OutboxProblem.unreadable(Self.refused)
        store.send(.verification(.outboxChanged(.failure(problem)))) {
            $0.outbox = Outbox(problem: problem)
            $0.banner = Banner(.info, "Done, but the outbox is for administrators here: start the console with AUTHDECK_ADMIN_TOKEN (m says more).",
                               detail: "Request had invalid authentication credentials.")
        }
        store.send(.key(.character("m")), effects: [.verification(.refreshOutbox)]) { $0.overlay = .outbox(selection: 0) }
        // Asked for by opening the outbox: why it cannot be read, and no code the refusal maps to.
        store.send(.verification(.outboxChanged(.failure(problem)))) {
            $0.banner = Banner(.error, "The outbox is for administrators here: start the console with AUTHDECK_ADMIN_TOKEN (m says more).",
                               detail: "Request had invalid authentication credentials.")
        }
        // Read again with the right token: the messages, and no problem.
        let outbox = Outbox(emails: [.init(to: "ada@example.com", action: .verifyEmail, oobCode: "o", link: "l")])
        store.send(.verification(.outboxChanged(.success(outbox)))) { $0.outbox = outbox }
    }

    @Test func eachProblemSaysHowToFixIt() {
        #expect(OutboxProblem.unreadable(Self.refused).sentence.contains("start the console with AUTHDECK_ADMIN_TOKEN"))
        let project = AuthEmulatorOutbox.ReadFailure(.unknownProject("demo-y"), AuthError(.internalError))
        #expect(OutboxProblem.unreadable(project).sentence.contains("no project demo-y: start the console with --project"))
        let down = AuthEmulatorOutbox.ReadFailure(.failed, AuthError(.networkError))
        #expect(OutboxProblem.unreadable(down).sentence.contains("Press r to try again."))
    }
}
