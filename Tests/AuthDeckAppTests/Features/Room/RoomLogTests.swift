@testable import AuthDeckApp
import Foundation
import RoomChannel
import SnapshotTesting
import Testing
import TerminalUI

/// The room's log (`l`): the events the server pushes with each snapshot, newest last, wrapped at words.
@Suite("The room's log")
struct RoomLogTests {
    typealias F = RoomFixtures

    static let start = Date(timeIntervalSince1970: 1_790_000_000)

    static func event(_ seconds: Double, _ text: String) -> RoomEvent { RoomEvent(date: start.addingTimeInterval(seconds), text: text) }

    static let log = [
        event(0, "alice@127.0.0.1 joined, an operator"),
        event(12, "v1@10.0.0.1 joined, project guest-10000000000"),
        event(30, "v2@10.0.0.2 joined, project guest-20000000000"),
        event(75, "alice@127.0.0.1 sent to 2 visitors: Open the phone sign-in now and type the number shown on the projector, then wait for the…"),
        event(90, "v2@10.0.0.2 left after 1m, project guest-20000000000"),
        event(95, "alice@127.0.0.1 ended v1@10.0.0.1, project guest-10000000000"),
        event(120, "alice@127.0.0.1 reset the demo: 2 projects, 5 accounts, 0 visitors told"),
    ]

    static func withLog(_ log: [RoomEvent] = log) -> ConsoleModel {
        var snapshot = F.snapshot
        snapshot.log = log
        return F.opened(snapshot)
    }

    @Test func lShowsTheLogAndBack() {
        var store = FlowStore(Self.withLog())
        #expect(store.model.bindings.contains { $0.keys == [.character("l")] && $0.inBar })
        #expect(render(store.model).contains("l log"))
        store.send(.key(.character("l"))) { $0.room { $0.showingLog = true } }
        let screen = render(store.model)
        #expect(screen.contains("Room log · 7 events, newest last"))
        #expect(screen.contains("14:13:32  v1@10.0.0.1 joined, project guest-10000000000"))
        // Newest last: the reset is the last line of the log.
        let lines = screen.split(separator: "\n").map(String.init)
        let reset = lines.lastIndex { $0.contains("reset the demo: 2 projects, 5 accounts, 0 visitors") }
        let ended = lines.lastIndex { $0.contains("ended v1@10.0.0.1") }
        #expect(reset != nil && ended != nil && ended! < reset!)
        store.send(.key(.character("l"))) {
            $0.room { $0.showingLog = false }
        }
        store.send(.key(.character("l"))) { $0.room { $0.showingLog = true } }
        store.send(.key(.escape)) { $0.room { $0.showingLog = false } }
    }

    @Test func theLogScrollsBackAndReturnsToTheNewest() {
        let many = (0..<60).map { Self.event(Double($0), "demo@10.0.0.\($0) joined, project guest-\($0)") }
        var store = FlowStore(Self.withLog(many))
        store.send(.key(.character("l"))) { $0.room { $0.showingLog = true } }
        #expect(render(store.model).contains("10.0.0.59 joined"))
        store.send(.key(.up)) { $0.room { $0.logScroll = 1 } }
        #expect(!render(store.model).contains("10.0.0.59 joined"))
        #expect(render(store.model).contains("1 line back (G: newest)"))
        store.send(.key(.pageUp)) { $0.room { $0.logScroll = 1 + RoomFeature.visibleRows } }
        store.send(.key(.pageDown)) { $0.room { $0.logScroll = 1 } }
        store.send(.key(.down)) { $0.room { $0.logScroll = 0 } }
        store.send(.key(.down))
        store.send(.key(.character("g"))) { $0.room { $0.logScroll = 60 } }
        #expect(render(store.model).contains("10.0.0.0 joined"))
        store.send(.key(.character("G"))) { $0.room { $0.logScroll = 0 } }
        // The message and the reset work from the log as from the table.
        store.send(.key(.character("M"))) { $0.room { $0.panel = .message(TextField(maxLength: RoomText.messageLimit), to: nil) } }
        store.send(.key(.escape)) { $0.room { $0.panel = nil } }
        store.send(.key(.character("R")), effects: [.room(.send(.previewReset))]) { $0.busy = "Counting what a reset empties…" }
    }

    @Test func theLogFollowsEachSnapshot() {
        var store = FlowStore(Self.withLog([]))
        store.send(.key(.character("l"))) { $0.room { $0.showingLog = true } }
        #expect(render(store.model).contains("Nothing has happened yet."))
        var snapshot = F.snapshot
        snapshot.log = Array(Self.log.prefix(2))
        store.send(.feature(RoomFeature.Event.snapshot(snapshot))) { $0.lastRoomSnapshot = snapshot; $0.room { $0.snapshot = snapshot } }
        #expect(render(store.model).contains("v1@10.0.0.1 joined"))
    }

    @Test func theLogAt80x24() {
        var model = Self.withLog()
        model.room { $0.showingLog = true }
        assertSnapshot(of: render(model), as: .lines)
    }

    @Test func theTableWithItsLogKeyAt80x24() {
        assertSnapshot(of: render(Self.withLog()), as: .lines)
    }
}
