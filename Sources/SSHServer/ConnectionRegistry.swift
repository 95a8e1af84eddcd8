import Synchronization

/// Counts connections in two pools, each in all and per source address. A connection starts in
/// the *handshaking* pool (key exchange, login, being told the server is full), which has bounds
/// of its own, and moves to the *sessions* pool only once it has logged in: connections that never
/// log in cannot take a visitor's place, and those over the handshake bounds are closed unheard.
/// Also keeps the consoles' process ids so that a shutdown hangs them all up.
final class ConnectionRegistry: Sendable {
    enum SessionAdmission: Equatable {
        case admitted
        case full
        case tooManyFromAddress
    }

    private struct Pool {
        var total = 0
        var perAddress: [String: Int] = [:]

        func admits(_ address: String, total limit: Int, perAddress addressLimit: Int) -> Bool {
            total < limit && perAddress[address, default: 0] < addressLimit
        }

        mutating func add(_ address: String) {
            total += 1
            perAddress[address, default: 0] += 1
        }

        mutating func remove(_ address: String) {
            total -= 1
            let left = perAddress[address, default: 1] - 1
            perAddress[address] = left > 0 ? left : nil
        }
    }

    private struct State {
        var handshaking = Pool()
        var sessions = Pool()
        var consoles: Set<Int32> = []
    }

    private let state = Mutex(State())
    private let limits: SSHLimits

    init(limits: SSHLimits) { self.limits = limits }

    /// A new TCP connection: true if it may handshake (then `handshakeEnded` must follow, or
    /// `sessionEnded` once `claimSession` has admitted it); false means close it now.
    func admitHandshake(address: String) -> Bool {
        state.withLock { state in
            guard state.handshaking.admits(address, total: limits.maxHandshakes, perAddress: limits.maxHandshakesPerAddress) else { return false }
            state.handshaking.add(address)
            return true
        }
    }

    /// A connection that has logged in takes a session's place, leaving the handshakes; refused,
    /// it stays among them while it is told why.
    func claimSession(address: String) -> SessionAdmission {
        state.withLock { state in
            if state.sessions.total >= limits.maxSessions { return .full }
            if state.sessions.perAddress[address, default: 0] >= limits.maxSessionsPerAddress { return .tooManyFromAddress }
            state.handshaking.remove(address)
            state.sessions.add(address)
            return .admitted
        }
    }

    func handshakeEnded(address: String) { state.withLock { $0.handshaking.remove(address) } }
    func sessionEnded(address: String) { state.withLock { $0.sessions.remove(address) } }

    /// Connections open now, logged in or not.
    var openConnections: Int { state.withLock { $0.handshaking.total + $0.sessions.total } }

    func consoleStarted(_ pid: Int32) { _ = state.withLock { $0.consoles.insert(pid) } }
    func consoleEnded(_ pid: Int32) { _ = state.withLock { $0.consoles.remove(pid) } }
    var consoles: Set<Int32> { state.withLock { $0.consoles } }
}
