@testable import AuthDeckApp
import AuthClient
import Foundation
import RoomChannel
import Testing
import TerminalUI

enum RoomFixtures {
    static func session(_ id: Int, _ address: String, connected: Int, idle: Int = 0, screen: String? = nil, uid: String? = nil,
                        methods: [String] = [], anonymous: Bool = false, isOperator: Bool = false, key: String? = nil) -> RoomSession {
        RoomSession(id: id, user: isOperator ? "alice" : "v\(id)", address: address, key: key, isOperator: isOperator,
                    project: isOperator ? nil : "guest-\(id)0000000000", connectedSeconds: connected, idleSeconds: idle,
                    status: screen.map { ConsoleStatus(screen: $0, uid: uid, methods: methods, anonymous: anonymous) })
    }

    /// Three visitors and the presenter, who is viewer 0.
    static let snapshot = RoomSnapshot(sessions: [
        session(1, "10.0.0.1", connected: 300, idle: 2, screen: "Phone sign-in: code sent"),
        session(2, "10.0.0.2", connected: 120, idle: 40, screen: "Account", uid: "pwUID0001", methods: ["password", "google.com"], key: "SHA256:Zm9vYmFyYmF6"),
        session(3, "10.0.0.3", connected: 60, idle: 7, screen: "Link conflict", uid: "anonUID01", anonymous: true),
        session(0, "127.0.0.1", connected: 600, screen: "Room", isOperator: true, key: "SHA256:b3BlcmF0b3I"),
    ], viewer: 0)

    static func console(access: OperatorAccess? = .full, inRoom: Bool = true) -> ConsoleModel {
        var model = ConsoleModel(backendName: "embedded", operatorAccess: access, inRoom: inRoom)
        model.screen = .signInMethods(SignInMethodsFeature(selection: 0))
        return model
    }

    static func feature(_ snapshot: RoomSnapshot = snapshot) -> RoomFeature {
        var feature = RoomFeature()
        feature.snapshot = snapshot
        feature.arrange()
        return feature
    }

    static func opened(_ snapshot: RoomSnapshot = snapshot) -> ConsoleModel {
        var model = console()
        model.screen = .room(feature(snapshot))
        return model
    }
}

extension ConsoleModel {
    mutating func room(_ change: (inout RoomFeature) -> Void) {
        guard case var .room(feature) = screen else { fatalError("not in the room") }
        change(&feature)
        screen = .room(feature)
    }

    var roomView: RoomFeature? {
        if case let .room(feature) = screen { return feature }
        return nil
    }
}

/// The presenter's room as the console drives it, and what the room does to a visitor's console.
@Suite("The room")
struct RoomFeatureTests {
    typealias F = RoomFixtures

    @Test func wOpensTheRoomOnAnOperatorsConsoleInARoomOnly() {
        var store = FlowStore(F.console())
        store.send(.key(.character("W"))) { $0.screen = .room(RoomFeature()) }
        #expect(render(store.model).contains("Waiting for the room…"))
        store.send(.feature(RoomFeature.Event.snapshot(F.snapshot))) { $0.lastRoomSnapshot = F.snapshot; $0.screen = .room(F.feature()) }
        // Longest connected first; the presenter's own row says so.
        #expect(store.model.roomView?.rows.map(\.id) == [0, 1, 2, 3])
        let screen = render(store.model)
        #expect(screen.contains("4 sessions (3 visitors) · order: connected ↓"))
        func row(_ name: String) -> String { screen.components(separatedBy: "\n").first { $0.contains(" \(name) ") } ?? "" }
        #expect(row("alice").hasPrefix(" >  alice "))
        #expect(screen.contains("    name         screen                    sign-in methods  sandbox        idle"))
        // The account's linked methods, .com left off; the project readable.
        for (name, cells) in [("alice", ["Room", "you (operator)", "0s"]), ("v1", ["Phone sign-in: code sent", "signed out", "guest-1000000…", "2s"]),
                              ("v2", ["Account", "password, google", "guest-2000000…", "40s"]),
                              ("v3", ["Link conflict", "anonymous", "7s"])] {
            #expect(cells.allSatisfy(row(name).contains), "\(row(name))")
        }
        // The selected session whole, under the table.
        #expect(screen.contains("alice@127.0.0.1 · the server's own project · SHA256:b3BlcmF0b3I"))
        store.send(.key(.escape)) { $0.screen = .signInMethods(SignInMethodsFeature(selection: 0)) }

        for model in [F.console(access: nil), F.console(inRoom: false)] {
            var other = FlowStore(model)
            #expect(!other.model.bindings.contains { $0.keys.contains(.character("W")) })
            other.send(.key(.character("W")))
        }
    }

