@testable import AuthDeckApp
import AuthClient
import Foundation
import RoomChannel
import SnapshotTesting
import Testing
import TerminalUI

/// Who looks stuck: a visitor whose last request failed, or who has been on one step for minutes;
/// marked `!` in the table, counted in the header, said in the detail line, and sorted first by `o`.
@Suite("Stuck visitors")
struct RoomStuckTests {
    typealias F = RoomFixtures

    static func stuckRoom() -> RoomSnapshot {
        var snapshot = F.snapshot
        snapshot.sessions[0].status?.failure = "TOO_MANY_ATTEMPTS_TRY_LATER"
        snapshot.sessions[0].stepSeconds = 20
        snapshot.sessions[1].stepSeconds = RoomFeature.stuckAfterSeconds - 1
        snapshot.sessions[2].stepSeconds = RoomFeature.stuckAfterSeconds + 60
        // An operator in one place for long is never stuck.
        snapshot.sessions[3].stepSeconds = 3600
        return snapshot
    }

    @Test func aFailedRequestOrMinutesOnOneStepIsStuck() {
        let sessions = Self.stuckRoom().sessions
        #expect(sessions.map(RoomFeature.stuck) == ["TOO_MANY_ATTEMPTS_TRY_LATER", nil, "on this step for 4m", nil])
        var signedOut = sessions[1]
        signedOut.status = nil
        signedOut.stepSeconds = 3600
        #expect(RoomFeature.stuck(signedOut) == nil)
    }

    @Test func oSortsTheStuckFirstLongestOnTheirStepFirst() {
        var store = FlowStore(F.opened(Self.stuckRoom()))
        #expect(store.model.roomView?.rows.map(\.id) == [0, 1, 2, 3])
        store.send(.key(.character("o"))) {
            $0.room { $0.order = .stuck; $0.arrange() }
        }
        // The selection stays on the presenter's own row, wherever it moved.
        #expect(store.model.roomView?.rows.map(\.id) == [3, 1, 0, 2])
        #expect(store.model.roomView?.selection == 2)
        let screen = render(store.model)
        #expect(screen.contains("4 sessions (3 visitors, 2 stuck !) · order: stuck ↓"))
        #expect(screen.contains("  ! v3 ") && screen.contains("  ! v1 ") && !screen.contains("! v2"))
        store.send(.key(.character("g"))) { $0.room { $0.selection = 0 } }
        #expect(render(store.model).contains("v3@10.0.0.3 · stuck: on this step for 4m · guest-30000000000"))
        store.send(.key(.down)) { $0.room { $0.selection = 1 } }
        #expect(render(store.model).contains(" >! v1 "))
        #expect(render(store.model).contains("v1@10.0.0.1 · stuck: TOO_MANY_ATTEMPTS_TRY_LATER · guest-10000000000 · no key"))
    }

    @Test func theStuckAt80x24() {
        var model = F.opened(Self.stuckRoom())
        model.room { $0.order = .stuck; $0.arrange() }
        assertSnapshot(of: render(model), as: .lines)
    }

    @Test func theStuckAt132x40() {
        var model = F.opened(Self.stuckRoom())
        model.room { $0.order = .stuck; $0.arrange() }
        assertSnapshot(of: render(model, size: Size(width: 132, height: 40)), as: .lines)
    }

    /// The console says the code of its last request when the backend refused it; its periodic
    /// work is not the visitor's, and a later success clears it.
    @Test func theStatusCarriesTheLastFailedRequestsCode() {
        func call(_ status: Int, _ body: String, background: Bool = false) -> BackendExchange {
            BackendExchange(date: Date(), method: "POST", path: "/v1/accounts:signInWithPassword", status: status, latency: 0.01,
                            requestBody: Data("{}".utf8), responseBody: Data(body.utf8), isBackground: background)
        }
        let refused = call(400, #"{"error":{"code":400,"message":"TOO_MANY_ATTEMPTS_TRY_LATER : Too many attempts.","errors":[]}}"#)
        var model = F.console()
        model.exchanges = [refused]
        #expect(model.roomStatus.failure == "TOO_MANY_ATTEMPTS_TRY_LATER")
        model.exchanges = [refused, call(200, "{}", background: true)]
        #expect(model.roomStatus.failure == "TOO_MANY_ATTEMPTS_TRY_LATER")
        model.exchanges = [call(400, #"{"error":{"message":"INVALID_LOGIN_CREDENTIALS"}}"#)]
        #expect(model.roomStatus.failure == "INVALID_LOGIN_CREDENTIALS")
        model.exchanges = [call(503, "upstream gone")]
        #expect(model.roomStatus.failure == "HTTP_503")
        model.exchanges = [refused, call(200, "{}")]
        #expect(model.roomStatus.failure == nil)
    }
}
