import Foundation
import Logging
import NIOCore
import RoomChannel
import Synchronization
import Testing
@testable import SSHServer

/// The server's room: who is in it, what their consoles said, and what an operator's commands do
/// to the others, each console seen through what its channel was sent.
@Suite struct RoomRegistryTests {
    /// One console's channel: what it was sent, and whether it was ended.
    final class Console: Sendable {
        let sent = Mutex<[RoomMessage]>([])
        let ended = Mutex<String?>(nil)
        var link: RoomRegistry.Link {
            RoomRegistry.Link(send: { message, _ in self.sent.withLock { $0.append(message) } }, end: { notice in self.ended.withLock { $0 = notice } })
        }
        /// What was sent since the last look.
        func take() -> [RoomMessage] {
            sent.withLock { sent in
                defer { sent.removeAll() }
                return sent
            }
        }
    }

    final class Counter: Sendable {
        let value = Mutex(0)
        func add() { value.withLock { $0 += 1 } }
        var count: Int { value.withLock { $0 } }
    }

    /// The registry's reset work, run when the test says: `run()` is the work finishing.
    final class Jobs: Sendable {
        let pending = Mutex<[@Sendable () async -> Void]>([])
        func add(_ job: @escaping @Sendable () async -> Void) { pending.withLock { $0.append(job) } }
        func run() async {
            while let job = pending.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) { await job() }
        }
    }

    final class Clock: Sendable {
        let now = Mutex(NIODeadline.uptimeNanoseconds(1_000_000_000_000))
        func advance(_ seconds: Int64) { now.withLock { $0 = $0 + .seconds(seconds) } }
    }

    /// The registry's each-second timer, run by hand: `tick()` is a second passing.
    final class Ticker: Sendable {
        let running = Mutex<(@Sendable () -> Void)?>(nil)
        let starts = Mutex(0)
        var isRunning: Bool { running.withLock { $0 != nil } }
        func start(_ tick: @escaping @Sendable () -> Void) -> @Sendable () -> Void {
            running.withLock { $0 = tick }
            starts.withLock { $0 += 1 }
            return { self.running.withLock { $0 = nil } }
        }
        func tick() { running.withLock { $0 }?() }
    }

    struct Room {
        let registry: RoomRegistry
        let clock = Clock()
        let ticker = Ticker()
        let visitors = [Console(), Console(), Console()]
        let presenter = Console()
        var ids: [Int] = []
        var presenterId = 0
        let resets = Counter()
        let jobs = Jobs()

        init(reset: Bool = true) {
            let clock = clock
            let resets = resets
            let ticker = ticker
            let jobs = jobs
            let demo = DemoReset(count: { (projects: 4, accounts: 12) }, reset: {
                resets.add()
                return (projects: ["visitor-a", "guest-b", "guest-gone"], accounts: 12)
            })
            registry = RoomRegistry(reset: reset ? demo : nil, logger: Logger(label: "test"), everySecond: { ticker.start($0) },
                                    clock: { clock.now.withLock { $0 } }, offThread: { jobs.add($0) })
            for (index, console) in visitors.enumerated() {
                ids.append(registry.join(user: ["ada", "ben", "cy"][index], address: "10.0.0.\(index + 1)", key: index == 0 ? "SHA256:abc" : nil, isOperator: false,
                                         project: ["visitor-a", "guest-b", "guest-c"][index], link: console.link))
            }
            presenterId = registry.join(user: "alice", address: "127.0.0.1", key: "SHA256:op", isOperator: true, project: nil, link: presenter.link)
        }
    }

    @Test func theSnapshotListsEverySessionWithWhatItsConsoleSaid() {
        let room = Room()
        room.clock.advance(30)
        room.registry.received(.status(ConsoleStatus(screen: "Phone sign-in: code sent")), from: room.ids[1])
        room.registry.received(.status(ConsoleStatus(screen: "\u{1B}[2J" + String(repeating: "x", count: 500), uid: "u\u{07}1")), from: room.ids[2])
        room.registry.touch(room.ids[1])
        room.clock.advance(5)
        let snapshot = room.registry.snapshot(for: room.presenterId)
        #expect(snapshot.viewer == room.presenterId)
        #expect(snapshot.sessions.map(\.address) == ["10.0.0.1", "10.0.0.2", "10.0.0.3", "127.0.0.1"])
        #expect(snapshot.sessions.map(\.project) == ["visitor-a", "guest-b", "guest-c", nil])
        #expect(snapshot.sessions[1].status?.screen == "Phone sign-in: code sent")
        #expect(snapshot.sessions[1].connectedSeconds == 35 && snapshot.sessions[1].idleSeconds == 5)
        #expect(snapshot.sessions[0].idleSeconds == 35 && snapshot.sessions[0].key == "SHA256:abc")
        // A console's words reach the tables short and printable.
        #expect(snapshot.sessions[2].status == ConsoleStatus(screen: "[2J" + String(repeating: "x", count: 57), uid: "u 1"))
        // Pushed to the operator only.
        room.registry.pushSnapshots()
        #expect(room.presenter.take() == [.room(snapshot)])
        #expect(room.visitors.allSatisfy { $0.take().isEmpty })
        room.registry.leave(room.ids[2])
        #expect(room.registry.snapshot(for: room.presenterId).sessions.count == 3)
    }

    /// Snapshots go out each second while an operator is in the room, and only then: a room of
    /// visitors alone keeps no timer.
    @Test func snapshotsRunWhileAnOperatorIsInTheRoom() {
        let room = Room()
        #expect(room.ticker.isRunning)
        room.ticker.tick()
        guard case .room? = room.presenter.take().last else { Issue.record("no snapshot pushed"); return }
        let second = Console()
        let secondId = room.registry.join(user: "bob", address: "127.0.0.1", key: "SHA256:op2", isOperator: true, project: nil, link: second.link)
        room.registry.leave(room.presenterId)
        #expect(room.ticker.isRunning)
        room.registry.leave(secondId)
        #expect(!room.ticker.isRunning)
        // Visitors come and go: still none.
        let visitor = Console()
        room.registry.leave(room.registry.join(user: "demo", address: "10.0.0.7", key: nil, isOperator: false, project: "guest-g", link: visitor.link))
        #expect(!room.ticker.isRunning)
        let third = room.registry.join(user: "carol", address: "127.0.0.1", key: "SHA256:op3", isOperator: true, project: nil, link: Console().link)
        #expect(room.ticker.isRunning && room.ticker.starts.withLock { $0 } == 2)
        room.registry.stopSnapshots()
        #expect(!room.ticker.isRunning)
        room.registry.leave(third)
        #expect(room.visitors.allSatisfy { !$0.take().contains { if case .room = $0 { true } else { false } } })
    }

    /// The log the operators' snapshots carry: who came and went with their project, what operators
    /// did and to whom, newest last, printable, messages shortened, and only the latest kept.
    @Test func theLogTellsWhoCameAndWentAndWhatOperatorsDid() async {
        let room = Room()
        let texts = { room.registry.snapshot(for: room.presenterId).log.map(\.text) }
        #expect(texts() == ["ada@10.0.0.1 joined, project visitor-a", "ben@10.0.0.2 joined, project guest-b",
                            "cy@10.0.0.3 joined, project guest-c", "alice@127.0.0.1 joined, an operator"])
        room.registry.received(.command(.message("Look \u{1B}[31mhere\u{07}")), from: room.presenterId)
        room.registry.received(.command(.message("word " + String(repeating: "x", count: 190))), from: room.presenterId)
        let sentence = (0..<30).map { "word\($0)" }.joined(separator: " ")
        room.registry.received(.command(.message(sentence)), from: room.presenterId)
        room.registry.received(.command(.end(session: room.ids[1])), from: room.presenterId)
        room.clock.advance(125)
        room.registry.leave(room.ids[1])
        room.registry.received(.command(.reset), from: room.presenterId)
        await room.jobs.run()
        #expect(Array(texts().dropFirst(4)) == [
            "alice@127.0.0.1 sent to 3 visitors: Look [31mhere",
            "alice@127.0.0.1 sent to 3 visitors: word " + String(repeating: "x", count: RoomRegistry.loggedMessageLimit - 5) + "…",
            // Cut after the last whole word that fits.
            "alice@127.0.0.1 sent to 3 visitors: " + (0..<13).map { "word\($0)" }.joined(separator: " ") + "…",
            "alice@127.0.0.1 ended ben@10.0.0.2, project guest-b",
            "ben@10.0.0.2 left after 2m, project guest-b",
            // The visitor who left is not told.
            "alice@127.0.0.1 reset the demo: 3 projects, 12 accounts, 1 visitor told",
        ])
        // Pushed to the operator with the sessions, never to a visitor.
        room.registry.pushSnapshots()
        guard case let .room(pushed) = room.presenter.take().last else { Issue.record("no snapshot pushed"); return }
        #expect(pushed.log.map(\.text) == texts())
        #expect(room.visitors.allSatisfy { !$0.take().contains { if case .room = $0 { true } else { false } } })
        // A name of control characters is printable in the log; the log keeps the latest events only.
        let odd = Console()
        let id = room.registry.join(user: "e\u{1B}[2Jve", address: "10.0.0.9", key: nil, isOperator: false, project: "guest-e", link: odd.link)
        #expect(texts().last == "e?[2Jve@10.0.0.9 joined, project guest-e")
        for _ in 0..<RoomRegistry.logLimit { room.registry.touch(id); room.registry.received(.command(.message("hi")), from: room.presenterId) }
        #expect(texts().count == RoomRegistry.logLimit)
        #expect(texts().allSatisfy { $0 == "alice@127.0.0.1 sent to 3 visitors: hi" })
    }

    @Test func aMessageReachesEveryVisitorCleanedAndTheOperatorIsTold() {
        let room = Room()
        room.registry.received(.command(.message("Look \u{1B}[31mhere\u{07}")), from: room.presenterId)
        for visitor in room.visitors { #expect(visitor.take() == [.notice(.message("Look [31mhere"))]) }
        #expect(room.presenter.take() == [.answered("Sent to 3 visitors: Look [31mhere")])
        room.registry.received(.command(.message(String(repeating: "a", count: 10_240))), from: room.presenterId)
        let cut = String(repeating: "a", count: RoomText.messageLimit)
        for visitor in room.visitors { #expect(visitor.take() == [.notice(.message(cut))]) }
        #expect(room.presenter.take() == [.answered("Sent to 3 visitors (cut to 200 characters): \(cut)")])
        room.registry.received(.command(.message(" \u{00} ")), from: room.presenterId)
        #expect(room.presenter.take() == [.refused("The message is empty.")])
    }

    /// Refused visitors are in the log, a client retrying in a loop on one line with its count.
    @Test func refusalsAreLoggedOnceWithTheirCount() {
        let room = Room()
        let texts = { room.registry.snapshot(for: room.presenterId).log.map(\.text) }
        room.registry.refused(user: "eve", address: "10.0.0.9", reason: "the room is full (--max-sessions 3)")
        room.registry.refused(user: "eve", address: "10.0.0.9", reason: "the room is full (--max-sessions 3)")
        room.registry.refused(user: "eve", address: "10.0.0.9", reason: "the room is full (--max-sessions 3)")
        #expect(texts().last == "eve@10.0.0.9 was turned away: the room is full (--max-sessions 3) (3 times)")
        room.registry.received(.command(.message("hi")), from: room.presenterId)
        room.registry.refused(user: "eve", address: "10.0.0.9", reason: "the room is full (--max-sessions 3)")
        #expect(Array(texts().suffix(3)) == ["eve@10.0.0.9 was turned away: the room is full (--max-sessions 3) (3 times)",
                                             "alice@127.0.0.1 sent to 3 visitors: hi",
                                             "eve@10.0.0.9 was turned away: the room is full (--max-sessions 3)"])
    }

    /// A message to one visitor reaches them alone; the log and the presenter say to whom.
    @Test func aMessageToOneVisitorReachesThemAlone() {
        let room = Room()
        room.registry.received(.command(.messageOne(session: room.ids[1], "Try\u{07} again")), from: room.presenterId)
        #expect(room.visitors[1].take() == [.notice(.message("Try again"))])
        #expect(room.visitors[0].take().isEmpty && room.visitors[2].take().isEmpty)
        #expect(room.presenter.take() == [.answered("Sent to ben@10.0.0.2: Try again")])
        #expect(room.registry.snapshot(for: room.presenterId).log.last?.text == "alice@127.0.0.1 sent to ben@10.0.0.2: Try again")
        room.registry.received(.command(.messageOne(session: room.presenterId, "me")), from: room.presenterId)
        #expect(room.presenter.take() == [.refused("Messages go to visitors; that is an operator.")])
        room.registry.leave(room.ids[2])
        room.registry.received(.command(.messageOne(session: room.ids[2], "hello")), from: room.presenterId)
        #expect(room.presenter.take() == [.refused("That session has already ended.")])
    }

    @Test func aVisitorsConsoleCannotCommandTheRoom() async {
        let room = Room()
        room.registry.received(.command(.message("pwned")), from: room.ids[0])
        room.registry.received(.command(.messageOne(session: room.ids[1], "pwned")), from: room.ids[0])
        room.registry.received(.command(.end(session: room.presenterId)), from: room.ids[0])
        room.registry.received(.command(.reset), from: room.ids[0])
        await room.jobs.run()
        #expect(room.visitors.allSatisfy { $0.take().isEmpty })
        #expect(room.presenter.take().isEmpty && room.presenter.ended.withLock { $0 } == nil)
        #expect(room.resets.count == 0)
    }

    @Test func endingASessionEndsThatOneOnly() {
        let room = Room()
        room.registry.received(.command(.end(session: room.ids[1])), from: room.presenterId)
        #expect(room.visitors[1].take() == [.notice(.ending("The presenter ended this session."))])
        #expect(room.visitors[1].ended.withLock { $0 } == "AuthDeck: the presenter ended this session.")
        #expect(room.visitors[0].ended.withLock { $0 } == nil && room.visitors[2].ended.withLock { $0 } == nil)
        #expect(room.presenter.take() == [.answered("Ended ben@10.0.0.2.")])
        room.registry.received(.command(.end(session: room.presenterId)), from: room.presenterId)
        #expect(room.presenter.take() == [.refused("That is your own session: quit it with q.")])
        room.registry.leave(room.ids[1])
        room.registry.received(.command(.end(session: room.ids[1])), from: room.presenterId)
        #expect(room.presenter.take() == [.refused("That session has already ended.")])
    }

    /// A session is in the room from login: "Logging in" until its console runs, when its row
    /// reaches the console (a follower asked for before gets its frames then), and the log says it joined.
    @Test func aSessionLoggingInIsListedCanBeEndedAndJoinsWhenItsConsoleRuns() {
        let room = Room()
        let waiting = Console()
        let id = room.registry.join(user: "demo", address: "10.0.0.9", key: nil, isOperator: false, project: nil, link: waiting.link, loggingIn: true)
        let listed = room.registry.snapshot(for: room.presenterId).sessions.first { $0.id == id }
        #expect(listed?.status == RoomRegistry.loggingIn && listed?.project == nil)
        #expect(!room.registry.snapshot(for: room.presenterId).log.contains { $0.text.contains("10.0.0.9") })
        room.registry.received(.command(.follow(session: id)), from: room.presenterId)
        let console = Console()
        room.registry.consoleStarted(id, project: "guest-z", link: console.link)
        #expect(console.take() == [.sendFrames(true), .notice(.watched(true))])
        let started = room.registry.snapshot(for: room.presenterId)
        #expect(started.sessions.first { $0.id == id }?.status == nil && started.sessions.first { $0.id == id }?.project == "guest-z")
        #expect(started.log.last?.text == "demo@10.0.0.9 joined, project guest-z")
        // Ended while logging in, it is its connection that goes.
        let other = Console()
        let pending = room.registry.join(user: "demo", address: "10.0.0.8", key: nil, isOperator: false, project: nil, link: other.link, loggingIn: true)
        room.registry.received(.command(.end(session: pending)), from: room.presenterId)
        #expect(other.ended.withLock { $0 } != nil)
    }

    /// How long a console has shown one screen or step: a new screen starts the count again, a
    /// new uid or failure on the same one does not; the failure's code reaches the table cleaned.
    @Test func theRoomCountsTimeOnOneStepAndKeepsTheLastFailure() {
        let room = Room()
        let seconds = { room.registry.snapshot(for: room.presenterId).sessions.first { $0.id == room.ids[0] }?.stepSeconds }
        room.registry.received(.status(ConsoleStatus(screen: "Sign in with email")), from: room.ids[0])
        room.clock.advance(100)
        room.registry.received(.status(ConsoleStatus(screen: "Sign in with email", failure: "TOO_MANY\u{1B}[2J_ATTEMPTS")), from: room.ids[0])
        room.clock.advance(100)
        #expect(seconds() == 200)
        #expect(room.registry.snapshot(for: room.presenterId).sessions[0].status?.failure == "TOO_MANY [2J_ATTEMPTS")
        room.registry.received(.status(ConsoleStatus(screen: "Account", uid: "u1")), from: room.ids[0])
        room.clock.advance(5)
        #expect(seconds() == 5)
    }

    /// Visitors are named by what they typed; the same name twice is told apart in the table and the log.
    @Test func twoVisitorsOfOneNameAreToldApart() {
        let room = Room()
        let second = room.registry.join(user: "ada", address: "10.0.0.8", key: nil, isOperator: false, project: "guest-x", link: Console().link)
        let third = room.registry.join(user: "ada", address: "10.0.0.9", key: nil, isOperator: false, project: "guest-y", link: Console().link)
        let names = { Dictionary(uniqueKeysWithValues: room.registry.snapshot(for: room.presenterId).sessions.map { ($0.id, $0.user) }) }
        #expect(names()[room.ids[0]] == "ada" && names()[second] == "ada-2" && names()[third] == "ada-3")
        #expect(room.registry.snapshot(for: room.presenterId).log.last?.text == "ada-3@10.0.0.9 joined, project guest-y")
        // A name is free again once its visitor has left.
        room.registry.leave(second)
        let fourth = room.registry.join(user: "ada", address: "10.0.0.7", key: nil, isOperator: false, project: "guest-z", link: Console().link)
        #expect(names()[fourth] == "ada-2")
        // An operator's name counts too.
        let visitor = room.registry.join(user: "alice", address: "10.0.0.6", key: nil, isOperator: false, project: "guest-w", link: Console().link)
        #expect(names()[visitor] == "alice-2")
    }

    @Test func resetEmptiesTheProjectsAndTellsTheVisitorsInThem() async {
        let room = Room()
        room.registry.received(.command(.previewReset), from: room.presenterId)
        // Nothing is answered before the count is done: the registry never waits for it on an event loop.
        #expect(room.presenter.take().isEmpty)
        await room.jobs.run()
        #expect(room.presenter.take() == [.resetPreview(ResetCounts(sessions: 3, projects: 4, accounts: 12))])
        #expect(room.resets.count == 0)
        room.registry.received(.command(.reset), from: room.presenterId)
        await room.jobs.run()
        #expect(room.resets.count == 1)
        // guest-c was not among the projects emptied: its visitor is not told.
        #expect(room.visitors.map { $0.take() } == [[.notice(.accountReset)], [.notice(.accountReset)], []])
        #expect(room.presenter.take() == [.resetDone(ResetCounts(sessions: 2, projects: 3, accounts: 12))])
        let without = Room(reset: false)
        without.registry.received(.command(.reset), from: without.presenterId)
        #expect(without.presenter.take() == [.refused("This server's visitors share the backend's one project (--shared-project): there is nothing to reset here.")])
    }

    @Test func followingAsksForFramesForwardsThemAndEndsWhenTheVisitorLeaves() {
        let room = Room()
        let visitor = room.ids[0]
        room.registry.received(.command(.follow(session: visitor)), from: room.presenterId)
        #expect(room.visitors[0].take() == [.sendFrames(true), .notice(.watched(true))])
        let frame = ScreenFrame(columns: 80, rows: ["AuthDeck · Sign in"])
        room.registry.received(.frame(frame), from: visitor)
        #expect(room.presenter.take() == [.followed(session: visitor, frame)])
        // Another visitor's frames go nowhere.
        room.registry.received(.frame(frame), from: room.ids[1])
        #expect(room.presenter.take().isEmpty)
        room.registry.leave(visitor)
        #expect(room.presenter.take() == [.followEnded(session: visitor, reason: "ada@10.0.0.1 left.")])
        room.registry.received(.command(.follow(session: visitor)), from: room.presenterId)
        #expect(room.presenter.take() == [.followEnded(session: visitor, reason: "That session has ended.")])
    }

    @Test func stoppingOrSwitchingTellsTheVisitorTheyAreNoLongerWatched() {
        let room = Room()
        room.registry.received(.command(.follow(session: room.ids[0])), from: room.presenterId)
        _ = room.visitors[0].take()
        room.registry.received(.command(.follow(session: room.ids[1])), from: room.presenterId)
        #expect(room.visitors[0].take() == [.sendFrames(false), .notice(.watched(false))])
        #expect(room.visitors[1].take() == [.sendFrames(true), .notice(.watched(true))])
        room.registry.received(.command(.follow(session: nil)), from: room.presenterId)
        #expect(room.visitors[1].take() == [.sendFrames(false), .notice(.watched(false))])
        // The operator's own screen inside itself would feed back: refused.
        room.registry.received(.command(.follow(session: room.presenterId)), from: room.presenterId)
        #expect(room.presenter.take() == [.refused("That is your own screen: following it would show it inside itself.")])
    }

    @Test func anOperatorWhoLeavesStopsTheFrames() {
        let room = Room()
        room.registry.received(.command(.follow(session: room.ids[2])), from: room.presenterId)
        _ = room.visitors[2].take()
        room.registry.leave(room.presenterId)
        #expect(room.visitors[2].take() == [.sendFrames(false), .notice(.watched(false))])
    }
}
