import AuthClient
import Foundation
import Synchronization

/// Who sits at the console, as far as the backend's shared outbox goes.
public enum ConsoleAudience: Sendable, Equatable {
    /// The owner of the data directory, or an operator over SSH: every message.
    case everyone
    /// A visitor on a shared demo server: only messages for what their own session controls.
    case visitor
}

/// The email addresses and phone numbers one console session controls: those of every account it
/// signed up or signed in to, and numbers it is enrolling as a second factor of its own account.
/// A visitor reads only messages sent to these, so a reset link or an SMS code asked for someone
/// else's account reaches nobody's screen, not even the asker's.
public struct ControlledAddresses: Equatable, Sendable {
    public private(set) var emails: Set<String> = []
    public private(set) var phoneNumbers: Set<String> = []

    public init() {}

    /// The account's own email and number only: a linked provider's email is the provider's
    /// claim, not proof that this session controls the account that uses that address.
    public mutating func adopt(_ user: User) {
        if let email = user.email, !email.isEmpty { emails.insert(Self.normalized(email)) }
        if let phone = user.phoneNumber, !phone.isEmpty { phoneNumbers.insert(phone) }
    }

    /// A number being enrolled as a second factor by the signed-in account. (A number being
    /// linked is not: the backend answers a number already in use with a proof that signs in to
    /// its owner.)
    public mutating func enrolling(phoneNumber: String) {
        phoneNumbers.insert(phoneNumber)
    }

    static func normalized(_ email: String) -> String { email.lowercased() }
}

extension Outbox {
    /// What `audience` may read: everything, or for a visitor the messages to addresses and
    /// numbers their session controls.
    public func visible(to audience: ConsoleAudience, controlling controlled: ControlledAddresses) -> Outbox {
        switch audience {
        case .everyone:
            return self
        case .visitor:
            var visible = self
            visible.emails = emails.filter { controlled.emails.contains(ControlledAddresses.normalized($0.to)) }
            visible.texts = texts.filter { controlled.phoneNumbers.contains($0.to) }
            return visible
        }
    }
}

/// The effect runner's record of what this session controls; filled from every signed-in user
/// and every second-factor enrollment, read whenever the outbox is.
final class SessionControl: Sendable {
    let audience: ConsoleAudience
    private let controlled = Mutex(ControlledAddresses())

    init(audience: ConsoleAudience) { self.audience = audience }

    func adopt(_ user: User?) {
        guard let user else { return }
        controlled.withLock { $0.adopt(user) }
    }

    func enrolling(phoneNumber: String) {
        controlled.withLock { $0.enrolling(phoneNumber: phoneNumber) }
    }

    func filter(_ outbox: Outbox) -> Outbox {
        outbox.visible(to: audience, controlling: controlled.withLock { $0 })
    }

    /// What the inspector may show: a visitor's leaves out the reads of the outbox, whose answers hold
    /// every visitor's addresses and numbers (the outbox pane filters them; the raw answer did not).
    func inspectable(_ exchanges: [BackendExchange]) -> [BackendExchange] {
        switch audience {
        case .everyone: exchanges
        case .visitor: exchanges.filter { !$0.readsTheOutbox }
        }
    }
}
