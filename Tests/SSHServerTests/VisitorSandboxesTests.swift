import Foundation
import Synchronization
import Testing
@testable import SSHServer

/// When visitors' sandboxes are made, given back, kept, emptied and removed, whatever keeps them (the
/// embedded backend's projects, a shared backend's tenants): here a store in memory that suspends at
/// every call, as a remote one does, so that visitors arriving together interleave.
@Suite struct VisitorSandboxesTests {
    final class MemoryStore: SandboxStore {
        struct Sandbox {
            var owner: SandboxOwner?
            var accounts = 0
            var appData = false
            /// The backend still has it (a tenant deleted behind the host's back has not).
            var onBackend = false
            var generation = 0
        }

        let sandboxes = Mutex<[String: Sandbox]>([:])
        let peak = Mutex(0)
        /// Made on the backend again after their sandbox was removed: there for ever, in no record.
        let orphans = Mutex<Set<String>>([])
        let root = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("sandboxes-\(UUID().uuidString)")

        func sandboxIds() async throws -> [String] {
            await Task.yield()
            return sandboxes.withLock { $0.keys.sorted() }
        }

        func exists(_ id: String) async throws -> Bool {
            await Task.yield()
            return sandboxes.withLock { $0[id]?.onBackend ?? false }
        }

        func reserve(_ id: String) async throws {
            await Task.yield()
            sandboxes.withLock { sandboxes in
                if sandboxes[id] == nil { sandboxes[id] = Sandbox() }
                let count = sandboxes.count
                peak.withLock { $0 = max($0, count) }
            }
        }

        /// Looks, then makes what is missing, with a wait between as long as a remote store's calls take.
        func prepare(_ id: String, name: String) async throws -> Int {
            let missing = sandboxes.withLock { $0[id]?.onBackend != true }
            try await Task.sleep(for: .milliseconds(2))
            return sandboxes.withLock { sandboxes in
                if missing {
                    sandboxes[id, default: Sandbox()].onBackend = true
                    sandboxes[id]?.generation += 1
                }
                return sandboxes[id]?.generation ?? 0
            }
        }

        func owner(of id: String) async -> SandboxOwner? { sandboxes.withLock { $0[id]?.owner } }

        func setOwner(_ owner: SandboxOwner, of id: String) async throws {
            await Task.yield()
            sandboxes.withLock { $0[id]?.owner = owner }
        }

        func accountCount(of id: String) async throws -> Int {
            try await named(id)
            return sandboxes.withLock { $0[id]?.accounts ?? 0 }
        }

        func holdsWork(_ id: String) async throws -> Bool {
            try await named(id)
            return sandboxes.withLock { ($0[id]?.accounts ?? 0) > 0 || $0[id]?.appData == true }
        }

        func empty(_ id: String) async throws {
            try await named(id)
            sandboxes.withLock { $0[id]?.accounts = 0 }
        }

        /// A call naming the sandbox, as a remote store's does once it has read which tenant is the
        /// sandbox's: a backend that makes a tenant an administrator's call names (`authdeck serve`, the
        /// emulator) makes one removed in the meantime anew, in no record.
        private func named(_ id: String) async throws {
            let recorded = sandboxes.withLock { $0[id] != nil }
            await Task.yield()
            sandboxes.withLock { if recorded, $0[id] == nil { _ = orphans.withLock { $0.insert(id) } } }
        }

        func remove(_ id: String) async throws {
            await Task.yield()
            _ = sandboxes.withLock { $0.removeValue(forKey: id) }
        }

        func directory(of id: String) -> URL { root.appendingPathComponent(id) }

        func label(of id: String) async -> String { "tenant-of-\(id)" }

        func set(_ id: String, _ change: (inout Sandbox) -> Void) { sandboxes.withLock { change(&$0[id, default: Sandbox()]) } }
        var ids: [String] { sandboxes.withLock { $0.keys.sorted() } }
    }

    final class Clock: Sendable {
        let now = Mutex(Date(timeIntervalSince1970: 1_800_000_000))
        func advance(_ seconds: TimeInterval) { now.withLock { $0 += seconds } }
    }

    static func visit(_ user: String, key: String? = nil) -> ConsoleVisit {
        ConsoleVisit(role: .visitor, user: user, keyFingerprint: key, keyComment: nil, address: "10.0.0.1")
    }