    /// Snapshots arrive each second whatever shows: W opens on the latest at once, never on "Waiting".
    @Test func wOpensOnTheLastSnapshotAtOnce() {
        var store = FlowStore(F.console())
        store.send(.feature(RoomFeature.Event.snapshot(F.snapshot))) { $0.lastRoomSnapshot = F.snapshot }
        store.send(.key(.character("W"))) { $0.screen = .room(F.feature()) }
        for size in [Size(width: 80, height: 24), Size(width: 132, height: 40)] {
            let screen = render(store.model, size: size)
            #expect(screen.contains("4 sessions (3 visitors)") && !screen.contains("Waiting for the room"))
        }
        // The next one replaces it, in the room as outside it.
        var later = F.snapshot
        later.sessions.removeLast()
        store.send(.feature(RoomFeature.Event.snapshot(later))) { $0.lastRoomSnapshot = later; $0.screen = .room(F.feature(later)) }
    }

    /// W is in an operator's key bar, not only in help, at 80 columns as wider.
    @Test func wIsInTheOperatorsKeyBar() {
        var accounts = F.console()
        accounts.screen = .accounts(AccountsFeature())
        for model in [F.console(), accounts] {
            for size in [Size(width: 80, height: 24), Size(width: 132, height: 40)] {
                let bar = render(model, size: size).components(separatedBy: "\n").last { !$0.trimmingCharacters(in: .whitespaces).isEmpty } ?? ""
                #expect(bar.contains("W room"), "\(bar)")
            }
        }
        #expect(!render(F.console(access: nil)).contains("W room"))
    }

    @Test func theAccountsViewOpensTheRoomToo() {
        var model = F.console()
        model.screen = .accounts(AccountsFeature())
        var store = FlowStore(model)
        store.send(.key(.character("W"))) { $0.screen = .room(RoomFeature()) }
    }

    @Test func theTableFollowsEachSnapshotKeepingTheSelectedVisitor() {
        var store = FlowStore(F.opened())
        store.send(.key(.down)) { $0.room { $0.selection = 1 } }
        store.send(.key(.down)) { $0.room { $0.selection = 2 } }
        #expect(store.model.roomView?.selected?.id == 2)
        // Visitor 1 leaves and another arrives: the selection stays on visitor 2.
        var next = F.snapshot
        next.sessions.removeFirst()
        next.sessions.append(F.session(5, "10.0.0.5", connected: 1))
        store.send(.feature(RoomFeature.Event.snapshot(next))) { $0.lastRoomSnapshot = next; $0.screen = .room(F.feature(next)); $0.room { $0.selection = 1 } }
        #expect(store.model.roomView?.selected?.id == 2)
        #expect(store.model.roomView?.rows.map(\.id) == [0, 2, 3, 5])
        #expect(!render(store.model).contains("10.0.0.1 "))
    }

    /// The filter being typed takes the header's row whole, with the count of rows it shows.
    @Test func theFilterBeingTypedLeavesNoHeaderBehindIt() {
        var model = F.opened()
        model.room { $0.typingFilter = true; $0.filterField = TextField(text: "10.0.0.1", maxLength: 64); $0.filter = "10.0.0.1"; $0.arrange() }
        for size in [Size(width: 80, height: 24), Size(width: 132, height: 40)] {
            let header = render(model, size: size).components(separatedBy: "\n")[2]
            #expect(header.trimmingCharacters(in: .whitespaces).hasPrefix("/ 10.0.0.1"), "\(header)")
            #expect(header.hasSuffix(" 1 shown") || header.trimmingCharacters(in: .whitespaces).hasSuffix("1 shown"), "\(header)")
            #expect(!header.contains("\"") && !header.contains("order") && !header.contains("sessions"), "\(header)")
        }
    }

