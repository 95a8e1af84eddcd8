import Crypto
import Foundation
import Logging
import Synchronization

/// The sandbox each SSH visitor works in (a project or a tenant of their own, kept by a
/// `SandboxStore`), and when it is made, kept and removed. A visitor who offers a key gets the same
/// sandbox back on every connection (its id comes from the key's fingerprint); one who offers none
/// gets a new one each time. Each sandbox records who it is for and when it was last used, and the
/// console keeps its session and app data in the sandbox's directory, so that removing the sandbox
/// removes all of it.
public final class VisitorSandboxes<Store: SandboxStore>: Sendable {
    public struct Settings: Sendable {
        /// Visitors' sandboxes at once, at most.
        public var maximum: Int
        /// A key-less visitor's sandbox is removed this long after they leave.
        public var guestLifetime: TimeInterval = 24 * 3600
        /// A key's sandbox is removed after this long unused.
        public var keyedLifetime: TimeInterval = 30 * 24 * 3600

        public init(maximum: Int) { self.maximum = maximum }
    }

    /// A visitor's console, ready to start.
    public struct Seat: Sendable {
        public let id: String
        public let access: Store.Access
        public let directory: URL
        public let keyed: Bool
        /// The name the room knows the visitor by: the one kept with their sandbox.
        public let name: String
        /// How the room names the sandbox.
        public let label: String
    }

    public let store: Store
    public let settings: Settings
    private let clock: @Sendable () -> Date
    /// Open sessions per sandbox: a sandbox in use is never removed.
    private let live = Mutex<[String: Int]>([:])
    /// Held while sandboxes are chosen for removal and removed, and while a new one is reserved: visitors
    /// arriving together at the limit would otherwise pick the same sandbox to remove, and all but one fail.
    private let removals = SerialGate()
    /// Held while one sandbox is made, its owner written, counted, emptied or removed: two connections with
    /// one key at once would otherwise each make a tenant, one of them in no record, and a count or an
    /// emptying racing a removal would have the backend make the removed tenant anew. Taken before
    /// `removals`; under `removals`, another sandbox's is only taken when free (`runIfFree`).
    private let sandboxGates = SandboxGates()
    private let logger = Logger(label: "authdeck.ssh")

    public init(store: Store, settings: Settings, clock: @escaping @Sendable () -> Date = Date.init) {
        self.store = store
        self.settings = settings
        self.clock = clock
    }

    /// Finds or makes the visitor's sandbox.
    public func seat(for visit: ConsoleVisit) async throws -> Seat {
        let id = visit.keyFingerprint.map(Self.sandboxId(forKey:)) ?? Self.newGuestSandboxId()
        live.withLock { $0[id, default: 0] += 1 }
        do {
            return try await sandboxGates.run(id) { [self] in try await prepareSeat(id, for: visit) }
        } catch {
            await leave(id)
            if let refusal = error as? ConsoleRefusal { throw refusal }
            logger.error("cannot prepare a visitor sandbox", metadata: ["sandbox": "\(id)", "error": "\(error)"])
            throw ConsoleRefusal("AuthDeck could not prepare your sandbox; try again later.")
        }
    }

    /// Under the sandbox's gate.
    private func prepareSeat(_ id: String, for visit: ConsoleVisit) async throws -> Seat {
        var reserved = false
        do {
            let now = clock()
            var owner = await store.owner(of: id) ?? SandboxOwner(key: visit.keyFingerprint, address: visit.address, createdAt: now, lastSeen: now)
            // A sandbox made before names were kept takes the one of this visit.
            if owner.name == nil { owner.name = visit.user }
            // A returning visitor's sandbox is there: only a new one waits for the gate, and looks again inside it.
            reserved = try await store.exists(id) ? false : removals.run { [self] in
                guard try await !store.exists(id) else { return false }
                try await makeRoom()
                try await store.reserve(id)
                return true
            }
            let access = try await store.prepare(id, name: owner.name ?? visit.user)
            owner.address = visit.address
            owner.lastSeen = now
            owner.leftAt = nil
            try await store.setOwner(owner, of: id)
            let label = await store.label(of: id)
            logger.info("visitor sandbox", metadata: ["sandbox": "\(label)", "key": "\(visit.keyFingerprint ?? "none")", "address": "\(visit.address)"])
            return Seat(id: id, access: access, directory: store.directory(of: id), keyed: visit.keyFingerprint != nil, name: owner.name ?? visit.user,
                        label: label)
        } catch {
            // A guest's sandbox that never got its owner would count against the limit for ever.
            if reserved, visit.keyFingerprint == nil, await store.owner(of: id) == nil { try? await store.remove(id) }
            throw error
        }
    }

    /// The visitor's console has exited. A key-less visitor's sandbox with nothing in it goes at
    /// once: nobody can come back to it, and a visitor reconnecting in a loop must not fill the backend.
    public func leave(_ id: String) async {
        let remaining = live.withLock { live -> Int in
            let count = (live[id] ?? 1) - 1
            live[id] = count > 0 ? count : nil
            return count
        }
        guard remaining <= 0 else { return }
        do {
            try await sandboxGates.run(id) { [self] in
                guard var owner = await store.owner(of: id) else { return }
                let removed = try await removals.run { [self, key = owner.key] in
                    guard key == nil, !isLive(id), try await store.exists(id), try await !store.holdsWork(id) else { return false }
                    try await remove(id)
                    return true
                }
                if removed { return }
                owner.leftAt = clock()
                owner.lastSeen = clock()
                try await store.setOwner(owner, of: id)
            }
        } catch {
            logger.warning("after a visitor left", metadata: ["sandbox": "\(id)", "error": "\(error)"])
        }
    }

