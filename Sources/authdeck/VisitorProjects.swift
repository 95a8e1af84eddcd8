import AppData
import Crypto
import Foundation
import IdentityEmulator
import Logging
import SSHServer
import Synchronization

/// The project each SSH visitor works in, on the backend `authdeck ssh` serves: their own accounts,
/// numbers, addresses, identities and outbox, reached with that project's API key only. A visitor
/// who offers a key gets the same project back on every connection (its id comes from the key's
/// fingerprint); one who offers none gets a new one each time. Each project records who it is for
/// and when it was last used (`ProjectOwner`), and the console keeps its session and app data in
/// the project's directory, so that removing the project removes all of it.
final class VisitorProjects: Sendable {
    struct Settings: Sendable {
        /// Visitors' projects on the server at once, at most.
        var maximum = BackendProjects.defaultMaximumProjects
        /// A key-less visitor's project is removed this long after they leave.
        var guestLifetime: TimeInterval = 24 * 3600
        /// A key's project is removed after this long unused.
        var keyedLifetime: TimeInterval = 30 * 24 * 3600
    }

    typealias Owner = ProjectOwner

    /// A visitor's console, ready to start.
    struct Seat: Sendable {
        let projectId: String
        let apiKey: String
        let directory: URL
        let keyed: Bool
        /// The name the room knows the visitor by: the one kept with their project.
        let name: String
    }

    let projects: BackendProjects
    let settings: Settings
    private let clock: @Sendable () -> Date
    /// Open sessions per project: a project in use is never removed.
    private let live = Mutex<[String: Int]>([:])
    /// Held while projects are chosen for removal and removed, and while a new one is made: visitors
    /// arriving together at the limit would otherwise pick the same project to remove, and all but one fail.
    private let removals = Mutex(())
    private let logger = Logger(label: "authdeck.ssh")

    init(projects: BackendProjects, settings: Settings, clock: @escaping @Sendable () -> Date = Date.init) {
        self.projects = projects
        self.settings = settings
        self.clock = clock
    }

    /// Finds or creates the visitor's project. Blocks on the file system and SQLite.
    func seat(for visit: ConsoleVisit) throws -> Seat {
        let id = visit.keyFingerprint.map(Self.projectId(forKey:)) ?? Self.newGuestProjectId()
        live.withLock { $0[id, default: 0] += 1 }
        do {
            let now = clock()
            var owner = readOwner(id) ?? Owner(key: visit.keyFingerprint, address: visit.address, createdAt: now, lastSeen: now)
            // A project made before names were kept takes the one of this visit.
            if owner.name == nil { owner.name = visit.user }
            try removals.withLock { _ in
                if !projects.exists(id) { try makeRoom() }
                // The database is made by the project's first request, not here: the console starts without waiting for it.
                try projects.prepare(id)
            }
            owner.address = visit.address
            owner.lastSeen = now
            owner.leftAt = nil
            try writeOwner(owner, of: id)
            logger.info("visitor project", metadata: ["project": "\(id)", "key": "\(visit.keyFingerprint ?? "none")", "address": "\(visit.address)"])
            return Seat(projectId: id, apiKey: try projects.apiKey(of: id), directory: projects.projectDirectory(id), keyed: visit.keyFingerprint != nil,
                        name: owner.name ?? visit.user)
        } catch {
            leave(id)
            if let refusal = error as? ConsoleRefusal { throw refusal }
            logger.error("cannot prepare a visitor project", metadata: ["project": "\(id)", "error": "\(error)"])
            throw ConsoleRefusal("AuthDeck could not prepare your project; try again later.")
        }
    }

    /// The visitor's console has exited. A key-less visitor's project with no account in it goes at
    /// once: nobody can come back to it, and a visitor reconnecting in a loop must not fill the server.
    func leave(_ id: String) {
        let remaining = live.withLock { live -> Int in
            let count = (live[id] ?? 1) - 1
            live[id] = count > 0 ? count : nil
            return count
        }
        guard remaining <= 0, var owner = readOwner(id) else { return }
        do {
            let removed = try removals.withLock { _ -> Bool in
                guard owner.key == nil, !isLive(id), projects.exists(id), try !holdsWork(id) else { return false }
                try remove(id)
                return true
            }
            if removed { return }
            owner.leftAt = clock()
            owner.lastSeen = clock()
            try writeOwner(owner, of: id)
        } catch {
            logger.warning("after a visitor left", metadata: ["project": "\(id)", "error": "\(error)"])
        }
    }