    static func make(maximum: Int = 10) -> (VisitorSandboxes<MemoryStore>, MemoryStore, Clock) {
        let store = MemoryStore()
        let clock = Clock()
        var settings = VisitorSandboxes<MemoryStore>.Settings(maximum: maximum)
        settings.guestLifetime = 3600
        settings.keyedLifetime = 10 * 3600
        return (VisitorSandboxes(store: store, settings: settings, clock: { clock.now.withLock { $0 } }), store, clock)
    }

    @Test func aKeyGetsItsSandboxBackAndAGuestANewOneEachTime() async throws {
        let (sandboxes, store, _) = Self.make()
        let first = try await sandboxes.seat(for: Self.visit("ada", key: "SHA256:ada"))
        await sandboxes.leave(first.id)
        let again = try await sandboxes.seat(for: Self.visit("someone-else", key: "SHA256:ada"))
        #expect(again.id == first.id && again.access == first.access && again.keyed)
        // The name first chosen stays with the sandbox; the room shows it by the store's label.
        #expect(again.name == "ada" && again.label == "tenant-of-\(first.id)")
        let guest = try await sandboxes.seat(for: Self.visit("ben"))
        let other = try await sandboxes.seat(for: Self.visit("ben"))
        #expect(guest.id != other.id && guest.id.hasPrefix("guest-") && !guest.keyed)
        #expect(await store.owner(of: first.id)?.key == "SHA256:ada")
    }

    @Test func aGuestWhoLeavesWithNothingTakesTheSandboxAlongAndOneWithWorkLeavesIt() async throws {
        let (sandboxes, store, clock) = Self.make()
        let empty = try await sandboxes.seat(for: Self.visit("ada"))
        await sandboxes.leave(empty.id)
        #expect(!store.ids.contains(empty.id))
        let working = try await sandboxes.seat(for: Self.visit("ben"))
        store.set(working.id) { $0.appData = true }
        clock.advance(5)
        await sandboxes.leave(working.id)
        #expect(await store.owner(of: working.id)?.leftAt == clock.now.withLock { $0 })
        // A keyed visitor's empty sandbox stays for them to come back to.
        let keyed = try await sandboxes.seat(for: Self.visit("cy", key: "SHA256:cy"))
        await sandboxes.leave(keyed.id)
        #expect(store.ids.contains(keyed.id))
    }

    @Test func aSandboxGoneFromTheBackendIsMadeAnew() async throws {
        let (sandboxes, store, _) = Self.make()
        let first = try await sandboxes.seat(for: Self.visit("ada", key: "SHA256:ada"))
        await sandboxes.leave(first.id)
        store.set(first.id) { $0.onBackend = false }
        let again = try await sandboxes.seat(for: Self.visit("ada", key: "SHA256:ada"))
        #expect(again.id == first.id && again.access == first.access + 1)
        #expect(await store.owner(of: first.id)?.name == "ada")
    }

    @Test func atTheLimitTheEmptySandboxUnusedLongestMakesRoomAndWorkIsNeverRemoved() async throws {
        let (sandboxes, store, clock) = Self.make(maximum: 3)
        var ids: [String] = []
        for name in ["a", "b", "c"] {
            let seat = try await sandboxes.seat(for: Self.visit(name, key: "SHA256:\(name)"))
            clock.advance(10)
            await sandboxes.leave(seat.id)
            ids.append(seat.id)
        }
        store.set(ids[0]) { $0.accounts = 2 }
        let newcomer = try await sandboxes.seat(for: Self.visit("d", key: "SHA256:d"))
        #expect(store.ids == [ids[0], ids[2], newcomer.id].sorted())
        // Every other one holds work or is in use: the next is told, and nothing is removed.
        store.set(ids[2]) { $0.accounts = 1 }
        await #expect(throws: ConsoleRefusal.self) { try await sandboxes.seat(for: Self.visit("e", key: "SHA256:e")) }
        #expect(store.ids.count == 3 && store.ids.contains(ids[0]) && store.ids.contains(newcomer.id))
    }

