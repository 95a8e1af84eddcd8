import AuthClient
import Foundation
import Synchronization
import TerminalUI

/// The emulator's outboxes as the console shows them: newest first.
public struct Outbox: Equatable, Sendable {
    public typealias Email = AuthEmulatorOutbox.Email
    public typealias TextMessage = AuthEmulatorOutbox.TextMessage

    public var emails: [Email]
    public var texts: [TextMessage]
    /// Why the last read showed nothing: the box says so, and how to fix it.
    public var problem: OutboxProblem?
    /// When this console first read each message (by `oobCode` or verification ID), for a server that
    /// does not say when it sent them (the emulator).
    public var firstSeen: [String: Date]
    /// Codes of the emails this console opened, and of those the backend refused when it tried.
    public var opened: Set<String>
    public var refused: Set<String>
    /// Keys of messages this console read that the backend's outbox no longer holds, with no reset of
    /// their project since it did: their code was used, or (those in `expired`) it expired.
    public var gone: Set<String>
    /// Keys of the `gone` whose code had expired when the backend dropped them.
    public var expired: Set<String>
    /// The console's own project: a message of another (an operator reading every project's) is
    /// shown, not opened, since its code acts in that project.
    public var project: String

    public init(emails: [Email] = [], texts: [TextMessage] = [], problem: OutboxProblem? = nil, firstSeen: [String: Date] = [:],
                opened: Set<String> = [], refused: Set<String> = [], gone: Set<String> = [], expired: Set<String> = [], project: String = "") {
        self.emails = emails
        self.texts = texts
        self.problem = problem
        self.firstSeen = firstSeen
        self.opened = opened
        self.refused = refused
        self.gone = gone
        self.expired = expired
        self.project = project
    }

    /// What the console knows of an email beyond the outbox's word that it is unused.
    public enum Mark: Equatable, Sendable {
        /// A newer email of the same kind went to the same address in the same project: that one is the one to open.
        case superseded
        /// This console opened it, or its code was used (the backend no longer holds it).
        case used
        /// The backend dropped it unused when its code expired.
        case expired
        /// The backend refused its code when this console opened it.
        case noLongerWorks

        var label: String {
            switch self {
            case .superseded: "superseded"
            case .used: "used"
            case .expired: "expired"
            case .noLongerWorks: "no longer works"
            }
        }
    }

    public func mark(_ email: Email) -> Mark? {
        if refused.contains(email.oobCode) { return .noLongerWorks }
        if opened.contains(email.oobCode) { return .used }
        if gone.contains(email.oobCode) { return expired.contains(email.oobCode) ? .expired : .used }
        return isSuperseded(email) ? .superseded : nil
    }

    public func mark(_ text: TextMessage) -> Mark? {
        if gone.contains(text.verificationID) { return expired.contains(text.verificationID) ? .expired : .used }
        return isSuperseded(text) ? .superseded : nil
    }

    public func isSuperseded(_ email: Email) -> Bool {
        guard let index = emails.firstIndex(of: email) else { return false }
        return emails[..<index].contains { $0.action == email.action && $0.project == email.project && $0.to.lowercased() == email.to.lowercased() }
    }

    /// A newer code was texted to the same number in the same project.
    public func isSuperseded(_ text: TextMessage) -> Bool {
        guard let index = texts.firstIndex(of: text) else { return false }
        return texts[..<index].contains { $0.to == text.to && $0.project == text.project }
    }

    /// The text that carries the code of one verification.
    public func text(for verificationID: String) -> TextMessage? {
        texts.first { $0.verificationID == verificationID }
    }

    /// Whether the message is of another project than the console's own.
    func isElsewhere(project messageProject: String) -> Bool {
        !messageProject.isEmpty && !project.isEmpty && messageProject != project
    }

    /// Whether the list names each message's project: they come from more than one, or from another than the console's.
    var namesProjects: Bool {
        let projects = Set(emails.map(\.project) + texts.map(\.project))
        return projects.count > 1 || projects.contains { isElsewhere(project: $0) }
    }

