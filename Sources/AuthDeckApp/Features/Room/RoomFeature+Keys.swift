import Foundation
import RoomChannel
import TerminalUI

/// The room's keys and what they and the room's answers do.
extension RoomFeature {
    func bindings(in context: ConsoleContext) -> [KeyBinding<KeyIntent<Action>>] {
        switch panel {
        case let .message(_, to):
            return [KeyBinding([.enter], "enter", to == nil ? "send to every visitor" : "send", .choose), KeyBinding([.escape], "esc", "cancel", .back), .helpInForm]
        case .confirmEnd, .confirmReset:
            return [KeyBinding([.left, .right, .tab], "←/→", "choose", .toggle), KeyBinding([.enter], "enter", "confirm choice", .choose),
                    .char("y", "yes", .confirm), KeyBinding([.escape, .character("n")], "esc/n", "cancel", .back)]
        case .following(_, _, .some, _):
            return [KeyBinding([.enter], "enter", "send", .choose), KeyBinding([.escape], "esc", "cancel", .back)]
        case let .following(session, _, nil, _):
            return [KeyBinding([.escape, .character("q")], "esc", "back to the room", .back)]
                + (session.isOperator ? [] : [.char("m", "message them", .messageOne)])
        case nil:
            break
        }
        if showingLog {
            return [KeyBinding([.up], "↑", "older", .up), KeyBinding([.down], "↓", "newer", .down),
                    KeyBinding([.pageUp], "pgup", "page up", .pageUp, inBar: false), KeyBinding([.pageDown], "pgdn", "page down", .pageDown, inBar: false),
                    KeyBinding([.home, .character("g")], "g", "oldest", .top, inBar: false), KeyBinding([.end, .character("G")], "G", "newest", .bottom, inBar: false),
                    .char("l", "sessions", .log), .char("M", "message all", .message), .char("R", "reset demo", .reset, inBar: false),
                    KeyBinding([.escape], "esc", "sessions", .back, inBar: false), .help, .quit]
        }
        if typingFilter {
            return [KeyBinding([.enter], "enter", "done", .choose), KeyBinding([.escape], "esc", "clear the filter", .back),
                    KeyBinding([.up], "↑", "move up", .up, inBar: false), KeyBinding([.down], "↓", "move down", .down, inBar: false), .helpInForm]
        }
        var keys: [KeyBinding<KeyIntent<Action>>] = [
            .moveUp(), .moveDown(),
            KeyBinding([.pageUp], "pgup", "page up", .pageUp, inBar: false),
            KeyBinding([.pageDown], "pgdn", "page down", .pageDown, inBar: false),
            KeyBinding([.home, .character("g")], "g", "first row", .top, inBar: false),
            KeyBinding([.end, .character("G")], "G", "last row", .bottom, inBar: false),
        ]
        if selected != nil { keys.append(KeyBinding([.enter], "enter", "follow", .choose)) }
        if selected?.isOperator == false { keys.append(.char("m", "message", .messageOne)) }
        keys += [.char("/", "filter", .filter), .char("o", "order by", .order, inBar: false), .char("O", "reverse the order", .reverse, inBar: false),
                 .char("l", "log", .log), .char("M", "message all", .message)]
        if selected != nil { keys.append(.char("x", "end session", .end)) }
        keys += [.char("R", "reset demo", .reset),
                 KeyBinding([.escape], "esc", filter.isEmpty ? "back" : "clear filter", .back), .help, .quit]
        return keys
    }

