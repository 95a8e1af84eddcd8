import Foundation
import Synchronization

/// A clock the tests move by hand, shared by a backend and its clients as real time is.
public final class TestClock: Sendable {
    private let current: Mutex<Date>

    public init(_ start: Date = Date(timeIntervalSince1970: 1_790_000_000)) { current = Mutex(start) }

    public var now: Date { current.withLock { $0 } }
    public var seconds: Int { Int(now.timeIntervalSince1970) }
    public func advance(_ interval: TimeInterval) { current.withLock { $0 += interval } }
    /// The clock as the backend and `Auth` take it.
    public var read: @Sendable () -> Date { { self.now } }
}
