import Foundation

/// Firebase's auth-state listeners: every change of the signed-in user goes to each stream.
extension Auth {
    /// A stream of the signed-in user, starting with the current one (Firebase's auth-state listener).
    public func authStateChanges() -> AsyncStream<User?> {
        let (stream, continuation) = AsyncStream<User?>.makeStream(bufferingPolicy: .bufferingNewest(16))
        let id = UUID()
        listeners[id] = continuation
        continuation.yield(session?.user)
        continuation.onTermination = { [weak self] _ in
            Task { await self?.removeListener(id) }
        }
        return stream
    }

    func removeListener(_ id: UUID) { listeners[id] = nil }

    func notify() {
        for listener in listeners.values { listener.yield(session?.user) }
    }
}
