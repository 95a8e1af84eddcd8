import Synchronization

/// A session that ends with the process: for consoles that share a backend (one per SSH
/// visitor), which must neither restore nor overwrite anybody's saved session.
public final class InMemorySessionStore: SessionStore {
    private let session = Mutex<PersistedSession?>(nil)

    public init() {}

    public func load() throws -> PersistedSession? { session.withLock { $0 } }

    public func save(_ newSession: PersistedSession?) throws { session.withLock { $0 = newSession } }
}
