@testable import AuthDeckApp
import Foundation
import RoomChannel
import Testing
import TerminalUI

/// Following a visitor: their whole screen with the presenter's bar, what is cut on a smaller
/// terminal, the presenter's keys only, and the room's footer at 80 columns.
@Suite("Following a visitor")
struct RoomFollowingTests {
    typealias F = RoomFixtures

    /// A visitor's 80×24 screen: title, content, banner, key bar.
    static func visitorScreen(columns: Int = 80, rows: Int = 24) -> ScreenFrame {
        ScreenFrame(columns: columns, rows: ["AuthDeck · Sign in with a phone number"] + (1..<rows - 1).map { "their row \($0 + 1)" }
            + ["enter submit  esc back  s SDK  ? help"])
    }

    /// The presenter following v1, with `frame` shown.
    static func following(_ frame: ScreenFrame?) -> ConsoleModel {
        var model = F.opened()
        model.room { $0.panel = .following(F.snapshot.sessions[0], frame) }
        return model
    }

    @Test func theSameSizeShowsTheirKeyBarAndTheBarTakesTheirTitleRow() {
        let lines = render(Self.following(Self.visitorScreen())).components(separatedBy: "\n")
        #expect(lines[0].hasPrefix("Following v1@10.0.0.1 · esc: back to the room · m: message them · Phone sign-in"))
        #expect(lines[1] == "their row 2")
        #expect(lines[23] == "enter submit  esc back  s SDK  ? help")
        #expect(!lines.joined().contains("not shown"))
    }

    @Test func aLargerTerminalShowsTheirScreenWholeWithTheBarUnderIt() {
        let lines = render(Self.following(Self.visitorScreen()), size: Size(width: 100, height: 30)).components(separatedBy: "\n")
        #expect(lines[0] == "AuthDeck · Sign in with a phone number")
        #expect(lines[23] == "enter submit  esc back  s SDK  ? help")
        #expect(lines[24].hasPrefix("Following v1@10.0.0.1 · esc: back to the room"))
    }

    @Test func aSmallerTerminalSaysWhatIsCutAndKeepsTheirBannerAndKeyBar() {
        let big = Self.visitorScreen(columns: 100, rows: 30)
        let lines = render(Self.following(big)).components(separatedBy: "\n")
        #expect(lines[0].hasPrefix("Following v1@10.0.0.1 · esc: back to the room"))
        #expect(lines[1] == "Not shown: their rows 21–26 and columns 81–100 · resize to 100×31 to see it all")
        #expect(lines[19] == "their row 20")
        #expect(lines[20] == "their row 27")
        #expect(lines[23] == "enter submit  esc back  s SDK  ? help")
        let layout = FollowedLayout(frame: Size(width: 80, height: 30), terminal: Size(width: 80, height: 24))
        #expect(layout.hiddenRows == 21...26 && layout.hiddenColumns == nil)
        #expect(layout.note(frame: Size(width: 80, height: 30)) == "Not shown: their rows 21–26 · resize to 80×31 to see it all")
        // Wider only: their rows all there, under the bar and the note.
        let wide = FollowedLayout(frame: Size(width: 120, height: 24), terminal: Size(width: 80, height: 24))
        #expect(wide.barRow == 0 && wide.noteRow == 1 && wide.sources[2] == 2 && wide.sources[23] == 23 && wide.hiddenRows == nil)
    }

    @Test func onlyThePresentersKeysWorkWhileFollowing() {
        var model = Self.following(Self.visitorScreen())
        // s, i and ? open none of the presenter's own panes over the screen they show.
        for key in [Key.character("s"), .function(4), .character("?"), .character("i")] {
            _ = model.handle(.key(key))
            #expect(model.overlay == nil, "\(key)")
            #expect(model.roomView?.isFollowing == true)
        }
        #expect(!model.bindings.contains { $0.keys.contains(.character("s")) || $0.keys.contains(.function(4)) })
        // m: a message to them over their screen, which stays; esc cancels it and keeps following.
        _ = model.handle(.key(.character("m")))
        guard case .following(_, _, .some, _)? = model.roomView?.panel else { Issue.record("no message field"); return }
        #expect(render(model).contains("Message v1@10.0.0.1"))
        #expect(render(model).contains("enter: send · esc: cancel"))
        _ = model.handle(.key(.escape))
        guard case .following(_, _, nil, _)? = model.roomView?.panel else { Issue.record("not following"); return }
        _ = model.handle(.key(.character("m")))
        for character in "Try F4" { _ = model.handle(.key(.character(character))) }
        #expect(model.handle(.key(.enter)) == [.room(.send(.messageOne(session: 1, "Try F4")))])
        // The answer is on the bar: no banner is drawn over their screen.
        let context = model.context
        model.room { _ = $0.handle(.answered("Sent to v1@10.0.0.1: Try F4"), in: context) }
        #expect(render(model, size: Size(width: 132, height: 40)).components(separatedBy: "\n")[24].contains("m: message them · Sent to v1@10.0.0.1: Try F4"))
        #expect(model.handle(.key(.escape)) == [.room(.send(.follow(session: nil)))])
        #expect(model.roomView?.panel == nil)
    }

