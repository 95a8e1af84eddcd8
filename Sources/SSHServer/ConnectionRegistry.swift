import Synchronization

/// Counts open connections, in all and per source address, so that the 51st visitor (or the 5th
/// from one address) is told so at once instead of waiting; and keeps the consoles' process ids
/// so that a shutdown hangs them all up.
final class ConnectionRegistry: Sendable {
    enum Admission: Equatable {
        case admitted
        case full
        case tooManyFromAddress
        /// So many are already being told "full" that this one is closed without a word.
        case dropped
    }

    private struct State {
        var total = 0
        var refusing = 0
        var perAddress: [String: Int] = [:]
        var consoles: Set<Int32> = []
    }

    private let state = Mutex(State())
    private let limits: SSHLimits

    init(limits: SSHLimits) { self.limits = limits }

    /// Admits the connection (then `release` must follow) or says why not.
    func admit(address: String) -> Admission {
        state.withLock { state in
            let refusal: Admission? = if state.total >= limits.maxSessions { .full }
                else if state.perAddress[address, default: 0] >= limits.maxSessionsPerAddress { .tooManyFromAddress }
                else { nil }
            if let refusal {
                // Telling costs a handshake each; a flood of the turned-away must not cost more.
                guard state.refusing < limits.maxSessions else { return .dropped }
                state.refusing += 1
                return refusal
            }
            state.total += 1
            state.perAddress[address, default: 0] += 1
            return .admitted
        }
    }

    func release(address: String) {
        state.withLock { state in
            state.total -= 1
            let left = state.perAddress[address, default: 1] - 1
            state.perAddress[address] = left > 0 ? left : nil
        }
    }

    func refusalEnded() { state.withLock { $0.refusing -= 1 } }

    var openConnections: Int { state.withLock { $0.total } }

    func consoleStarted(_ pid: Int32) { _ = state.withLock { $0.consoles.insert(pid) } }
    func consoleEnded(_ pid: Int32) { _ = state.withLock { $0.consoles.remove(pid) } }
    var consoles: Set<Int32> { state.withLock { $0.consoles } }
}