    mutating func perform(_ action: Action, in context: ConsoleContext) -> [FlowStep] {
        if let panel { return performInPanel(action, panel) }
        if showingLog { return performInLog(action) }
        if typingFilter {
            switch action {
            case .choose: typingFilter = false
            case .back:
                typingFilter = false
                filterField = TextField(maxLength: 64)
                filter = ""
                arrange()
            case .up: move(to: selection - 1)
            case .down: move(to: selection + 1)
            case .pageUp, .pageDown, .top, .bottom, .filter, .order, .reverse, .message, .messageOne, .end, .reset, .log, .toggle, .confirm: break
            }
            return []
        }
        switch action {
        case .up: move(to: selection - 1)
        case .down: move(to: selection + 1)
        case .pageUp: move(to: selection - Self.visibleRows)
        case .pageDown: move(to: selection + Self.visibleRows)
        case .top: move(to: 0)
        case .bottom: move(to: rows.count - 1)
        case .choose:
            guard let session = selected else { return [] }
            if session.id == snapshot?.viewer {
                return [.banner(Banner(.error, "That is your own console: following it would show it inside itself."))]
            }
            panel = .following(session, nil)
            return [.banner(nil), .run(.room(.send(.follow(session: session.id))), busy: nil)]
        case .back:
            guard filter.isEmpty else {
                filter = ""
                filterField = TextField(maxLength: 64)
                arrange()
                return [.banner(nil)]
            }
            return [.banner(nil), .exit(.cancelled)]
        case .filter:
            typingFilter = true
            filterField = TextField(text: filter, maxLength: 64)
            return [.banner(nil)]
        case .order:
            let all = Order.allCases
            order = all[((all.firstIndex(of: order) ?? 0) + 1) % all.count]
            arrange()
        case .reverse:
            descending.toggle()
            arrange()
        case .message:
            panel = .message(TextField(maxLength: RoomText.messageLimit), to: nil)
            return [.banner(nil)]
        case .messageOne:
            guard let session = selected, !session.isOperator else { return [] }
            panel = .message(TextField(maxLength: RoomText.messageLimit), to: session)
            return [.banner(nil)]
        case .end:
            guard let session = selected else { return [] }
            if session.id == snapshot?.viewer { return [.banner(Banner(.error, "That is your own session: quit it with q."))] }
            panel = .confirmEnd(session)
            return [.banner(nil)]
        case .reset:
            return [.banner(nil), .run(.room(.send(.previewReset)), busy: "Counting what a reset empties…")]
        case .log:
            showingLog = true
            logScroll = 0
            return [.banner(nil)]
        case .toggle, .confirm:
            break
        }
        return []
    }

    /// The log's keys: scrolling back and forth, the table again; messages and the reset work as on the table.
    private mutating func performInLog(_ action: Action) -> [FlowStep] {
        switch action {
        case .up: logScroll += 1
        case .down: logScroll = max(logScroll - 1, 0)
        case .pageUp: logScroll += Self.visibleRows
        case .pageDown: logScroll = max(logScroll - Self.visibleRows, 0)
        // Its lines at 80 columns; on a wider terminal, where there are fewer, the view stops at the oldest.
        case .top: logScroll = RoomScreen.logLines(snapshot?.log ?? [], width: 78).count
        case .bottom: logScroll = 0
        case .log, .back:
            showingLog = false
            return [.banner(nil)]
        case .message:
            panel = .message(TextField(maxLength: RoomText.messageLimit), to: nil)
            return [.banner(nil)]
        case .reset:
            return [.banner(nil), .run(.room(.send(.previewReset)), busy: "Counting what a reset empties…")]
        case .choose, .filter, .order, .reverse, .end, .messageOne, .toggle, .confirm:
            break
        }
        return []
    }