    @Test func theFollowedScreenOwnsEveryKeyButQuit() {
        var store = FlowStore(Self.following(Self.visitorScreen()))
        let panes: [Key] = [.function(1), .function(2), .function(3), .function(4), .character("?"), .character("s"), .character("i")]
        for key in panes { store.send(.key(key)) }
        #expect(store.model.bindings.allSatisfy { binding in
            if case let .console(command) = binding.intent { command == .quit } else { true }
        })
        // Typing a message to them: the function keys type nothing and open nothing, `?` is a letter.
        store.send(.key(.character("m"))) { $0.room { $0.panel = .following(F.snapshot.sessions[0], Self.visitorScreen(), message: TextField(maxLength: RoomText.messageLimit)) } }
        for key in panes.prefix(4) { store.send(.key(key)) }
        store.send(.key(.character("?"))) { $0.room { $0.panel = .following(F.snapshot.sessions[0], Self.visitorScreen(), message: TextField(text: "?", maxLength: RoomText.messageLimit)) } }
        store.send(.key(.control("c")), effects: [.quit])
        // Back at the table, F1 is help again.
        store.send(.key(.escape)) { $0.room { $0.panel = .following(F.snapshot.sessions[0], Self.visitorScreen()) } }
        store.send(.key(.escape), effects: [.room(.send(.follow(session: nil)))]) { $0.room { $0.panel = nil } }
        store.send(.key(.function(1))) { $0.overlay = .help }
    }

    /// On the visitor's side: a message and that they are watched share the row under the title.
    @Test func aWatchedVisitorReadsThePresentersMessageWholeOrWhereItIs() {
        var model = ConsoleModel(backendName: "demo", operatorAccess: nil, inRoom: true)
        model.screen = .signInMethods(SignInMethodsFeature(selection: 0))
        model.watched = true
        model.presenterMessage = "From the presenter: Now add a second factor with f"
        #expect(render(model).components(separatedBy: "\n")[1] == " From the presenter: Now add a second factor with f  The presenter is watching")
        let wide = render(model, size: Size(width: 100, height: 24)).components(separatedBy: "\n")[1]
        #expect(wide.hasPrefix(" From the presenter: Now add a second factor with f ") && wide.hasSuffix("The presenter is watching your screen"))
        model.presenterMessage = "From the presenter: Break in five minutes: finish the step you are on, then try linking a provider"
        let row = render(model).components(separatedBy: "\n")[1]
        #expect(row == " From the presenter: Break in five minutes: finish the… F1: all of it  Watched")
        model.watched = false
        #expect(render(model).components(separatedBy: "\n")[1] == " From the presenter: Break in five minutes: finish the step you … F1: all of it")
    }

    @Test func theFooterIsBrokenOverTwoRowsAt80Columns() {
        var session = F.snapshot.sessions[1]
        session.status?.uid = "Yk3oQm0vTq1fJb9XcN2sLw8ZpR4d"
        session.key = "SHA256:nThbg6kXUpJWGl7E1IGOCspRomTxdCARLviKw6E5SY8"
        let lines = RoomScreen.detailLines(session, width: 78)
        #expect(lines == ["v2@10.0.0.2 · guest-20000000000 · uid Yk3oQm0vTq1fJb9XcN2sLw8ZpR4d",
                          "SHA256:nThbg6kXUpJWGl7E1IGOCspRomTxdCARLviKw6E5SY8"])
        var model = F.opened(RoomSnapshot(sessions: [session], viewer: 0))
        model.room { $0.selection = 0 }
        let screen = render(model).components(separatedBy: "\n")
        #expect(screen[18].contains(lines[0]) && screen[19].contains(lines[1]), "\(screen[18])\n\(screen[19])")
        // A keyed visitor's project id and their key fit too, whole.
        var keyed = session
        keyed.project = "visitor-0123456789abcdef"
        keyed.user = "ada"
        #expect(RoomScreen.detailLines(keyed, width: 78) == ["ada@10.0.0.2 · visitor-0123456789abcdef · uid Yk3oQm0vTq1fJb9XcN2sLw8ZpR4d",
                                                             "SHA256:nThbg6kXUpJWGl7E1IGOCspRomTxdCARLviKw6E5SY8"])
        // A third row's worth ends the second, cut.
        session.status?.failure = "TOO_MANY_ATTEMPTS_TRY_LATER"
        let stuck = RoomScreen.detailLines(session, width: 78)
        #expect(stuck.count == 2 && stuck.allSatisfy { TextWidth.cells($0) <= 78 } && stuck[1].hasSuffix("…"))
    }
}
