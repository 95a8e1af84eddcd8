import Foundation
import Logging
import NIOCore
import RoomChannel
import Synchronization

/// What `authdeck ssh` does to its visitors' sandboxes (projects or tenants) when the presenter
/// resets the demo; it runs in a task of its own (it opens databases or calls the backend), and only
/// ever touches this host's own visitors'.
public struct DemoReset: Sendable {
    /// The visitors' sandboxes and the accounts in them, as a reset would empty them now.
    public var count: @Sendable () async throws -> (projects: Int, accounts: Int)
    /// Empties every visitor's sandbox; answers the sandboxes emptied, as the room names them, and the accounts they held.
    public var reset: @Sendable () async throws -> (projects: [String], accounts: Int)

    public init(count: @escaping @Sendable () async throws -> (projects: Int, accounts: Int),
                reset: @escaping @Sendable () async throws -> (projects: [String], accounts: Int)) {
        self.count = count
        self.reset = reset
    }
}

/// The room: every session whose console runs, what each console last said of itself, and who
/// follows whom. Consoles reach it through their room channel (`RoomLink`); operators' consoles
/// get a snapshot each second and may command it. Thread-safe: channels of several event loops
/// call it.
final class RoomRegistry: Sendable {
    /// How a member's console is reached; both may be called from any thread.
    struct Link: Sendable {
        /// Sends a message on the console's room channel. `droppable` ones (snapshots, frames) are
        /// skipped while the channel cannot take more.
        var send: @Sendable (RoomMessage, _ droppable: Bool) -> Void
        /// Ends the session, as the presenter asked: the console is told and then hung up.
        var end: @Sendable (_ notice: String) -> Void
    }

    struct Member: Sendable {
        var session: RoomSession
        var connected: NIODeadline
        var lastInput: NIODeadline
        /// When its console last moved to another screen or step.
        var stepSince: NIODeadline
        var link: Link
        /// Operators following this session's screen.
        var followers: Set<Int> = []
        /// The session this operator follows.
        var following: Int?
    }

    private struct State {
        var nextId = 1
        var members: [Int: Member] = [:]
        /// The latest events, oldest first, at most `logLimit`.
        var log: [RoomEvent] = []
        /// The refusal the log's last line counts, so that a client retrying in a loop takes one line.
        var repeatedRefusal: (text: String, count: Int)?
        /// Stops the operators' snapshots; nil while none are sent.
        var snapshots: (@Sendable () -> Void)?
        /// `user` as no other member than `id` is named: two visitors who type the same name are told apart, the second is name-2.
        func name(_ user: String, for id: Int) -> String { VisitorName.unique(SessionLog.printable(user), among: Set(members.filter { $0.key != id }.map(\.value.session.user))) }
    }

    /// Events the room keeps for its log; older ones are only in authdeck.log.
    static let logLimit = 200
    /// A message is logged this long at most.
    static let loggedMessageLimit = 80

    private let state = Mutex(State())
    private let reset: DemoReset?
    private let logger: Logger
    private let clock: @Sendable () -> NIODeadline
    private let wallClock: @Sendable () -> Date
    /// Runs the reset's work, which waits on databases or the backend: in a task of its own.
    private let runOffLoop: @Sendable (@escaping @Sendable () async -> Void) -> Void
    /// Calls its argument each second from now on; answers how to stop.
    private let everySecond: @Sendable (@escaping @Sendable () -> Void) -> @Sendable () -> Void

    init(reset: DemoReset?, logger: Logger, everySecond: @escaping @Sendable (@escaping @Sendable () -> Void) -> @Sendable () -> Void,
         clock: @escaping @Sendable () -> NIODeadline = { .now() }, wallClock: @escaping @Sendable () -> Date = Date.init,
         offThread: @escaping @Sendable (@escaping @Sendable () async -> Void) -> Void = RoomRegistry.inTask) {
        self.reset = reset
        self.everySecond = everySecond
        self.logger = logger
        self.clock = clock
        self.wallClock = wallClock
        self.runOffLoop = offThread
    }