    /// Removes the projects whose time is up: a key-less visitor's `guestLifetime` after they left, a
    /// key's after `keyedLifetime` unused. Projects not made for visitors are left alone.
    func sweep() {
        removals.withLock { _ in sweepExpired() }
    }

    private func sweepExpired() {
        let now = clock()
        for id in projects.projectIds() where !isLive(id) {
            guard let owner = readOwner(id) else { continue }
            let expired = owner.key == nil
                ? now.timeIntervalSince(owner.leftAt ?? owner.lastSeen) >= settings.guestLifetime
                : now.timeIntervalSince(owner.lastSeen) >= settings.keyedLifetime
            if expired { try? remove(id) }
        }
    }

    /// The visitors' projects and the accounts in them: what the presenter's reset would empty.
    /// Blocks on SQLite.
    func demoCount() throws -> (projects: Int, accounts: Int) {
        let ids = visitorProjectIds()
        return (ids.count, try ids.reduce(0) { $0 + (try projects.accountCount(of: $1)) })
    }

    /// The presenter's reset: every visitor's project emptied (accounts, identities, outbox,
    /// sessions), kept with its key and owner. A saved session of a visitor who is not connected
    /// goes too; one who is is told by the room, and their console signs out. Blocks on SQLite.
    func resetDemo() throws -> (projects: [String], accounts: Int) {
        let ids = visitorProjectIds()
        var accounts = 0
        for id in ids {
            accounts += try projects.accountCount(of: id)
            try projects.emptyProject(id)
            if !isLive(id) { try? FileManager.default.removeItem(at: projects.projectDirectory(id).appendingPathComponent("session.json")) }
            logger.info("visitor project emptied", metadata: ["project": "\(id)"])
        }
        return (ids, accounts)
    }

    private func visitorProjectIds() -> [String] { projects.projectIds().filter { readOwner($0) != nil } }

    /// At the limit, a project with nothing in it makes room, keyed or not, the one unused the longest
    /// first. A project holding work (accounts, app data) is never removed for a newcomer, whose project
    /// is empty: it goes only when its time is up (`sweepExpired`). When no empty project is free, the
    /// visitor is turned away with what to do.
    private func makeRoom() throws {
        sweepExpired()
        let ids = projects.projectIds()
        guard ids.count >= settings.maximum else { return }
        let idle = ids.filter { !isLive($0) }.compactMap { id in readOwner(id).map { (id, $0) } }
        let empty = try idle.filter { try !holdsWork($0.0) }
        guard let oldest = empty.min(by: { ($0.1.lastSeen, $0.1.createdAt) < ($1.1.lastSeen, $1.1.createdAt) }) else {
            throw ConsoleRefusal("This demo is full: all \(settings.maximum) visitor projects are in use or hold work. Try again in a while, "
                + "or ask the presenter to raise `authdeck ssh --max-visitor-projects`.")
        }
        try remove(oldest.0)
    }

    /// Whether the project holds a visitor's work: an account, or app data their console kept (items in
    /// its `appdata.sqlite`). Blocks on SQLite.
    private func holdsWork(_ id: String) throws -> Bool {
        try projects.accountCount(of: id) > 0
            || CartStore.holdsItems(at: projects.projectDirectory(id).appendingPathComponent("appdata.sqlite").path)
    }

    private func isLive(_ id: String) -> Bool { live.withLock { ($0[id] ?? 0) > 0 } }

    private func remove(_ id: String) throws {
        try projects.removeProject(id)
        logger.info("visitor project removed", metadata: ["project": "\(id)"])
    }

    private func readOwner(_ id: String) -> Owner? { projects.owner(of: id) }

    private func writeOwner(_ owner: Owner, of id: String) throws { try projects.setOwner(owner, of: id) }

    /// `visitor-` and 16 hex digits of the fingerprint's SHA-256: stable for a key, a valid project id,
    /// and saying nothing of the key.
    static func projectId(forKey fingerprint: String) -> String {
        "visitor-" + SHA256.hash(data: Data(fingerprint.utf8)).prefix(8).map { String(format: "%02x", $0) }.joined()
    }

    static func newGuestProjectId() -> String {
        var generator = SystemRandomNumberGenerator()
        return "guest-" + (0..<6).map { _ in String(format: "%02x", UInt8.random(in: .min ... .max, using: &generator)) }.joined()
    }
}