    /// Removes the sandboxes whose time is up: a key-less visitor's `guestLifetime` after they left, a
    /// key's after `keyedLifetime` unused. Sandboxes not made for visitors are left alone.
    public func sweep() async {
        do {
            try await removals.run { [self] in try await sweepExpired() }
        } catch {
            logger.warning("sweeping visitors' sandboxes", metadata: ["error": "\(error)"])
        }
    }

    /// `sweep` every `interval` until cancelled.
    public func sweepPeriodically(every interval: Duration) -> Task<Void, Never> {
        Task.detached(priority: .background) { [self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                if !Task.isCancelled { await sweep() }
            }
        }
    }

    private func sweepExpired() async throws {
        let now = clock()
        for id in try await store.sandboxIds() where !isLive(id) {
            // One at work (a visitor arriving or leaving, the reset) is not expiring now.
            _ = try await sandboxGates.runIfFree(id) { [self] in
                guard !isLive(id), let owner = await store.owner(of: id) else { return }
                let expired = owner.key == nil
                    ? now.timeIntervalSince(owner.leftAt ?? owner.lastSeen) >= settings.guestLifetime
                    : now.timeIntervalSince(owner.lastSeen) >= settings.keyedLifetime
                if expired { try? await remove(id) }
            }
        }
    }

    /// The visitors' sandboxes and the accounts in them: what the presenter's reset would empty.
    public func demoCount() async throws -> (projects: Int, accounts: Int) {
        var projects = 0
        var accounts = 0
        for id in try await visitorSandboxIds() {
            // Under its gate, and only while it is on the backend, which would otherwise make it anew.
            guard let count = try await sandboxGates.run(id, { [self] () async throws -> Int? in
                try await store.exists(id) ? try await store.accountCount(of: id) : nil
            }) else { continue }
            projects += 1
            accounts += count
        }
        return (projects, accounts)
    }

    /// The presenter's reset: every visitor's sandbox emptied (accounts, identities, outbox,
    /// sessions), kept with its owner. A saved session of a visitor who is not connected goes too;
    /// one who is is told by the room, and their console signs out. Answers the sandboxes as the room names them.
    public func resetDemo() async throws -> (projects: [String], accounts: Int) {
        var labels: [String] = []
        var accounts = 0
        for id in try await visitorSandboxIds() {
            // As the count: a sandbox removed meanwhile, or gone from the backend, is not made anew by emptying it.
            guard let emptied = try await sandboxGates.run(id, { [self] () async throws -> Int? in
                guard try await store.exists(id) else { return nil }
                let count = try await store.accountCount(of: id)
                try await store.empty(id)
                if !isLive(id) {
                    let session = store.directory(of: id).appendingPathComponent("session.json")
                    _ = try? await BlockingWork.run { try FileManager.default.removeItem(at: session) }
                }
                return count
            }) else { continue }
            accounts += emptied
            let label = await store.label(of: id)
            labels.append(label)
            logger.info("visitor sandbox emptied", metadata: ["sandbox": "\(label)"])
        }
        return (labels, accounts)
    }

    /// The presenter's reset of this host's visitors' sandboxes, and nobody else's.
    public var demoReset: DemoReset {
        DemoReset(count: { [self] in try await demoCount() }, reset: { [self] in try await resetDemo() })
    }

    private func visitorSandboxIds() async throws -> [String] {
        var ids: [String] = []
        for id in try await store.sandboxIds() where await store.owner(of: id) != nil { ids.append(id) }
        return ids
    }

    /// At the limit, a sandbox with nothing in it makes room, keyed or not, the one unused the longest
    /// first. A sandbox holding work is never removed for a newcomer, whose sandbox is empty: it goes
    /// only when its time is up (`sweepExpired`). When no empty sandbox is free, the visitor is turned
    /// away with what to do.
    private func makeRoom() async throws {
        try await sweepExpired()
        let ids = try await store.sandboxIds()
        guard ids.count >= settings.maximum else { return }
        var candidates: [(id: String, owner: SandboxOwner)] = []
        for id in ids where !isLive(id) {
            if let owner = await store.owner(of: id) { candidates.append((id, owner)) }
        }
        candidates.sort { ($0.owner.lastSeen, $0.owner.createdAt) < ($1.owner.lastSeen, $1.owner.createdAt) }
        for candidate in candidates {
            // One at work (its visitor leaving, the reset) is passed over.
            let removed = try await sandboxGates.runIfFree(candidate.id) { [self] in
                guard !isLive(candidate.id), try await !store.holdsWork(candidate.id) else { return false }
                try await remove(candidate.id)
                return true
            }
            if removed == true { return }
        }
        throw ConsoleRefusal("This demo is full: all \(settings.maximum) visitor sandboxes are in use or hold work. Try again in a while, "
            + "or ask the presenter to raise `authdeck ssh --max-visitor-projects`.")
    }

    private func isLive(_ id: String) -> Bool { live.withLock { ($0[id] ?? 0) > 0 } }

    private func remove(_ id: String) async throws {
        let label = await store.label(of: id)
        try await store.remove(id)
        logger.info("visitor sandbox removed", metadata: ["sandbox": "\(label)"])
    }

    /// `visitor-` and 16 hex digits of the fingerprint's SHA-256: stable for a key, a valid project id,
    /// and saying nothing of the key.
    public static func sandboxId(forKey fingerprint: String) -> String {
        "visitor-" + SHA256.hash(data: Data(fingerprint.utf8)).prefix(8).map { String(format: "%02x", $0) }.joined()
    }

    public static func newGuestSandboxId() -> String {
        var generator = SystemRandomNumberGenerator()
        return "guest-" + (0..<6).map { _ in String(format: "%02x", UInt8.random(in: .min ... .max, using: &generator)) }.joined()
    }
}