    /// When a message was sent, if the server said, else when this console first read it.
    func time(sentAt: Date?, key: String) -> MessageTime? {
        if let sentAt { return MessageTime(date: sentAt, isSendingTime: true) }
        return firstSeen[key].map { MessageTime(date: $0, isSendingTime: false) }
    }

    /// Emails then texts, as the outbox overlay lists them.
    var count: Int { emails.count + texts.count }
}

/// A message's time: when the server sent it, or only when this console first read it.
struct MessageTime: Equatable {
    var date: Date
    var isSendingTime: Bool
}

/// What this console learnt of the outbox's messages over its reads: when each was first read, which
/// it opened, which the backend refused, and those the backend dropped once their code was used or expired.
/// A message also leaves the backend when the presenter's reset empties its project: that one was not
/// used, and goes from the list as it went from the project.
final class OutboxHistory: Sendable {
    private struct Record {
        var seen: [String: Date] = [:]
        var opened: Set<String> = []
        var refused: Set<String> = []
        /// Every message read so far, newest first: one the backend drops stays listed, marked used.
        var emails: [Outbox.Email] = []
        var texts: [Outbox.TextMessage] = []
        /// How many resets the room had told of when the backend last held each message.
        var heldAfterResets: [String: Int] = [:]
        /// Messages found gone at or after their expiry: judged once, at the read that found them gone,
        /// so that a code used in time does not read expired once its hour has passed.
        var expired: Set<String> = []
        var judged: Set<String> = []
    }

    private let record = Mutex(Record())

    /// `outbox` with the messages read before that it no longer holds (marked used, or expired where
    /// the backend said their code expired by `now`), the first-read time of each, and the marks of its emails. `resets`: how many resets of the demo the room has
    /// told this console of; `emptiedByReset`: whether a reset empties a message's project.
    func stamp(_ outbox: Outbox, now: Date, resets: Int = 0, emptiedByReset: (String) -> Bool = { _ in false }) -> Outbox {
        var stamped = outbox
        record.withLock { record in
            record.emails = Self.merge(outbox.emails, into: record.emails, key: \.oobCode)
            record.texts = Self.merge(outbox.texts, into: record.texts, key: \.verificationID)
            for key in record.emails.map(\.oobCode) + record.texts.map(\.verificationID) where record.seen[key] == nil {
                record.seen[key] = now
            }
            let held = Set(outbox.emails.map(\.oobCode) + outbox.texts.map(\.verificationID))
            for key in held { record.heldAfterResets[key] = resets }
            // Gone since a reset of its project: emptied with it, not used.
            let goneSinceReset = Set(record.heldAfterResets.filter { !held.contains($0.key) && $0.value < resets }.keys)
            record.emails.removeAll { goneSinceReset.contains($0.oobCode) && emptiedByReset($0.project) }
            record.texts.removeAll { goneSinceReset.contains($0.verificationID) && emptiedByReset($0.project) }
            stamped.emails = record.emails
            stamped.texts = record.texts
            stamped.gone = Set(record.emails.map(\.oobCode) + record.texts.map(\.verificationID)).subtracting(held)
            let expiries = record.emails.map { ($0.oobCode, $0.expiresAt) } + record.texts.map { ($0.verificationID, $0.expiresAt) }
            for (key, expiresAt) in expiries where stamped.gone.contains(key) && !record.judged.contains(key) {
                record.judged.insert(key)
                if let expiresAt, expiresAt <= now { record.expired.insert(key) }
            }
            stamped.expired = record.expired.intersection(stamped.gone)
            stamped.firstSeen = record.seen
            stamped.opened = record.opened
            stamped.refused = record.refused
        }
        return stamped
    }

    /// The read's messages (newest first) with those only read before kept in their place.
    private static func merge<Message>(_ read: [Message], into known: [Message], key: KeyPath<Message, String>) -> [Message] {
        let knownKeys = Set(known.map { $0[keyPath: key] })
        let fresh = read.filter { !knownKeys.contains($0[keyPath: key]) }
        let current = Dictionary(read.map { ($0[keyPath: key], $0) }, uniquingKeysWith: { first, _ in first })
        return fresh + known.map { current[$0[keyPath: key]] ?? $0 }
    }

