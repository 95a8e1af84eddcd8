import AppData
import AuthClient
import Foundation
import Logging
import Synchronization
import TerminalUI

/// What the effect runner works with: the backend and the app data, which take longer to open than
/// a frame takes to draw.
public struct ConsoleServices: Sendable {
    public let auth: Auth
    public let cart: CartStore
    public let outbox: AuthEmulatorOutbox?

    public init(auth: Auth, cart: CartStore, outbox: AuthEmulatorOutbox? = nil) {
        self.auth = auth
        self.cart = cart
        self.outbox = outbox
    }
}

/// Wires the pieces together: terminal events and effect results go into the model, the
/// model's effects go to the runner, and every batch of events ends with one frame.
public enum ConsoleApp {
    /// Draws the first frame, then calls `open` for the services; the effects asked for meanwhile (keys
    /// that need the backend) wait for them, in order. If `open` throws, the loop ends with its error.
    /// `open` starts after the first frame, not beside it: on two busy cores, opening SQLite beside the
    /// terminal's start delayed the first frame by about 2 ms (the terminal's thread waited for a core).
    /// `sessionSaved`: whether a saved session may be restored; without one, the sign-in methods are
    /// the first screen and need nothing opened.
    public static func run(terminal: Terminal, sessionSaved: Bool, open: @escaping @Sendable () async throws -> ConsoleServices,
                           simulatedIdentityOwner: String? = nil, audience: ConsoleAudience = .everyone,
                           accounts: AccountsConnection? = nil, room: RoomClient? = nil, backendName: String, tenant: String? = nil, remoteTerminal: Bool = false,
                           recentLoginWindow: RecentLoginWindow = .firebase, sdk: SDKPlatform? = nil, logger: Logger) throws {
        let mailbox = Mailbox(waker: terminal.waker)
        let runner = PendingRunner()
        defer { runner.end() }
        let waker = terminal.waker
        var (model, effects) = ConsoleModel.start(backendName: backendName, operatorAccess: accounts?.access, inRoom: room != nil,
                                                  sessionSaved: sessionSaved, sdk: sdk)
        model.remoteTerminal = remoteTerminal
        model.tenant = tenant
        model.recentLoginWindow = recentLoginWindow
        effects += model.handle(.resized(terminal.size))
        effects.forEach(runner.run)
        let publisher = room.map { RoomPublisher(room: $0, waker: waker) }
        defer { publisher?.end() }
        room?.start { message in
            if let event = ConsoleEvent(message) { mailbox.post(event) }
        }
        publisher?.publish(model, size: terminal.size)
        try terminal.run({ event in
            let events: [ConsoleEvent]
            switch event {
            case let .key(key): events = [.key(key)]
            case let .resize(size): events = [.resized(size)]
            case .wake:
                if let error = runner.failure { throw error }
                events = mailbox.drain()
            }
            for event in events {
                let effects = model.handle(event)
                if effects.contains(.quit) { return .quit }
                effects.forEach(runner.run)
            }
            if let text = model.teachingSession.clipboard {
                terminal.copyToClipboard(text)
                model.teachingSession.clipboard = nil
            }
            publisher?.publish(model, size: terminal.size)
            return .continue
        }, draw: { canvas in
            ConsoleView.draw(model, on: canvas)
        }, afterFirstFrame: {
            Task {
                do {
                    let services = try await open()
                    runner.open {
                        EffectRunner(auth: services.auth, cart: services.cart, outbox: services.outbox, simulatedIdentityOwner: simulatedIdentityOwner,
                                     audience: audience, accounts: accounts, room: room, logger: logger, send: mailbox.post)
                    }
                } catch {
                    runner.fail(error)
                    waker.wake()
                }
            }
        })
    }
}

/// The effect runner once its services are open. Effects asked for before then wait here and go to
/// it in the order they were asked for; once the console has ended, or the services failed to open, none runs.
final class PendingRunner: Sendable {
    private enum State {
        case opening(waiting: [ConsoleEffect])
        case open(EffectRunner)
        case failed(any Error)
        case ended
    }

    private let state = Mutex(State.opening(waiting: []))

    func run(_ effect: ConsoleEffect) {
        state.withLock { state in
            switch state {
            case var .opening(waiting):
                waiting.append(effect)
                state = .opening(waiting: waiting)
            case let .open(runner):
                runner.run(effect)
            case .failed, .ended:
                break
            }
        }
    }

    /// Makes the runner, unless the console has ended, and hands it what waited.
    func open(_ make: () -> EffectRunner) {
        state.withLock { state in
            guard case let .opening(waiting) = state else { return }
            let runner = make()
            runner.observe()
            waiting.forEach(runner.run)
            state = .open(runner)
        }
    }

    func fail(_ error: any Error) {
        state.withLock { state in
            guard case .opening = state else { return }
            state = .failed(error)
        }
    }

    /// Why the services could not be opened, once that is known.
    var failure: (any Error)? {
        state.withLock { state in
            guard case let .failed(error) = state else { return nil }
            return error
        }
    }

    /// The console has ended: the runner goes, and with it its queue.
    func end() {
        state.withLock { $0 = .ended }
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