    @Test func filterAndOrderAsInTheAccountsView() {
        var store = FlowStore(F.opened())
        store.send(.key(.character("/"))) { $0.room { $0.typingFilter = true } }
        store.type("PHONE") { $0.room { $0.filterField = TextField(text: "PHONE", maxLength: 64); $0.filter = "PHONE"; $0.arrange() } }
        #expect(store.model.roomView?.rows.map(\.id) == [1])
        #expect(render(store.model).contains(" 1 shown"))
        store.send(.key(.escape)) { $0.room { $0.typingFilter = false; $0.filter = ""; $0.filterField = TextField(maxLength: 64); $0.arrange() } }
        #expect(store.model.roomView?.rows.count == 4)
        // Stuck first, then idle: nobody is stuck here, so the order stays as they came.
        store.send(.key(.character("o"))) { $0.room { $0.order = .stuck; $0.arrange() } }
        #expect(store.model.roomView?.rows.map(\.id) == [0, 1, 2, 3])
        store.send(.key(.character("o"))) { $0.room { $0.order = .idle; $0.arrange() } }
        #expect(store.model.roomView?.rows.map(\.id) == [2, 3, 1, 0])
        store.send(.key(.character("O"))) { $0.room { $0.descending = true; $0.arrange() } }
        #expect(store.model.roomView?.rows.map(\.id) == [0, 1, 3, 2])
        // Filtering by account: the anonymous one.
        store.send(.key(.character("/"))) { $0.room { $0.typingFilter = true } }
        store.type("anonymous") { $0.room { $0.filterField = TextField(text: "anonymous", maxLength: 64); $0.filter = "anonymous"; $0.selection = 0; $0.arrange() } }
        #expect(store.model.roomView?.rows.map(\.id) == [3])
    }

    @Test func aMessageIsTypedCappedAndSent() {
        var store = FlowStore(F.opened())
        store.send(.key(.character("M"))) { $0.room { $0.panel = .message(TextField(maxLength: RoomText.messageLimit), to: nil) } }
        #expect(render(store.model).contains("at most 200 characters"))
        // 10 KB pasted: the field keeps the first 200.
        for _ in 0..<10_240 { _ = store.model.handle(.key(.character("x"))) }
        guard case let .message(field, _) = store.model.roomView?.panel else { Issue.record("no message panel"); return }
        #expect(field.text.count == 200)
        #expect(render(store.model).contains("200/200"))
        store.send(.key(.enter), effects: [.room(.send(.message(String(repeating: "x", count: 200))))]) {
            $0.room { $0.panel = nil }
            $0.busy = "Sending the message…"
        }
        store.send(.feature(RoomFeature.Event.answered("Sent to 3 visitors: xxx"))) {
            $0.busy = nil
            $0.banner = Banner(.success, "Sent to 3 visitors: xxx")
        }
        // An empty one is not sent.
        store.send(.key(.character("M"))) { $0.room { $0.panel = .message(TextField(maxLength: RoomText.messageLimit), to: nil) }; $0.banner = nil }
        store.send(.key(.enter)) { $0.banner = Banner(.error, "Type a message first, or esc to cancel.") }
        store.send(.key(.escape)) { $0.room { $0.panel = nil }; $0.banner = nil }
    }

    /// Only a key brings a visitor back to their project: the dialog says which this one is.
    @Test func endingSaysWhetherTheVisitorCanComeBackToTheirProject() {
        func dialog(_ index: Int, size: Size) -> String {
            var model = F.opened()
            model.room { $0.panel = .confirmEnd(F.snapshot.sessions[index]) }
            return render(model, size: size).replacingOccurrences(of: "│", with: " ").split(whereSeparator: \.isWhitespace).joined(separator: " ")
        }
        for size in [Size(width: 80, height: 24), Size(width: 132, height: 40)] {
            #expect(dialog(0, size: size).contains("They came without a key, so they cannot come back to their project"))
            #expect(!dialog(0, size: size).contains("project is kept"))
            #expect(dialog(1, size: size).contains("Their project is kept: connecting with the same key brings them back to it."))
        }
    }

    /// m on a visitor's row writes to them alone; an operator's row has no m.
    @Test func aMessageToOneVisitorFromTheirRow() {
        var store = FlowStore(F.opened())
        #expect(!store.model.bindings.contains { $0.keys.contains(.character("m")) })
        store.send(.key(.character("m")))
        store.send(.key(.down)) { $0.room { $0.selection = 1 } }
        let visitor = F.snapshot.sessions[0]
        store.send(.key(.character("m"))) { $0.room { $0.panel = .message(TextField(maxLength: RoomText.messageLimit), to: visitor) } }
        for size in [Size(width: 80, height: 24), Size(width: 132, height: 40)] {
            let screen = render(store.model, size: size)
            #expect(screen.contains("Message v1@10.0.0.1") && screen.contains("A line on their console alone"))
        }
        store.type("Try the phone again") { $0.room { $0.panel = .message(TextField(text: "Try the phone again", maxLength: RoomText.messageLimit), to: visitor) } }
        store.send(.key(.enter), effects: [.room(.send(.messageOne(session: 1, "Try the phone again")))]) {
            $0.room { $0.panel = nil }
            $0.busy = "Sending the message…"
        }
    }