    func opened(_ email: Outbox.Email) {
        record.withLock { _ = $0.opened.insert(email.oobCode) }
    }

    func refused(_ email: Outbox.Email) {
        record.withLock { _ = $0.refused.insert(email.oobCode) }
    }
}

/// Why the console could not read the outbox.
public enum OutboxProblem: Error, Equatable, Sendable {
    /// A real Firebase project: its emails and texts are really sent.
    case noOutbox
    case unreadable(AuthEmulatorOutbox.ReadFailure)

    /// What happened and how to fix it, in the outbox's box.
    var sentence: String {
        switch self {
        case .noOutbox:
            return "This backend has no outbox: a real Firebase project sends its emails and texts for real."
        case let .unreadable(failure):
            return "The outbox could not be read. " + Self.fix(failure)
        }
    }

    static func fix(_ failure: AuthEmulatorOutbox.ReadFailure) -> String {
        switch failure.reason {
        case .administratorsOnly:
            "This server shows its outbox to administrators only (authdeck serve --admin-token): start the console with AUTHDECK_ADMIN_TOKEN set to that token."
        case let .unknownProject(project):
            "The server has no project \(project): start the console with --project and the id it serves (authdeck serve prints it; the emulator takes it from GCLOUD_PROJECT)."
        case .failed:
            "\(failure.error.message) Press r to try again."
        }
    }

    /// Two lines at most: the outbox (m) has the whole sentence. `replacing`: the banner it takes
    /// the place of. When that one told of something done (a message sent, an email changed), it
    /// was done: only the outbox is out of reach, which is how the server is set up, not a failure.
    func banner(replacing previous: Banner?) -> Banner {
        let done = previous.map { $0.kind != .error } ?? false
        switch self {
        case .noOutbox:
            return Banner(.error, sentence)
        case let .unreadable(failure):
            let setUp = switch failure.reason {
            case .administratorsOnly: "the outbox is for administrators here: start the console with AUTHDECK_ADMIN_TOKEN (m says more)."
            case let .unknownProject(project): "the server has no project \(project), so no outbox: start the console with --project ID (m says more)."
            case .failed: nil as String?
            }
            guard let setUp else { return Banner(.error, "The outbox could not be read: \(failure.error.message)", detail: Banner.error(failure.error).detail) }
            // The server's words only: the code its refusal maps to (internalError) would mislead.
            let text = done ? "Done, but " + setUp : setUp.prefix(1).uppercased() + setUp.dropFirst()
            return Banner(done ? .info : .error, text, detail: failure.error.serverMessage)
        }
    }
}

extension AuthEmulatorOutbox.Email.Action {
    /// What the console says while it opens a link of this kind.
    func opening(_ address: String) -> String {
        switch self {
        case .verifyAndChangeEmail: "Confirming the new email…"
        case .recoverEmail: "Restoring the email \(address)…"
        case .verifyEmail, .resetPassword, .signIn, .other: "Verifying \(address)…"
        }
    }

    /// What opening a link of this kind did; `endedSession`: this console's session was among those it ended.
    /// `account`: the address the account had, for a change of email.
    func applied(_ address: String, account: String?, endedSession: Bool) -> String {
        switch self {
        case .verifyAndChangeEmail:
            "The account\(account.map { " of \($0)" } ?? "") has its new email now: \(address). "
                + (endedSession ? "Every session of it ended: sign in with the new address." : "Its refresh tokens were revoked.")
        case .recoverEmail:
            "The email is \(address) again, and verified. "
                + (endedSession ? "Every session of the account ended: sign in again (a password reset is wise)."
                                : "Its refresh tokens were revoked (a password reset is wise).")
        case .verifyEmail, .resetPassword, .signIn, .other: "Email verified."
        }
    }
}

extension AuthEmulatorOutbox.Email {
    var subject: String {
        switch action {
        case .verifyEmail: "Verify your email"
        case .resetPassword: "Reset your password"
        case .signIn: "Sign in with this link"
        case .verifyAndChangeEmail: "Confirm your new email"
        case .recoverEmail: "Your email was changed"
        case let .other(type): type
        }
    }
}
