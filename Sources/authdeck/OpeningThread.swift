import Foundation
import Synchronization

/// Blocking start-up work (SQLite, the signing key) on a thread of its own, begun at once and
/// awaited later: the console draws its first frame meanwhile, and Swift's cooperative pool is
/// never blocked by it. Every wait gets the same outcome, the error included.
final class OpeningThread<Value: Sendable>: Sendable {
    private enum State {
        case running(waiting: [CheckedContinuation<Result<Value, any Error>, Never>])
        case finished(Result<Value, any Error>)
    }

    private let state = Mutex(State.running(waiting: []))

    init(name: String, _ body: @escaping @Sendable () throws -> Value) {
        let thread = Thread { [self] in finish(Result { try body() }) }
        thread.name = name
        thread.start()
    }

    var value: Value {
        get async throws { try await outcome.get() }
    }

    var outcome: Result<Value, any Error> {
        get async {
            await withCheckedContinuation { continuation in
                let outcome: Result<Value, any Error>? = state.withLock { state in
                    switch state {
                    case let .finished(outcome):
                        return outcome
                    case var .running(waiting):
                        waiting.append(continuation)
                        state = .running(waiting: waiting)
                        return nil
                    }
                }
                if let outcome { continuation.resume(returning: outcome) }
            }
        }
    }

    private func finish(_ outcome: Result<Value, any Error>) {
        let waiting = state.withLock { state -> [CheckedContinuation<Result<Value, any Error>, Never>] in
            guard case let .running(waiting) = state else { return [] }
            state = .finished(outcome)
            return waiting
        }
        for continuation in waiting { continuation.resume(returning: outcome) }
    }
}
