import CThreads
import Foundation
import Synchronization

/// Blocking start-up work (SQLite, the signing key) on a thread of its own, started when it is
/// first awaited: the console asks for it once its first frame is on the screen. Swift's
/// cooperative pool is never blocked by it. Every wait gets the same outcome, the error included.
final class OpeningThread<Value: Sendable>: Sendable {
    private enum State {
        case notStarted(@Sendable () throws -> Value)
        /// Unsafe continuations, each resumed once: a checked one's type is made at run time when the
        /// console starts, with a scan of every protocol conformance in the binary before the first frame.
        case running(waiting: [UnsafeContinuation<Result<Value, any Error>, Never>])
        case finished(Result<Value, any Error>)
    }

    private let name: String
    private let state: Mutex<State>

    init(name: String, _ body: @escaping @Sendable () throws -> Value) {
        self.name = name
        state = Mutex(.notStarted(body))
    }

    var value: Value {
        get async throws { try await outcome.get() }
    }

    var outcome: Result<Value, any Error> {
        get async {
            await withUnsafeContinuation { continuation in
                let (outcome, start) = state.withLock { state -> (Result<Value, any Error>?, (@Sendable () throws -> Value)?) in
                    switch state {
                    case let .finished(outcome):
                        return (outcome, nil)
                    case var .running(waiting):
                        waiting.append(continuation)
                        state = .running(waiting: waiting)
                        return (nil, nil)
                    case let .notStarted(body):
                        state = .running(waiting: [continuation])
                        return (nil, body)
                    }
                }
                if let outcome { continuation.resume(returning: outcome) }
                if let start {
                    Thread { [self] in
                        authdeck_name_thread(name)
                        finish(Result { try start() })
                    }.start()
                }
            }
        }
    }

    private func finish(_ outcome: Result<Value, any Error>) {
        let waiting = state.withLock { state -> [UnsafeContinuation<Result<Value, any Error>, Never>] in
            guard case let .running(waiting) = state else { return [] }
            state = .finished(outcome)
            return waiting
        }
        for continuation in waiting { continuation.resume(returning: outcome) }
    }
}
