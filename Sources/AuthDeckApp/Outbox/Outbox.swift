import AuthClient
import Foundation
import TerminalUI

/// The emulator's outboxes as the console shows them: newest first.
public struct Outbox: Equatable, Sendable {
    public typealias Email = AuthEmulatorOutbox.Email
    public typealias TextMessage = AuthEmulatorOutbox.TextMessage

    public var emails: [Email]
    public var texts: [TextMessage]

    public init(emails: [Email] = [], texts: [TextMessage] = []) {
        self.emails = emails
        self.texts = texts
    }

    /// The text that carries the code of one verification.
    public func text(for verificationID: String) -> TextMessage? {
        texts.first { $0.verificationID == verificationID }
    }

    /// Emails then texts, as the outbox overlay lists them.
    var count: Int { emails.count + texts.count }
}

extension AuthEmulatorOutbox.Email {
    var subject: String {
        switch action {
        case .verifyEmail: "Verify your email"
        case .resetPassword: "Reset your password"
        case let .other(type): type
        }
    }
}
