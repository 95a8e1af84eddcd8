#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The process's environment, one variable at a time. `ProcessInfo.environment` copies every
/// variable into a dictionary first: about 0.3 ms of a console's start before its first frame.
/// Nothing in AuthDeck sets variables in its own process, so reading them needs no lock.
struct Environment: Sendable {
    static let process = Environment()

    private init() {}

    subscript(name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }
}
