import Foundation
import Synchronization

/// The projects other than the default whose databases are open, and who is using them. A request
/// leases its project for as long as it runs, so that it is never closed under it; a project handed
/// to a caller outside (`BackendProjects.project`) is kept, since that caller holds it. Any other
/// may be taken out to be closed: when unused for a while, or the least recently used when the
/// descriptor budget is spent. A project taken out opens again at its next request.
final class OpenProjects: Sendable {
    private struct Entry {
        let backend: EmbeddedBackend
        var leases = 0
        var kept = false
        var lastUsed = ContinuousClock.now
    }

    private let entries = Mutex<[String: Entry]>([:])

    var count: Int { entries.withLock { $0.count } }

    func contains(_ id: String) -> Bool { entries.withLock { $0[id] != nil } }

    /// Whether `backend` is still the open one of its id: false once removed (a leased one is taken out only so).
    func holds(_ backend: EmbeddedBackend) -> Bool { entries.withLock { $0[backend.openKey]?.backend === backend } }

    /// The open project, leased (`release` it) or kept; nil when it is not open.
    func lease(_ id: String, keep: Bool = false) -> EmbeddedBackend? {
        entries.withLock { entries in
            guard var entry = entries[id] else { return nil }
            if keep { entry.kept = true } else { entry.leases += 1 }
            entry.lastUsed = .now
            entries[id] = entry
            return entry.backend
        }
    }

    /// A project just opened, leased or kept as `lease` would.
    func insert(_ id: String, _ backend: EmbeddedBackend, keep: Bool = false) {
        entries.withLock { $0[id] = Entry(backend: backend, leases: keep ? 0 : 1, kept: keep) }
    }

    func release(_ backend: EmbeddedBackend) {
        entries.withLock { entries in
            // A project emptied or removed meanwhile is another entry, or none.
            guard var entry = entries[backend.openKey], entry.backend === backend else { return }
            entry.leases -= 1
            entry.lastUsed = .now
            entries[backend.openKey] = entry
        }
    }

    /// Takes a project out whoever uses it: it is being removed or emptied.
    func remove(_ id: String) -> EmbeddedBackend? { entries.withLock { $0.removeValue(forKey: id)?.backend } }

    /// Takes out every open tenant of a project (`EmbeddedBackend.openKey`): the project is being removed.
    func removeTenants(of projectId: String) -> [EmbeddedBackend] {
        entries.withLock { entries in
            let tenants = entries.filter { $0.value.backend.tenantId != nil && $0.value.backend.projectId == projectId }
            for key in tenants.keys { entries.removeValue(forKey: key) }
            return tenants.values.map(\.backend)
        }
    }

    func removeAll() -> [EmbeddedBackend] {
        entries.withLock { entries in
            defer { entries.removeAll() }
            return entries.values.map(\.backend)
        }
    }

    /// Takes out, to be closed, up to `limit` projects that no request uses and no caller keeps, unused
    /// since `before` when given, the least recently used first.
    func takeIdle(limit: Int, unusedSince before: ContinuousClock.Instant? = nil) -> [EmbeddedBackend] {
        guard limit > 0 else { return [] }
        return entries.withLock { entries in
            let idle = entries.filter { _, entry in
                !entry.kept && entry.leases == 0 && (before.map { entry.lastUsed < $0 } ?? true)
            }.sorted { $0.value.lastUsed < $1.value.lastUsed }.prefix(limit)
            for (id, _) in idle { entries.removeValue(forKey: id) }
            return idle.map(\.value.backend)
        }
    }
}