    /// The presenter's message has a line of its own: the error the visitor reads stays, and help has both whole.
    @Test func aPresentersMessageNeverReplacesTheErrorTheVisitorReads() {
        var model = ConsoleModel(backendName: "demo", operatorAccess: nil, inRoom: true)
        model.screen = .signInMethods(SignInMethodsFeature(selection: 0))
        model.banner = Banner(.error, "Too many attempts: try again later.", detail: "tooManyRequests (17010) · TOO_MANY_ATTEMPTS_TRY_LATER")
        var store = FlowStore(model)
        let long = "Everyone: open the phone sign-in and type the number on the projector; the code arrives in the outbox, F3 opens it"
        store.send(.roomNotice(.message(long))) { $0.presenterMessage = "From the presenter: " + long }
        for size in [Size(width: 80, height: 24), Size(width: 132, height: 40)] {
            let screen = render(store.model, size: size)
            #expect(screen.contains("error: Too many attempts: try again later."))
            #expect(screen.contains("TOO_MANY_ATTEMPTS_TRY_LATER"))
            #expect(screen.components(separatedBy: "\n")[1].contains("From the presenter: Everyone: open the phone sign-in"))
        }
        store.send(.key(.character("?"))) { $0.overlay = .help }
        let help = render(store.model, size: Size(width: 132, height: 40)).replacingOccurrences(of: "│", with: " ")
            .split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(help.contains("From the presenter: Everyone: open the phone sign-in and") && help.contains("outbox, F3 opens it"))
        #expect(help.contains("Too many attempts: try again later."))
    }

    @Test func endingASessionAsksFirstAndRefusesTheOperatorsOwn() {
        var store = FlowStore(F.opened())
        store.send(.key(.character("x"))) { $0.banner = Banner(.error, "That is your own session: quit it with q.") }
        store.send(.key(.down)) { $0.room { $0.selection = 1 } }
        store.send(.key(.character("x"))) { $0.room { $0.panel = .confirmEnd(F.snapshot.sessions[0]) }; $0.banner = nil }
        let dialog = render(store.model)
        #expect(dialog.contains("End this session?"))
        // It opens on Cancel, as every destructive dialog does: enter there ends nothing.
        #expect(dialog.contains("[>Cancel (esc)<]"))
        #expect(dialog.contains("[ End it (y) ]"))
        store.send(.key(.enter)) { $0.room { $0.panel = nil } }
        store.send(.key(.character("x"))) { $0.room { $0.panel = .confirmEnd(F.snapshot.sessions[0]) } }
        store.send(.key(.escape)) { $0.room { $0.panel = nil } }
        // Chosen with the arrows, enter ends it; back on Cancel, it does not.
        store.send(.key(.character("x"))) { $0.room { $0.panel = .confirmEnd(F.snapshot.sessions[0]) } }
        store.send(.key(.right)) { $0.room { $0.panel = .confirmEnd(F.snapshot.sessions[0], confirmSelected: true) } }
        #expect(render(store.model).contains("[>End it (y)<]"))
        store.send(.key(.left)) { $0.room { $0.panel = .confirmEnd(F.snapshot.sessions[0]) } }
        store.send(.key(.tab)) { $0.room { $0.panel = .confirmEnd(F.snapshot.sessions[0], confirmSelected: true) } }
        store.send(.key(.enter), effects: [.room(.send(.end(session: 1)))]) {
            $0.room { $0.panel = nil }
            $0.busy = "Ending v1@10.0.0.1…"
        }
        store.send(.feature(RoomFeature.Event.answered("Ended v1@10.0.0.1."))) {
            $0.busy = nil
            $0.banner = Banner(.success, "Ended v1@10.0.0.1.")
        }
        // y ends it whichever button is selected.
        store.send(.key(.character("x"))) { $0.room { $0.panel = .confirmEnd(F.snapshot.sessions[0]) }; $0.banner = nil }
        store.send(.key(.character("y")), effects: [.room(.send(.end(session: 1)))]) {
            $0.room { $0.panel = nil }
            $0.busy = "Ending v1@10.0.0.1…"
        }
        store.send(.feature(RoomFeature.Event.answered("Ended v1@10.0.0.1."))) {
            $0.busy = nil
            $0.banner = Banner(.success, "Ended v1@10.0.0.1.")
        }
    }