    @Test func visitorsArrivingTogetherAtTheLimitNeverOverfillIt() async throws {
        let (sandboxes, store, _) = Self.make(maximum: 5)
        for index in 0..<5 {
            let seat = try await sandboxes.seat(for: Self.visit("k\(index)", key: "SHA256:k\(index)"))
            await sandboxes.leave(seat.id)
        }
        let outcomes = await withTaskGroup(of: Bool.self) { group in
            for index in 0..<12 {
                group.addTask { (try? await sandboxes.seat(for: Self.visit("g\(index)"))) != nil }
            }
            return await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(outcomes.filter { $0 }.count == 5)
        #expect(store.ids.count == 5 && store.peak.withLock { $0 } == 5)
    }

    @Test func theSweepRemovesWhatsTimeIsUpAndNothingInUse() async throws {
        let (sandboxes, store, clock) = Self.make()
        let guest = try await sandboxes.seat(for: Self.visit("ada"))
        store.set(guest.id) { $0.accounts = 1 }
        await sandboxes.leave(guest.id)
        let keyed = try await sandboxes.seat(for: Self.visit("ben", key: "SHA256:ben"))
        await sandboxes.leave(keyed.id)
        let connected = try await sandboxes.seat(for: Self.visit("cy"))
        store.set("not-a-visitors") { $0.onBackend = true }
        clock.advance(3600)
        await sandboxes.sweep()
        #expect(store.ids == [keyed.id, connected.id, "not-a-visitors"].sorted())
        clock.advance(9 * 3600)
        await sandboxes.sweep()
        #expect(store.ids == [connected.id, "not-a-visitors"].sorted())
    }

    @Test func theResetEmptiesTheVisitorsSandboxesOnlyAndCountsWhatItEmptied() async throws {
        let (sandboxes, store, _) = Self.make()
        let ada = try await sandboxes.seat(for: Self.visit("ada", key: "SHA256:ada"))
        let ben = try await sandboxes.seat(for: Self.visit("ben"))
        store.set(ada.id) { $0.accounts = 2 }
        store.set(ben.id) { $0.accounts = 1 }
        store.set("not-a-visitors") { $0.accounts = 7 }
        let count = try await sandboxes.demoCount()
        #expect(count.projects == 2 && count.accounts == 3)
        let done = try await sandboxes.resetDemo()
        #expect(Set(done.projects) == ["tenant-of-\(ada.id)", "tenant-of-\(ben.id)"] && done.accounts == 3)
        #expect(store.sandboxes.withLock { $0[ada.id]?.accounts == 0 && $0["not-a-visitors"]?.accounts == 7 })
        #expect(store.ids.contains(ada.id) && store.ids.contains(ben.id))
    }

    @Test func twoConnectionsWithOneKeyAtOnceShareOneSandbox() async throws {
        let (sandboxes, store, _) = Self.make(maximum: 20)
        for index in 0..<10 {
            let visit = Self.visit("k\(index)", key: "SHA256:k\(index)")
            async let first = sandboxes.seat(for: visit)
            async let second = sandboxes.seat(for: visit)
            let (one, other) = try await (first, second)
            #expect(one.id == other.id && one.access == 1 && other.access == 1)
        }
        #expect(store.sandboxes.withLock { $0.count == 10 && $0.values.allSatisfy { $0.generation == 1 } })
    }

    @Test func aResetWhileGuestsLeaveLeavesNothingOnTheBackendThatNoRecordNames() async throws {
        let (sandboxes, store, _) = Self.make(maximum: 100)
        for _ in 0..<10 {
            var seats: [VisitorSandboxes<MemoryStore>.Seat] = []
            for index in 0..<8 { seats.append(try await sandboxes.seat(for: Self.visit("g\(index)"))) }
            await withTaskGroup(of: Void.self) { group in
                group.addTask { _ = try? await sandboxes.resetDemo() }
                group.addTask { _ = try? await sandboxes.demoCount() }
                for seat in seats { group.addTask { await sandboxes.leave(seat.id) } }
            }
        }
        #expect(store.orphans.withLock { $0.isEmpty })
        #expect(store.ids.isEmpty)
    }

    @Test func theResetSkipsASandboxGoneFromTheBackend() async throws {
        let (sandboxes, store, _) = Self.make()
        let ada = try await sandboxes.seat(for: Self.visit("ada", key: "SHA256:ada"))
        let ben = try await sandboxes.seat(for: Self.visit("ben", key: "SHA256:ben"))
        store.set(ada.id) { $0.accounts = 2 }
        store.set(ben.id) { $0.onBackend = false }
        let count = try await sandboxes.demoCount()
        #expect(count.projects == 1 && count.accounts == 2)
        let done = try await sandboxes.resetDemo()
        #expect(done.projects == ["tenant-of-\(ada.id)"] && done.accounts == 2)
    }
}