    static func inTask(_ work: @escaping @Sendable () async -> Void) { Task { await work() } }

    // MARK: Members

    /// What the room shows of a session that has logged in and has no console running yet.
    static let loggingIn = ConsoleStatus(screen: "Logging in")

    /// A session joins the room: as its console starts, or `loggingIn` (until `consoleStarted`)
    /// as it logs in, under a name no other member has. Answers its id in the room.
    func join(user: String, address: String, key: String?, isOperator: Bool, project: String?, link: Link, loggingIn: Bool = false) -> Int {
        let now = clock()
        let session = state.withLock { state in
            let id = state.nextId
            state.nextId += 1
            let session = RoomSession(id: id, user: state.name(user, for: id), address: address, key: key, isOperator: isOperator, project: project,
                                      connectedSeconds: 0, idleSeconds: 0, status: loggingIn ? Self.loggingIn : nil)
            state.members[id] = Member(session: session, connected: now, lastInput: now, stepSince: now, link: link)
            return session
        }
        if !loggingIn { recordJoin(session) }
        if isOperator { startSnapshots() }
        return session.id
    }

    /// The console of a session that was logging in runs: reached by `link` from now on, named `name` (their project's) if given.
    func consoleStarted(_ id: Int, project: String?, name: String? = nil, link: Link) {
        let (session, followed) = state.withLock { state -> (RoomSession?, Bool) in
            state.members[id]?.link = link
            state.members[id]?.session.project = project
            if let unique = name.map({ state.name($0, for: id) }) { state.members[id]?.session.user = unique }
            if state.members[id]?.session.status == Self.loggingIn { state.members[id]?.session.status = nil }
            return (state.members[id]?.session, state.members[id]?.followers.isEmpty == false)
        }
        guard let session else { return }
        recordJoin(session)
        // An operator began following while it was logging in.
        if followed {
            link.send(.sendFrames(true), false)
            if !session.isOperator { link.send(.notice(.watched(true)), false) }
        }
    }

    private func recordJoin(_ session: RoomSession) {
        record(session.isOperator ? "\(Self.name(session)) joined, an operator" : "\(Self.name(session)) joined, project \(session.project ?? "none")")
    }

    /// The console has gone: whoever followed it is told, and the one it followed stops sending.
    func leave(_ id: Int) {
        var tell: [(Link, RoomMessage)] = []
        let now = clock()
        var operatorLeft = false
        let gone: String? = state.withLock { state in
            guard let member = state.members.removeValue(forKey: id) else { return nil }
            operatorLeft = member.session.isOperator
            let name = Self.name(member.session)
            for follower in member.followers {
                state.members[follower]?.following = nil
                if let link = state.members[follower]?.link { tell.append((link, .followEnded(session: id, reason: "\(name) left."))) }
            }
            if let followed = member.following { tell += Self.unfollow(followed, by: id, in: &state) }
            let seconds = Int((now - member.connected).nanoseconds / 1_000_000_000)
            let stayed = seconds < 60 ? "\(seconds)s" : seconds < 3600 ? "\(seconds / 60)m" : "\(seconds / 3600)h\(seconds % 3600 / 60)m"
            return "\(name) left after \(stayed)" + (member.session.isOperator ? "" : ", project \(member.session.project ?? "none")")
        }
        for (link, message) in tell { link.send(message, false) }
        if let gone { record(gone) }
        if operatorLeft { stopSnapshots(whenNoOperatorRemains: true) }
    }

    /// Snapshots start with the first operator and stop with the last: a room of visitors alone has
    /// no timer waking the server.
    private func startSnapshots() {
        state.withLock { state in
            guard state.snapshots == nil else { return }
            state.snapshots = everySecond { [weak self] in self?.pushSnapshots() }
        }
    }

    /// Stops the snapshots: when the last operator has gone, or for good when the server stops.
    func stopSnapshots(whenNoOperatorRemains: Bool = false) {
        state.withLock { state in
            if whenNoOperatorRemains, state.members.values.contains(where: \.session.isOperator) { return }
            state.snapshots?()
            state.snapshots = nil
        }
    }

