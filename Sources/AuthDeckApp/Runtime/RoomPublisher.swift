import Foundation
import RoomChannel
import Synchronization
import TerminalUI

/// What a console tells the room of itself, from the terminal's thread after each batch of events:
/// its status when it changed, and while someone follows it its screen as text, at most ten times
/// a second and only when it changed. A ticker wakes the loop meanwhile, so that the last change
/// goes out even when nothing else happens.
final class RoomPublisher {
    static let frameInterval = Duration.milliseconds(100)

    private let room: RoomClient
    private let ticker: FrameTicker
    private var status: ConsoleStatus?
    private var frame: [String]?
    private var frameSent = ContinuousClock.now - .seconds(1)

    init(room: RoomClient, waker: Waker) {
        self.room = room
        ticker = FrameTicker(waker: waker, interval: Self.frameInterval)
    }

    func publish(_ model: ConsoleModel, size: Size) {
        let now = model.roomStatus
        if now != status {
            status = now
            room.send(.status(now))
        }
        ticker.set(active: model.framesWanted)
        guard model.framesWanted else {
            frame = nil
            return
        }
        guard ContinuousClock.now - frameSent >= Self.frameInterval else { return }
        let rows = Self.frameRows(model, size: size)
        guard rows != frame else { return }
        frame = rows
        frameSent = .now
        room.send(.frame(ScreenFrame(columns: size.width, rows: rows)))
    }

    /// The screen as its follower sees it: a TOTP QR code as a grey block and its key as dots (on a
    /// projector either would hand the secret to every phone in the room).
    static func frameRows(_ model: ConsoleModel, size: Size) -> [String] {
        let canvas = TextCanvas(size: size)
        ConsoleView.draw(model, on: canvas)
        let secrets = model.screen.feature.secretsOnScreen.filter { !$0.isEmpty }
        return canvas.lines.enumerated().map { row, line in
            var line = line
            if model.screen.showsQRCode {
                let cells = Array(line) + Array(repeating: " ", count: max(0, canvas.size.width - line.count))
                if cells.indices.contains(where: { canvas.style(atRow: row, column: $0).role == .qrCode }) {
                    line = String(cells.indices.map { canvas.style(atRow: row, column: $0).role == .qrCode ? "▒" : cells[$0] })
                }
            }
            for secret in secrets { line = line.replacingOccurrences(of: secret, with: String(repeating: "•", count: secret.count)) }
            return line
        }
    }

    func end() {
        ticker.end()
        room.close()
    }
}

/// Wakes the terminal's loop every `interval` while active, on a thread of its own.
private final class FrameTicker: Sendable {
    private let state = Mutex((active: false, ended: false))
    private let resumed = DispatchSemaphore(value: 0)

    init(waker: Waker, interval: Duration) {
        let thread = Thread { [self] in
            while true {
                let (active, ended) = state.withLock { ($0.active, $0.ended) }
                if ended { return }
                if active {
                    Thread.sleep(forTimeInterval: Double(interval.components.attoseconds) / 1e18)
                    waker.wake()
                } else {
                    resumed.wait()
                }
            }
        }
        thread.name = "room frames"
        thread.stackSize = 128 * 1024
        thread.start()
    }

    func set(active: Bool) {
        let resume = state.withLock { state in
            defer { state.active = active }
            return active && !state.active
        }
        if resume { resumed.signal() }
    }

    func end() {
        state.withLock { $0.ended = true }
        resumed.signal()
    }
}
