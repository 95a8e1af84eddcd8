import NIOCore
import Synchronization

/// Counts connections in two pools, each in all and per source (`SourceAddress`: an IPv6 /64 is
/// one). A connection starts in the *handshaking* pool (key exchange, login, being told the server
/// is full), which has bounds of its own, and moves to the *sessions* pool only once it has logged
/// in: connections that never log in cannot take a visitor's place. A full handshaking pool makes
/// room for a newcomer by closing the connection that has waited longest without starting to log
/// in, once it has had `handshakeGrace` for its key exchange (then the one that has waited longest
/// at all): a flood of stalled handshakes delays visitors by at most one handshake, and a stream of
/// new ones cannot close a visitor's key exchange as soon as it starts while the flood holds the
/// rest of the pool logging in. Sources whose connections fail their authentication
/// attempts are refused for a while (`penalise`), as OpenSSH's PerSourcePenalties do.
/// Also keeps the consoles' process ids so that a shutdown hangs them all up.
final class ConnectionRegistry: Sendable {
    enum SessionAdmission: Equatable {
        case admitted
        case full
        case tooManyFromAddress
    }

    private struct Handshake {
        let source: String
        let arrived: NIODeadline
        /// Has sent an authentication request: its key exchange is done.
        var loggingIn = false
        let close: @Sendable () -> Void
    }

    private struct State {
        var nextHandshake = 0
        /// By id, which grows with arrival: the smallest has waited longest.
        var handshakes: [Int: Handshake] = [:]
        var handshakesPerSource: [String: Int] = [:]
        var sessions = 0
        var visitorsPerSource: [String: Int] = [:]
        /// When each penalised source's penalty runs out.
        var penalties: [String: NIODeadline] = [:]
        /// While the table is full of unexpired penalties: when the first of them runs out. Until
        /// then a new source is turned away without the table being searched again.
        var penaltiesFullUntil: NIODeadline?
        var consoles: Set<Int32> = []
    }

    private let state = Mutex(State())
    private let limits: SSHLimits
    private let clock: @Sendable () -> NIODeadline

    init(limits: SSHLimits, clock: @escaping @Sendable () -> NIODeadline = { .now() }) {
        self.limits = limits
        self.clock = clock
    }

    /// A new TCP connection: its handshake's id if it may handshake (then `handshakeEnded` must
    /// follow, or `sessionEnded` once `claimSession` has admitted it); nil means close it now.
    /// `close` ends the connection from any thread, when a newcomer needs its place.
    func admitHandshake(address: String, close: @escaping @Sendable () -> Void) -> Int? {
        let source = SourceAddress.of(address)
        let now = clock()
        let (admitted, evicted): (Int?, Handshake?) = state.withLock { state in
            if let until = state.penalties[source] {
                if until - now > limits.penalties.enforcedFrom { return (nil, nil) }
                if until <= now { state.penalties[source] = nil }
            }
            guard state.handshakesPerSource[source, default: 0] < limits.maxHandshakesPerAddress else { return (nil, nil) }
            var evicted: Handshake?
            if state.handshakes.count >= limits.maxHandshakes {
                let stalled = state.handshakes.filter { !$0.value.loggingIn && now - $0.value.arrived >= limits.handshakeGrace }
                let oldest = stalled.keys.min() ?? state.handshakes.keys.min()
                if let oldest { evicted = Self.remove(oldest, from: &state) }
            }
            let id = state.nextHandshake
            state.nextHandshake += 1
            state.handshakes[id] = Handshake(source: source, arrived: now, close: close)
            state.handshakesPerSource[source, default: 0] += 1
            return (id, evicted)
        }
        evicted?.close()
        return admitted
    }

    /// The connection has sent its first authentication request: it goes after those still in
    /// their key exchange when room must be made.
    func handshakeLoggingIn(_ id: Int) {
        state.withLock { $0.handshakes[id]?.loggingIn = true }
    }

    /// A connection that has logged in takes a session's place, leaving the handshakes; refused,
    /// it stays among them while it is told why. Visitors leave `operatorReserve` places free for
    /// operators, who also have no per-address limit (their key is known).
    func claimSession(handshake id: Int, address: String, isOperator: Bool) -> SessionAdmission {
        let source = SourceAddress.of(address)
        return state.withLock { state in
            if isOperator {
                if state.sessions >= limits.maxSessions + limits.operatorReserve { return .full }
            } else {
                if state.sessions >= limits.maxSessions { return .full }
                if state.visitorsPerSource[source, default: 0] >= limits.maxSessionsPerAddress { return .tooManyFromAddress }
                state.visitorsPerSource[source, default: 0] += 1
            }
            _ = Self.remove(id, from: &state)
            state.sessions += 1
            return .admitted
        }
    }

    func handshakeEnded(_ id: Int) { _ = state.withLock { Self.remove(id, from: &$0) } }

    func sessionEnded(address: String, isOperator: Bool) {
        let source = SourceAddress.of(address)
        state.withLock { state in
            state.sessions -= 1
            guard !isOperator else { return }
            let left = state.visitorsPerSource[source, default: 1] - 1
            state.visitorsPerSource[source] = left > 0 ? left : nil
        }
    }

    /// A connection from `address` left after failed authentication attempts: its source is refused once
    /// such penalties add up to more than `enforcedFrom`, until they have run out.
    func penalise(address: String) {
        let source = SourceAddress.of(address)
        guard !limits.penalties.exempt.contains(source) else { return }
        let now = clock()
        state.withLock { state in
            // A flood from ever new sources cannot grow the table without bound: expired penalties go
            // first, and a full table takes no new source (OpenSSH's `overflow:permissive`). The table
            // is searched once each time a penalty can have run out, not for every new source.
            if state.penalties[source] == nil, state.penalties.count >= limits.penalties.maximumSources {
                if let full = state.penaltiesFullUntil, now < full { return }
                state.penalties = state.penalties.filter { $0.value > now }
                guard state.penalties.count < limits.penalties.maximumSources else {
                    state.penaltiesFullUntil = state.penalties.values.min()
                    return
                }
                state.penaltiesFullUntil = nil
            }
            let left = max(.zero, (state.penalties[source] ?? now) - now)
            state.penalties[source] = now + min(left + limits.penalties.authenticationFailure, limits.penalties.maximum)
        }
    }

    private static func remove(_ id: Int, from state: inout State) -> Handshake? {
        guard let handshake = state.handshakes.removeValue(forKey: id) else { return nil }
        let left = state.handshakesPerSource[handshake.source, default: 1] - 1
        state.handshakesPerSource[handshake.source] = left > 0 ? left : nil
        return handshake
    }

    /// Connections open now, logged in or not.
    var openConnections: Int { state.withLock { $0.handshakes.count + $0.sessions } }

    func consoleStarted(_ pid: Int32) { _ = state.withLock { $0.consoles.insert(pid) } }
    func consoleEnded(_ pid: Int32) { _ = state.withLock { $0.consoles.remove(pid) } }
    var consoles: Set<Int32> { state.withLock { $0.consoles } }
}
