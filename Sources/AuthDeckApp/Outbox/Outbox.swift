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
    /// When this console first read each message (by `oobCode` or verification ID): the emulator's
    /// outbox does not say when a message was sent.
    public var firstSeen: [String: Date]

    public init(emails: [Email] = [], texts: [TextMessage] = [], problem: OutboxProblem? = nil, firstSeen: [String: Date] = [:]) {
        self.emails = emails
        self.texts = texts
        self.problem = problem
        self.firstSeen = firstSeen
    }

    /// A newer email of the same kind went to the same address: that one is the one to open.
    public func isSuperseded(_ email: Email) -> Bool {
        guard let index = emails.firstIndex(of: email) else { return false }
        return emails[..<index].contains { $0.action == email.action && $0.to.lowercased() == email.to.lowercased() }
    }

    /// A newer code was texted to the same number.
    public func isSuperseded(_ text: TextMessage) -> Bool {
        guard let index = texts.firstIndex(of: text) else { return false }
        return texts[..<index].contains { $0.to == text.to }
    }

    /// The text that carries the code of one verification.
    public func text(for verificationID: String) -> TextMessage? {
        texts.first { $0.verificationID == verificationID }
    }

    /// Emails then texts, as the outbox overlay lists them.
    var count: Int { emails.count + texts.count }
}

/// Remembers when this console first read each message, so the outbox can show a time.
final class OutboxArrivals: Sendable {
    private let seen = Mutex<[String: Date]>([:])

    /// `outbox` with the first-seen time of each of its messages; messages gone from the outbox are forgotten.
    func stamp(_ outbox: Outbox, now: Date) -> Outbox {
        var stamped = outbox
        stamped.firstSeen = seen.withLock { seen in
            let keys = outbox.emails.map(\.oobCode) + outbox.texts.map(\.verificationID)
            seen = Dictionary(keys.map { ($0, seen[$0] ?? now) }, uniquingKeysWith: { first, _ in first })
            return seen
        }
        return stamped
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

    /// Two lines at most: the outbox (m) has the whole sentence.
    var banner: Banner {
        switch self {
        case .noOutbox:
            return Banner(.error, sentence)
        case let .unreadable(failure):
            var banner = Banner.error(failure.error)
            banner.text = switch failure.reason {
            case .administratorsOnly: "The outbox is for administrators here: start the console with AUTHDECK_ADMIN_TOKEN (m says more)."
            case let .unknownProject(project): "The server has no project \(project), so no outbox: start the console with --project ID (m says more)."
            case .failed: "The outbox could not be read: \(failure.error.message)"
            }
            return banner
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
    func applied(_ address: String, endedSession: Bool) -> String {
        switch self {
        case .verifyAndChangeEmail:
            "The account of \(address) has its new email now. "
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
