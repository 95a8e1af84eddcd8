import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// File descriptors are a budget: each open project holds several (its writer's database and log, the
/// shared memory, a reader's database and log, the checkpointer's database and log), and a server out of
/// them cannot open a project, accept a connection or write its log.
enum DescriptorBudget {
    /// Descriptors an open project holds, counted generously: a second reader under load adds two.
    static let perProject = 8

    /// Projects other than the default that stay open at once: half the process's descriptors, the
    /// other half for connections, the default project and the log.
    static func openProjects() -> Int {
        var limit = rlimit()
        guard getrlimit(descriptorLimit, &limit) == 0, limit.rlim_cur < rlim_t(Int.max) else { return 1024 }
        return max(2, Int(limit.rlim_cur) / 2 / perProject)
    }

    /// Whether the process (or the system) cannot open another descriptor now: asked after a failure,
    /// so that running out is told as such (503, try again) rather than as a broken server (500).
    static func isExhausted() -> Bool {
        let probe = open("/dev/null", O_RDONLY | O_CLOEXEC)
        guard probe < 0 else {
            close(probe)
            return false
        }
        return errno == EMFILE || errno == ENFILE
    }

    #if canImport(Glibc)
    static let descriptorLimit = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
    #else
    static let descriptorLimit = RLIMIT_NOFILE
    #endif
}
