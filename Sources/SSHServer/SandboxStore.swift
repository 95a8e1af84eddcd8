import Foundation
import NIOPosix
import Synchronization

/// Who a visitor's sandbox is for, kept with it so that it goes with it.
public struct SandboxOwner: Codable, Sendable, Equatable {
    /// The key's `SHA256:…` fingerprint; nil for a visitor without a key.
    public var key: String?
    public var address: String
    public var createdAt: Date
    public var lastSeen: Date
    /// When the last of its sessions ended; nil while one is open.
    public var leftAt: Date?
    /// The name the visitor chose at their first visit; a visitor with a key keeps it, whatever user
    /// name they come back under.
    public var name: String?

    public init(key: String?, address: String, createdAt: Date, lastSeen: Date, leftAt: Date? = nil, name: String? = nil) {
        self.key = key
        self.address = address
        self.createdAt = createdAt
        self.lastSeen = lastSeen
        self.leftAt = leftAt
        self.name = name
    }
}

/// Where visitors' sandboxes live: the embedded backend's projects, or the tenants of a backend this
/// host shares with others. `VisitorSandboxes` decides when each is made, kept, emptied and removed;
/// a store only does it. Every method may block a thread of its own, never the caller's.
public protocol SandboxStore: Sendable {
    /// What a visitor's console needs to reach its sandbox (a project's key, a tenant and its key).
    associatedtype Access: Sendable

    /// Every sandbox the store holds now, visitors' or not: what the limit counts.
    func sandboxIds() async throws -> [String]
    /// Whether the sandbox is there to be used.
    func exists(_ id: String) async throws -> Bool
    /// Makes the sandbox count among `sandboxIds` (its directory), quickly: called while no other
    /// sandbox may be made or removed.
    func reserve(_ id: String) async throws
    /// Makes what is missing of a reserved sandbox (`name` is the visitor's) and answers how a console reaches it.
    func prepare(_ id: String, name: String) async throws -> Access
    /// nil for a sandbox not made for a visitor.
    func owner(of id: String) async -> SandboxOwner?
    func setOwner(_ owner: SandboxOwner, of id: String) async throws
    func accountCount(of id: String) async throws -> Int
    /// Whether it holds a visitor's work: an account, or app data their console kept.
    func holdsWork(_ id: String) async throws -> Bool
    /// Accounts, identities and outbox gone; the sandbox stays, with its owner and its access.
    func empty(_ id: String) async throws
    func remove(_ id: String) async throws
    /// Where the visitor's console keeps its session and app data.
    func directory(of id: String) -> URL
    /// How the room and the log name the sandbox (a project's id, a tenant's).
    func label(of id: String) async -> String
}

/// Work that blocks (SQLite, files), run on NIO's thread pool: never on Swift's cooperative pool.
public enum BlockingWork {
    public static func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await NIOThreadPool.singleton.runIfActive(body)
    }
}

/// One body at a time, in the order they came: a lock that may be held across an await (the HTTP
/// calls of a remote store), which a mutex may not.
actor SerialGate {
    private var busy = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    func run<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        if busy {
            await withCheckedContinuation { waiting.append($0) }
        } else {
            busy = true
        }
        defer {
            if waiting.isEmpty { busy = false } else { waiting.removeFirst().resume() }
        }
        return try await body()
    }
}

/// A `SerialGate` per sandbox: the work on one sandbox (making it, writing its owner, counting, emptying and
/// removing it) one body at a time, while other sandboxes go on. A gate is kept while someone holds or awaits it.
final class SandboxGates: Sendable {
    private let gates = Mutex<[String: (gate: SerialGate, users: Int)]>([:])

    func run<T: Sendable>(_ id: String, _ body: @Sendable () async throws -> T) async throws -> T {
        let gate = gates.withLock { gates in
            let entry = gates[id] ?? (SerialGate(), 0)
            gates[id] = (entry.gate, entry.users + 1)
            return entry.gate
        }
        defer { release(id) }
        return try await gate.run(body)
    }

    /// `body` when nobody holds or awaits the sandbox's gate, else nil at once: for work on a sandbox done
    /// while another gate is held, where waiting could wait for ever on whoever holds this one.
    func runIfFree<T: Sendable>(_ id: String, _ body: @Sendable () async throws -> T) async throws -> T? {
        let gate: SerialGate? = gates.withLock { gates in
            guard gates[id] == nil else { return nil }
            let gate = SerialGate()
            gates[id] = (gate, 1)
            return gate
        }
        guard let gate else { return nil }
        defer { release(id) }
        return try await gate.run(body)
    }

    private func release(_ id: String) {
        gates.withLock { gates in
            guard let entry = gates[id] else { return }
            gates[id] = entry.users > 1 ? (entry.gate, entry.users - 1) : nil
        }
    }
}