    private mutating func performInPanel(_ action: Action, _ panel: Panel) -> [FlowStep] {
        switch (panel, action) {
        case let (.message(field, to), .choose):
            let (text, _) = RoomText.clean(field.text)
            guard !text.isEmpty else { return [.banner(Banner(.error, "Type a message first, or esc to cancel."))] }
            self.panel = nil
            let command: RoomCommand = to.map { .messageOne(session: $0.id, text) } ?? .message(text)
            return [.banner(nil), .run(.room(.send(command)), busy: "Sending the message…")]
        case let (.confirmEnd(session, selected), .toggle):
            self.panel = .confirmEnd(session, confirmSelected: !selected)
            return []
        case let (.confirmReset(counts, selected), .toggle):
            self.panel = .confirmReset(counts, confirmSelected: !selected)
            return []
        case (.confirmEnd(_, confirmSelected: false), .choose), (.confirmReset(_, confirmSelected: false), .choose):
            self.panel = nil
            return [.banner(nil)]
        case let (.confirmEnd(session, _), .choose), let (.confirmEnd(session, _), .confirm):
            self.panel = nil
            return [.banner(nil), .run(.room(.send(.end(session: session.id))), busy: "Ending \(RoomScreen.who(session))…")]
        case (.confirmReset, .choose), (.confirmReset, .confirm):
            self.panel = nil
            return [.banner(nil), .run(.room(.send(.reset)), busy: "Resetting the demo…")]
        case let (.following(session, frame, .some, said), .back):
            self.panel = .following(session, frame, said: said)
            return []
        case (.following, .back):
            self.panel = nil
            return [.run(.room(.send(.follow(session: nil))), busy: nil)]
        case let (.following(session, frame, nil, _), .messageOne):
            self.panel = .following(session, frame, message: TextField(maxLength: RoomText.messageLimit))
            return []
        case let (.following(session, frame, field?, said), .choose):
            let (text, _) = RoomText.clean(field.text)
            // The bar says it: the banner is not drawn over a followed screen.
            guard !text.isEmpty else { return [] }
            self.panel = .following(session, frame, said: said)
            return [.run(.room(.send(.messageOne(session: session.id, text))), busy: nil)]
        case (_, .back):
            self.panel = nil
            return [.banner(nil)]
        case (.message, _), (.confirmEnd, _), (.confirmReset, _), (.following, _):
            return []
        }
    }

    mutating func typed(_ key: Key, in context: ConsoleContext) -> [FlowStep] {
        if case .message(var field, let to) = panel {
            _ = field.handle(key)
            panel = .message(field, to: to)
            return []
        }
        if case .following(let session, let frame, var field?, let said) = panel {
            _ = field.handle(key)
            panel = .following(session, frame, message: field, said: said)
            return []
        }
        guard typingFilter, filterField.handle(key), filterField.text != filter else { return [] }
        filter = filterField.text
        selection = 0
        arrange()
        return []
    }

    mutating func handle(_ event: Event, in context: ConsoleContext) -> [FlowStep] {
        switch event {
        case let .snapshot(snapshot):
            self.snapshot = snapshot
            arrange()
            // The followed session's row, as it is now (its screen's name, its account).
            if case let .following(session, frame, message, said) = panel, let now = snapshot.sessions.first(where: { $0.id == session.id }) {
                panel = .following(now, frame, message: message, said: said)
            }
            return []
        case let .answered(text):
            // Over a followed screen the banner is not drawn: the presenter's bar says it.
            if case let .following(session, frame, message, _) = panel {
                panel = .following(session, frame, message: message, said: text)
            }
            return [.banner(Banner(.success, text))]
        case let .refused(text):
            if case .following = panel { panel = nil }
            return [.banner(Banner(.error, text))]
        case let .resetPreview(counts):
            panel = .confirmReset(counts)
            return []
        case let .resetDone(counts):
            return [.banner(Banner(.success, "The demo was reset: \(Self.describe(counts)). Your own project is untouched."))]
        case let .followed(id, frame):
            guard case let .following(session, _, message, said) = panel, session.id == id else { return [] }
            panel = .following(session, frame, message: message, said: said)
            return []
        case let .followEnded(id, reason):
            guard case let .following(session, _, _, _) = panel, session.id == id else { return [] }
            panel = nil
            return [.banner(Banner(.info, reason))]
        }
    }

    mutating func move(to index: Int) {
        selection = max(0, min(index, rows.count - 1))
    }

    /// What a reset did, as its banner says it.
    static func describe(_ counts: ResetCounts) -> String {
        let projects = counts.projects == 1 ? "1 visitor project" : "\(counts.projects) visitor projects"
        let accounts = counts.accounts == 1 ? "1 account" : "\(counts.accounts) accounts"
        let sessions = counts.sessions == 1 ? "1 visitor" : "\(counts.sessions) visitors"
        return "\(projects) emptied (\(accounts) removed), \(sessions) back at signing in"
    }
}
