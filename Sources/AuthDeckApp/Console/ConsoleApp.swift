import AppData
import AuthClient
import Foundation
import Logging
import Synchronization
import TerminalUI

/// Wires the pieces together: terminal events and effect results go into the model, the
/// model's effects go to the runner, and every batch of events ends with one frame.
public enum ConsoleApp {
    public static func run(terminal: Terminal, auth: Auth, cart: CartStore, outbox: AuthEmulatorOutbox? = nil,
                           simulatedIdentityOwner: String? = nil, audience: ConsoleAudience = .everyone,
                           accounts: AccountsConnection? = nil, backendName: String, logger: Logger) throws {
        let mailbox = Mailbox(waker: terminal.waker)
        let runner = EffectRunner(auth: auth, cart: cart, outbox: outbox, simulatedIdentityOwner: simulatedIdentityOwner,
                                  audience: audience, accounts: accounts, logger: logger, send: mailbox.post)
        var (model, effects) = ConsoleModel.start(backendName: backendName, operatorAccess: accounts?.access)
        effects += model.handle(.resized(terminal.size))
        runner.observe()
        effects.forEach(runner.run)
        try terminal.run({ event in
            let events: [ConsoleEvent] = switch event {
            case let .key(key): [.key(key)]
            case let .resize(size): [.resized(size)]
            case .wake: mailbox.drain()
            }
            for event in events {
                let effects = model.handle(event)
                if effects.contains(.quit) { return .quit }
                effects.forEach(runner.run)
            }
            return .continue
        }, draw: { canvas in
            ConsoleView.draw(model, on: canvas)
        })
    }
}

/// Events from effect tasks, waiting for the loop thread; posting wakes the loop.
final class Mailbox: Sendable {
    private let queue = Mutex<[ConsoleEvent]>([])
    private let waker: Waker

    init(waker: Waker) { self.waker = waker }

    @Sendable func post(_ event: ConsoleEvent) {
        queue.withLock { $0.append(event) }
        waker.wake()
    }

    func drain() -> [ConsoleEvent] {
        queue.withLock { queue in
            defer { queue.removeAll() }
            return queue
        }
    }
}