    /// An event for the operators' log, kept among the latest `logLimit`.
    /// A visitor turned away after logging in (room full, too many from one address), for the log; again, the same line counts it.
    func refused(user: String, address: String, reason: String) {
        let text = RoomText.clean("\(SessionLog.printable(user))@\(address) was turned away: \(reason)", limit: 300).text
        let repeated = state.withLock { state -> Bool in
            guard let last = state.repeatedRefusal, last.text == text,
                  state.log.last?.text == (last.count == 1 ? text : "\(text) (\(last.count) times)") else { return false }
            state.repeatedRefusal = (text, last.count + 1)
            state.log[state.log.count - 1] = RoomEvent(date: wallClock(), text: "\(text) (\(last.count + 1) times)")
            return true
        }
        if !repeated { record(text, refusal: true) }
    }

    private func record(_ text: String, refusal: Bool = false) {
        let event = RoomEvent(date: wallClock(), text: RoomText.clean(text, limit: 300).text)
        state.withLock { state in
            state.repeatedRefusal = refusal ? (event.text, 1) : nil
            state.log.append(event)
            if state.log.count > Self.logLimit { state.log.removeFirst(state.log.count - Self.logLimit) }
        }
    }

    /// A key from the session's client: it is not idle.
    func touch(_ id: Int) {
        let now = clock()
        state.withLock { $0.members[id]?.lastInput = now }
    }

    /// The room as `viewer` sees it, durations as of now.
    func snapshot(for viewer: Int) -> RoomSnapshot {
        let now = clock()
        let (sessions, log) = state.withLock { state in
            (state.members.values.map { member in
                var session = member.session
                session.connectedSeconds = Int((now - member.connected).nanoseconds / 1_000_000_000)
                session.idleSeconds = Int((now - member.lastInput).nanoseconds / 1_000_000_000)
                session.stepSeconds = Int((now - member.stepSince).nanoseconds / 1_000_000_000)
                return session
            }, state.log)
        }
        return RoomSnapshot(sessions: sessions.sorted { $0.id < $1.id }, viewer: viewer, log: log)
    }

    /// Each operator's console gets the room as it is now. Called each second while an operator is in the room.
    func pushSnapshots() {
        let operators = state.withLock { state in state.members.values.filter(\.session.isOperator).map { ($0.session.id, $0.link) } }
        guard !operators.isEmpty else { return }
        for (id, link) in operators { link.send(.room(snapshot(for: id)), true) }
    }

    // MARK: What consoles say

    func received(_ message: RoomMessage, from id: Int) {
        switch message {
        case var .status(status):
            // What the operators' tables and the log show, kept to one short printable line each.
            status.screen = RoomText.clean(status.screen, limit: 60).text
            status.uid = status.uid.map { RoomText.clean($0, limit: 128).text }
            status.methods = status.methods.prefix(12).map { RoomText.clean($0, limit: 64).text }
            status.failure = status.failure.map { RoomText.clean($0, limit: 64).text }
            let now = clock()
            let logged: RoomSession? = state.withLock { state in
                guard state.members[id]?.session.status != status else { return nil }
                if state.members[id]?.session.status?.screen != status.screen { state.members[id]?.stepSince = now }
                state.members[id]?.session.status = status
                return state.members[id]?.session
            }
            if let logged, !logged.isOperator {
                logger.info("room status", metadata: ["session": "\(id)", "project": "\(logged.project ?? "-")", "screen": "\(status.screen)",
                                                      "uid": "\(status.uid ?? "-")", "methods": "\(status.methods.joined(separator: ","))",
                                                      "failure": "\(status.failure ?? "-")"])
            }
        case let .frame(frame):
            let followers = state.withLock { state in
                (state.members[id]?.followers ?? []).compactMap { state.members[$0]?.link }
            }
            for link in followers { link.send(.followed(session: id, frame), true) }
        case let .command(command):
            let isOperator = state.withLock { $0.members[id]?.session.isOperator ?? false }
            guard isOperator else {
                logger.warning("room command from a visitor's console ignored", metadata: ["session": "\(id)"])
                return
            }
            perform(command, from: id)
        case .notice, .room, .resetPreview, .resetDone, .answered, .refused, .sendFrames, .followed, .followEnded:
            logger.warning("room message a console does not send, ignored", metadata: ["session": "\(id)"])
        }
    }

