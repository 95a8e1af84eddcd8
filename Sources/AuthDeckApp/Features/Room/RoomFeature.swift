import Foundation
import RoomChannel
import TerminalUI

/// The presenter's room, on an operator's console under `authdeck ssh`: every SSH session in a
/// table that follows the room (the server pushes it each second), sorted and filtered; from it
/// the presenter follows a visitor's screen, messages every visitor, ends a session or resets
/// the demo.
public struct RoomFeature: ConsoleFeature {
    public enum Action: Equatable, Sendable, ListAction, BackAction {
        case up, down, pageUp, pageDown, top, bottom
        /// enter: follow the selected session; in a panel, submit or confirm.
        case choose
        case back, filter, order, reverse, message, end, reset
        /// m: a message to the selected visitor alone.
        case messageOne
        /// In a yes/no dialog: the other button (←/→, tab), and yes whichever is selected (y).
        case toggle, confirm
        /// Shows the room's log instead of the table, or the table again.
        case log
    }

    public enum Effect: Equatable, Sendable {
        case send(RoomCommand)
    }

    public enum Event: FeatureResult {
        case snapshot(RoomSnapshot)
        case answered(String)
        case refused(String)
        case resetPreview(ResetCounts)
        case resetDone(ResetCounts)
        case followed(session: Int, ScreenFrame)
        case followEnded(session: Int, reason: String)

        /// Snapshots and frames come by themselves; the others answer what the presenter asked.
        var endsBusyWork: Bool {
            switch self {
            case .snapshot, .followed: false
            case .answered, .refused, .resetPreview, .resetDone, .followEnded: true
            }
        }
    }

    public enum Order: String, CaseIterable, Equatable, Sendable {
        case connected, stuck, idle, name, screen, project
    }

    public enum Panel: Equatable, Sendable {
        /// The message being typed, for one visitor or (nil) every one.
        case message(TextField, to: RoomSession?)
        /// A yes/no dialog; it opens on Cancel, as every destructive dialog does, and `confirmSelected`
        /// is the other button selected.
        case confirmEnd(RoomSession, confirmSelected: Bool = false)
        case confirmReset(ResetCounts, confirmSelected: Bool = false)
        /// A session's screen, read-only; nil until its first frame. `message`: a message to them being
        /// typed over it; `said`: the room's answer to the last one, on the presenter's bar.
        case following(RoomSession, ScreenFrame?, message: TextField? = nil, said: String? = nil)
    }

    /// Rows the table shows at 80×24; page up and down move by this many.
    static let visibleRows = 14

    public var snapshot: RoomSnapshot?
    /// The sessions shown: the snapshot filtered and sorted.
    public var rows: [RoomSession] = []
    public var selection = 0
    public var order = Order.connected
    public var descending = false
    public var filter = ""
    public var filterField = TextField(maxLength: 64)
    public var typingFilter = false
    public var panel: Panel?
    /// The log shown instead of the table.
    public var showingLog = false
    /// Log lines scrolled back from the newest.
    public var logScroll = 0

    public init() {}

    var title: String { "Room" }
    var needsUser: Bool { false }
    var screen: Screen { .room(self) }
    var editsText: Bool {
        if typingFilter { return true }
        if case .message = panel { return true }
        if case .following(_, _, .some, _) = panel { return true }
        return false
    }
    /// A followed screen is the projector's whole picture: no pane of the presenter's opens over it.
    var ownsTerminal: Bool { isFollowing }

    // MARK: Opening

    /// `W` on the screens that open it, for an operator's console in a room.
    static func openBinding<Action>(_ action: Action, in context: ConsoleContext) -> [KeyBinding<KeyIntent<Action>>] {
        context.inRoom && context.operatorAccess != nil ? [.char("W", "room", action)] : []
    }

    /// The room at once, as the last snapshot had it (the next comes within a second); empty only
    /// before the first.
    static func open(in context: ConsoleContext) -> [FlowStep] {
        guard context.inRoom, context.operatorAccess != nil else { return [] }
        var room = RoomFeature()
        if let snapshot = context.roomSnapshot {
            room.snapshot = snapshot
            room.arrange()
        }
        return [.banner(nil), .show(.room(room))]
    }

    var selected: RoomSession? { rows.indices.contains(selection) ? rows[selection] : nil }

    /// The snapshot filtered and sorted again, the selection kept on the same session when it is still shown.
    mutating func arrange() {
        let keep = selected?.id
        let needle = filter.trimmingCharacters(in: .whitespaces).lowercased()
        let shown = (snapshot?.sessions ?? []).filter { needle.isEmpty || Self.searchText($0).contains(needle) }
        rows = shown.sorted { a, b in
            let ordered = Self.precedes(a, b, by: order)
            let reversed = Self.precedes(b, a, by: order)
            if ordered == reversed { return a.id < b.id }
            return descending ? reversed : ordered
        }
        if let keep, let index = rows.firstIndex(where: { $0.id == keep }) {
            selection = index
        } else {
            selection = max(0, min(selection, rows.count - 1))
        }
    }

    static func precedes(_ a: RoomSession, _ b: RoomSession, by order: Order) -> Bool {
        switch order {
        // Longest connected first, as people arrived: the room numbers sessions as they start, and
        // seconds would tie for those who came together.
        case .connected: a.id < b.id
        // The stuck first, those on one step longest first among them.
        case .stuck: (stuck(a) == nil ? 0 : 1, a.stepSeconds) > (stuck(b) == nil ? 0 : 1, b.stepSeconds)
        case .idle: a.idleSeconds > b.idleSeconds
        case .name: RoomScreen.who(a).lowercased() < RoomScreen.who(b).lowercased()
        case .screen: (a.status?.screen ?? "") < (b.status?.screen ?? "")
        case .project: (a.project ?? "") < (b.project ?? "")
        }
    }

    /// A visitor on one step this long is marked stuck.
    static let stuckAfterSeconds = 180

    /// Why a visitor looks stuck: their last request failed (its code), or they have been on one
    /// step for minutes; nil when they are not (an operator never is).
    static func stuck(_ session: RoomSession) -> String? {
        guard !session.isOperator, let status = session.status else { return nil }
        if let failure = status.failure { return failure }
        return session.stepSeconds >= stuckAfterSeconds ? "on this step for \(RoomScreen.duration(session.stepSeconds))" : nil
    }

    /// What the filter matches: name, address, key, screen, uid, sign-in methods and project.
    static func searchText(_ session: RoomSession) -> String {
        [session.user, session.address, session.key ?? "no key", session.status?.screen ?? "", session.status?.uid ?? "",
         session.status?.methods.joined(separator: " ") ?? "", session.status?.anonymous == true ? "anonymous" : "", session.project ?? "",
         session.isOperator ? "operator" : "visitor"].joined(separator: " ").lowercased()
    }

    func draw(in context: ConsoleContext, on canvas: any Canvas, frame: Rect) {
        RoomScreen.draw(self, on: canvas, in: frame)
    }

    /// A followed screen takes the whole terminal, as the projector should show it.
    func drawWhole(on canvas: any Canvas) -> Bool {
        guard case let .following(session, frame, message, said) = panel else { return false }
        RoomScreen.drawFollowing(session, frame: frame, message: message, note: said, on: canvas)
        return true
    }
}
