/// How long after a sign-in the backend allows a sensitive change without confirming it's you:
/// Firebase's 5 minutes, or the embedded backend's `--recent-login-window`.
public struct RecentLoginWindow: Equatable, Sendable {
    public let seconds: Int

    public init(seconds: Int) { self.seconds = seconds }

    public static let firebase = RecentLoginWindow(seconds: 300)

    /// "5 minutes", "1 hour", "90 seconds": the largest unit that says it exactly.
    var text: String {
        let (count, unit) = if seconds % 3600 == 0 { (seconds / 3600, "hour") } else if seconds % 60 == 0 { (seconds / 60, "minute") } else { (seconds, "second") }
        return count == 1 ? "1 \(unit)" : "\(count) \(unit)s"
    }
}