    // MARK: Operators' commands

    private func perform(_ command: RoomCommand, from operatorId: Int) {
        switch command {
        case let .message(text):
            let (cleaned, cut) = RoomText.clean(text)
            guard !cleaned.isEmpty else { return reply(operatorId, .refused("The message is empty.")) }
            let visitors = links { !$0.session.isOperator }
            for link in visitors { link.send(.notice(.message(cleaned)), false) }
            logger.notice("room message", metadata: ["by": "\(operatorName(operatorId))", "visitors": "\(visitors.count)", "text": "\(cleaned)"])
            record("\(memberName(operatorId)) sent to \(Self.count(visitors.count, "visitor")): \(Self.shortened(cleaned))")
            let length = cut ? " (cut to \(RoomText.messageLimit) characters)" : ""
            reply(operatorId, .answered("Sent to \(Self.count(visitors.count, "visitor"))\(length): \(cleaned)"))
        case let .messageOne(target, text):
            let (cleaned, cut) = RoomText.clean(text)
            guard !cleaned.isEmpty else { return reply(operatorId, .refused("The message is empty.")) }
            guard let member = state.withLock({ $0.members[target] }) else { return reply(operatorId, .refused("That session has already ended.")) }
            guard !member.session.isOperator else { return reply(operatorId, .refused("Messages go to visitors; that is an operator.")) }
            member.link.send(.notice(.message(cleaned)), false)
            logger.notice("room message", metadata: ["by": "\(operatorName(operatorId))", "session": "\(target)", "text": "\(cleaned)"])
            record("\(memberName(operatorId)) sent to \(Self.name(member.session)): \(Self.shortened(cleaned))")
            let length = cut ? " (cut to \(RoomText.messageLimit) characters)" : ""
            reply(operatorId, .answered("Sent to \(Self.name(member.session))\(length): \(cleaned)"))
        case let .end(target):
            guard target != operatorId else { return reply(operatorId, .refused("That is your own session: quit it with q.")) }
            guard let member = state.withLock({ $0.members[target] }) else { return reply(operatorId, .refused("That session has already ended.")) }
            member.link.send(.notice(.ending("The presenter ended this session.")), false)
            member.link.end("AuthDeck: the presenter ended this session.")
            logger.notice("room session ended", metadata: ["by": "\(operatorName(operatorId))", "session": "\(target)",
                                                           "address": "\(member.session.address)", "project": "\(member.session.project ?? "-")"])
            record("\(memberName(operatorId)) ended \(Self.name(member.session))" + (member.session.project.map { ", project \($0)" } ?? ""))
            reply(operatorId, .answered("Ended \(Self.name(member.session))."))
        case .previewReset:
            guard let reset else { return reply(operatorId, .refused(Self.nothingToReset)) }
            let sessions = links { !$0.session.isOperator && $0.session.project != nil }.count
            offThread(operatorId) { [self] in
                let (projects, accounts) = try await reset.count()
                reply(operatorId, .resetPreview(ResetCounts(sessions: sessions, projects: projects, accounts: accounts)))
            }
        case .reset:
            guard let reset else { return reply(operatorId, .refused(Self.nothingToReset)) }
            offThread(operatorId) { [self] in
                let (projects, accounts) = try await reset.reset()
                let emptied = Set(projects)
                let visitors = links { member in !member.session.isOperator && member.session.project.map(emptied.contains) == true }
                for link in visitors { link.send(.notice(.accountReset), false) }
                logger.notice("room reset", metadata: ["by": "\(operatorName(operatorId))", "projects": "\(projects.count)",
                                                       "accounts": "\(accounts)", "sessions": "\(visitors.count)"])
                record("\(memberName(operatorId)) reset the demo: \(Self.count(projects.count, "project")), \(Self.count(accounts, "account")), "
                    + "\(Self.count(visitors.count, "visitor")) told")
                reply(operatorId, .resetDone(ResetCounts(sessions: visitors.count, projects: projects.count, accounts: accounts)))
            }
        case let .follow(target):
            follow(target, by: operatorId)
        }
    }

