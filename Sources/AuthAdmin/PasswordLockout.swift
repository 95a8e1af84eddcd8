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
