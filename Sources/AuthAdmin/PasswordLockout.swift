import Foundation
import IdentityToolkit

/// An email address's wrong passwords, as the backend counts them: at its limit, its password sign-in is
/// refused (TOO_MANY_ATTEMPTS_TRY_LATER) until `lockedUntil`, or until an operator clears it.
public struct PasswordLockout: Sendable, Equatable {
    public var failures: Int
    public var lockedUntil: Date?

    public init(failures: Int, lockedUntil: Date?) {
        self.failures = failures
        self.lockedUntil = lockedUntil
    }

    public var isLocked: Bool { lockedUntil != nil }

    init(_ wire: LockoutResponse) {
        self.init(failures: wire.failures, lockedUntil: wire.lockedUntil.flatMap(Double.init).map { Date(timeIntervalSince1970: $0 / 1000) })
    }
}

/// An address locked out now, as the list of a project's lock-outs shows it: an account's or not.
public struct EmailLockout: Sendable, Equatable {
    public var email: String
    public var failures: Int
    public var lockedUntil: Date
    /// Named where every project is shown; nil: the project shown.
    public var project: String?

    public init(email: String, failures: Int, lockedUntil: Date, project: String? = nil) {
        self.email = email
        self.failures = failures
        self.lockedUntil = lockedUntil
        self.project = project
    }

    init?(_ wire: LockoutResponse) {
        guard let until = PasswordLockout(wire).lockedUntil else { return nil }
        self.init(email: wire.email, failures: wire.failures, lockedUntil: until)
    }
}