    @Test func resetNamesTheCountsBeforeItRuns() {
        var store = FlowStore(F.opened())
        store.send(.key(.character("R")), effects: [.room(.send(.previewReset))]) { $0.busy = "Counting what a reset empties…" }
        // A snapshot meanwhile does not end the wait.
        store.send(.feature(RoomFeature.Event.snapshot(F.snapshot))) { $0.lastRoomSnapshot = F.snapshot }
        let counts = ResetCounts(sessions: 3, projects: 4, accounts: 12)
        store.send(.feature(RoomFeature.Event.resetPreview(counts))) { $0.busy = nil; $0.room { $0.panel = .confirmReset(counts) } }
        let dialog = render(store.model)
        #expect(dialog.contains("Reset the demo?"))
        #expect(dialog.contains("[>Cancel (esc)<]"))
        // On Cancel, enter resets nothing; y does.
        store.send(.key(.enter)) { $0.room { $0.panel = nil } }
        store.send(.feature(RoomFeature.Event.resetPreview(counts))) { $0.room { $0.panel = .confirmReset(counts) } }
        #expect(RoomScreen.resetQuestion(counts) == "This empties 4 visitor projects (12 accounts, with their identities, outbox and sessions) "
            + "and sends the 3 visitors connected now back to signing in. Your own project and its accounts are untouched.")
        store.send(.key(.character("y")), effects: [.room(.send(.reset))]) { $0.room { $0.panel = nil }; $0.busy = "Resetting the demo…" }
        store.send(.feature(RoomFeature.Event.resetDone(counts))) {
            $0.busy = nil
            $0.banner = Banner(.success, "The demo was reset: 4 visitor projects emptied (12 accounts removed), 3 visitors back at signing in. Your own project is untouched.")
        }
    }

    @Test func followingShowsTheVisitorsScreenWholeAndReturnsWhenTheyLeave() {
        var store = FlowStore(F.opened())
        // The presenter's own console: following it would show it inside itself.
        store.send(.key(.enter)) { $0.banner = Banner(.error, "That is your own console: following it would show it inside itself.") }
        store.send(.key(.down)) { $0.room { $0.selection = 1 } }
        let visitor = F.snapshot.sessions[0]
        store.send(.key(.enter), effects: [.room(.send(.follow(session: 1)))]) { $0.room { $0.panel = .following(visitor, nil) }; $0.banner = nil }
        #expect(render(store.model).contains("Waiting for v1@10.0.0.1's screen…"))
        let frame = ScreenFrame(columns: 80, rows: ["AuthDeck · Sign in with a phone number"] + Array(repeating: "", count: 22) + ["enter submit"])
        store.send(.feature(RoomFeature.Event.followed(session: 1, frame))) { $0.room { $0.panel = .following(visitor, frame) } }
        var lines = render(store.model).components(separatedBy: "\n")
        // Their screen whole, key bar included: the presenter's bar takes their title row.
        #expect(lines[0].hasPrefix("Following v1@10.0.0.1 · esc: back to the room"))
        #expect(lines[23] == "enter submit")
        // Frames of another session are not shown.
        store.send(.feature(RoomFeature.Event.followed(session: 2, ScreenFrame(columns: 1, rows: ["x"]))))
        // A smaller screen leaves a row for the bar under it.
        let small = ScreenFrame(columns: 60, rows: ["tiny"])
        store.send(.feature(RoomFeature.Event.followed(session: 1, small))) { $0.room { $0.panel = .following(visitor, small) } }
        lines = render(store.model).components(separatedBy: "\n")
        #expect(lines[0] == "tiny" && lines[1].hasPrefix("Following v1@10.0.0.1"))
        store.send(.feature(RoomFeature.Event.followEnded(session: 1, reason: "v1@10.0.0.1 left."))) {
            $0.busy = nil
            $0.room { $0.panel = nil }
            $0.banner = Banner(.info, "v1@10.0.0.1 left.")
        }
        store.send(.key(.enter), effects: [.room(.send(.follow(session: 1)))]) { $0.room { $0.panel = .following(visitor, nil) }; $0.banner = nil }
        store.send(.key(.escape), effects: [.room(.send(.follow(session: nil)))]) { $0.room { $0.panel = nil } }
    }

    @Test func twoHundredSessionsArePagedAndAFrameDrawsOnePage() {
        let many = RoomSnapshot(sessions: (1...200).map { F.session($0, "10.0.\($0 / 250).\($0 % 250)", connected: 1000 - $0) }, viewer: 999)
        var store = FlowStore(F.opened(many))
        #expect(render(store.model).contains("page 1/15"))
        store.send(.key(.pageDown)) { $0.room { $0.selection = 14 } }
        store.send(.key(.character("G"))) { $0.room { $0.selection = 199 } }
        let screen = render(store.model)
        #expect(screen.contains("page 15/15"))
        #expect(screen.contains(">  v200 "))
        #expect(!screen.contains(" v1 "))
    }

    /// The room reads the account's linked methods, not the provider the token was issued for.
    @Test func theStatusCarriesTheLinkedMethodsNotTheTokensProvider() {
        var model = Fixtures.signedIn(Fixtures.passwordUser(extraProviders: [UserInfo(providerID: "google.com", uid: "g-1")]))
        model.token = TokenSummary(shortToken: "eyJ…", signInProvider: "google.com", expirationDate: nil)
        #expect(model.roomStatus.methods == ["password", "google.com"])
        // Google unlinked: the token still says google.com, the room no longer does.
        model.user = Fixtures.passwordUser()
        #expect(model.roomStatus.methods == ["password"])
        var row = F.snapshot.sessions[1]
        row.status?.methods = ["password"]
        #expect(RoomScreen.row(row, selected: false, viewer: 0).contains("password "))
        #expect(!RoomScreen.row(row, selected: false, viewer: 0).contains("google"))
    }

    /// At 132 columns the screen and the methods take the extra width, so that neither is cut.
    @Test func theTableAt132Columns() {
        let wide = RoomSnapshot(sessions: [F.session(1, "10.0.0.1", connected: 30, screen: "Second factor: choose how to confirm it is you", uid: "u1",
                                                     methods: ["password", "google.com", "apple.com", "microsoft.com", "phone"])], viewer: 0)
        let screen = render(F.opened(wide), size: Size(width: 132, height: 30))
        #expect(screen.contains("Second factor: choose how to confirm it is you"))
        #expect(screen.contains("password, google, apple, microsoft, phone"))
        #expect(screen.contains("guest-10000000000"))
    }

    @Test func aVisitorsConsoleShowsTheRoomsNotices() {
        let user = Fixtures.passwordUser()
        var model = ConsoleModel(backendName: "demo", operatorAccess: nil, inRoom: true)
        model.user = user
        model.screen = .phone(PhoneFeature(purpose: .link))
        var store = FlowStore(model)
        #expect(store.model.roomStatus == ConsoleStatus(screen: "Phone link: number", uid: user.uid, methods: user.providerData.map(\.providerID), anonymous: false))
        store.send(.roomNotice(.message("Break\u{1B}[2J in 5"))) { $0.presenterMessage = "From the presenter: Break [2J in 5" }
        store.send(.roomNotice(.watched(true))) { $0.watched = true }
        #expect(render(store.model).contains("The presenter is watching your screen"))
        store.send(.roomFrames(true)) { $0.framesWanted = true }
        store.send(.roomNotice(.watched(false))) { $0.watched = false }
        #expect(!render(store.model).contains("watching"))
        // Mid-flow and busy: the reset takes it back to the sign-in methods, signed out.
        store.model.busy = "Texting a code…"
        store.model.typedAhead = [.character("1")]
        store.send(.roomNotice(.accountReset), effects: [.signOut]) {
            $0.busy = nil
            $0.typedAhead = []
            $0.user = nil
            $0.screen = .signInMethods(SignInMethodsFeature(selection: 0))
            $0.banner = Banner(.info, "The presenter reset the demo: your account and everything in your project are gone. Sign in again to start afresh.")
        }
        #expect(store.model.roomStatus == ConsoleStatus(screen: "Sign in"))
        store.send(.roomNotice(.ending("The presenter ended this session.")), effects: [.quit])
    }
}