    private func follow(_ target: Int?, by operatorId: Int) {
        if target == operatorId { return reply(operatorId, .refused("That is your own screen: following it would show it inside itself.")) }
        var tell: [(Link, RoomMessage)] = []
        let found = state.withLock { state -> Bool in
            if let previous = state.members[operatorId]?.following {
                state.members[operatorId]?.following = nil
                tell += Self.unfollow(previous, by: operatorId, in: &state)
            }
            guard let target else { return true }
            guard state.members[target] != nil else { return false }
            state.members[operatorId]?.following = target
            let first = state.members[target]?.followers.isEmpty ?? false
            state.members[target]?.followers.insert(operatorId)
            if first, let link = state.members[target]?.link {
                tell.append((link, .sendFrames(true)))
                if !(state.members[target]?.session.isOperator ?? true) { tell.append((link, .notice(.watched(true)))) }
            }
            return true
        }
        for (link, message) in tell { link.send(message, false) }
        if let target, !found { reply(operatorId, .followEnded(session: target, reason: "That session has ended.")) }
    }

    /// `follower` no longer follows `id`: the last one gone, its console stops sending frames.
    private static func unfollow(_ id: Int, by follower: Int, in state: inout State) -> [(Link, RoomMessage)] {
        guard state.members[id]?.followers.remove(follower) != nil, state.members[id]?.followers.isEmpty == true,
              let member = state.members[id] else { return [] }
        return [(member.link, .sendFrames(false))] + (member.session.isOperator ? [] : [(member.link, .notice(.watched(false)))])
    }

    private func links(where include: (Member) -> Bool) -> [Link] {
        state.withLock { state in state.members.values.filter(include).map(\.link) }
    }

    private func reply(_ id: Int, _ message: RoomMessage) {
        state.withLock { $0.members[id]?.link }?.send(message, false)
    }

    /// `user@address`, as the log names the operator who did something.
    private func memberName(_ id: Int) -> String {
        state.withLock { state in state.members[id].map { Self.name($0.session) } ?? "?" }
    }

    private func operatorName(_ id: Int) -> String {
        state.withLock { state in state.members[id].map { "\($0.session.user) (\($0.session.key ?? "no key"))" } ?? "?" }
    }

    static let nothingToReset = "This server's visitors share the backend's one project (--shared-project): there is nothing to reset here."

    /// Work that waits on databases or the backend, off the event loops; a failure is told to the operator.
    private func offThread(_ operatorId: Int, _ work: @escaping @Sendable () async throws -> Void) {
        runOffLoop { [self] in
            do {
                try await work()
            } catch {
                logger.error("room command failed", metadata: ["error": "\(error)"])
                reply(operatorId, .refused("The reset failed: \(error)"))
            }
        }
    }

    /// A message as the log keeps it: at most `loggedMessageLimit` characters, cut after a whole word
    /// when one ends in its second half.
    static func shortened(_ message: String) -> String {
        guard message.count > loggedMessageLimit else { return message }
        let head = message.prefix(loggedMessageLimit)
        if message[head.endIndex] == " " { return head + "…" }
        guard let space = head.lastIndex(of: " "), head.distance(from: head.startIndex, to: space) > loggedMessageLimit / 2 else { return head + "…" }
        return head[..<space] + "…"
    }

    static func name(_ session: RoomSession) -> String {
        "\(session.user)@\(session.address)"
    }

    static func count(_ n: Int, _ noun: String) -> String { n == 1 ? "1 \(noun)" : "\(n) \(noun)s" }
}
