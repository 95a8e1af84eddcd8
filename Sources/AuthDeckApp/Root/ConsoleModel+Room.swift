import AuthClient
import Foundation
import RoomChannel

/// What every console under `authdeck ssh` does with the room, whatever it shows: the presenter's
/// messages, that they watch, the end of the session, a reset; and what it tells the room of itself.
extension ConsoleModel {
    mutating func roomNotice(_ notice: RoomNotice) -> [ConsoleEffect] {
        switch notice {
        case let .message(text):
            presenterMessage = "From the presenter: \(RoomText.clean(text).text)"
            return []
        case let .watched(on):
            watched = on
            return []
        case .ending:
            // The console quits as when the visitor presses q, giving their terminal back; the server says why.
            return [.quit]
        case .accountReset:
            let wasSignedIn = user != nil
            token = nil
            busy = nil
            typedAhead = []
            overlay = nil
            linkAfterSignIn = nil
            let landed = leaveFlow(.sessionEnded(Banner(.info, wasSignedIn
                ? "The presenter reset the demo: your account and everything in your project are gone. Sign in again to start afresh."
                : "The presenter reset the demo: your project is empty again.")))
            return landed + (wasSignedIn ? [.signOut] : [])
        }
    }

    /// What the room shows of this console: its screen, the account and the sign-in methods linked
    /// to it. Never a token, code, password or email.
    public var roomStatus: ConsoleStatus {
        ConsoleStatus(screen: screen.feature.roomDescription, uid: user?.uid, methods: user?.providerData.map(\.providerID) ?? [],
                      anonymous: user?.isAnonymous ?? false, failure: Self.lastFailure(exchanges))
    }

    /// The error code of the last call the visitor's own work made, when the backend refused it
    /// (Identity Toolkit's `{"error": {"message": "CODE : words"}}`); background calls are not theirs.
    static func lastFailure(_ exchanges: [BackendExchange]) -> String? {
        guard let last = exchanges.last(where: { !$0.isBackground }), last.status >= 400 else { return nil }
        guard let body = try? JSONSerialization.jsonObject(with: Data(last.response.utf8)) as? [String: Any],
              let message = (body["error"] as? [String: Any])?["message"] as? String,
              let code = message.split(whereSeparator: { $0 == " " || $0 == ":" }).first else {
            return "HTTP_\(last.status)"
        }
        return String(code)
    }
}

/// A message from the room as the console's event; nil for what only a console sends.
extension ConsoleEvent {
    public init?(_ message: RoomMessage) {
        switch message {
        case let .notice(notice): self = .roomNotice(notice)
        case let .sendFrames(wanted): self = .roomFrames(wanted)
        case let .room(snapshot): self = .feature(RoomFeature.Event.snapshot(snapshot))
        case let .answered(text): self = .feature(RoomFeature.Event.answered(text))
        case let .refused(text): self = .feature(RoomFeature.Event.refused(text))
        case let .resetPreview(counts): self = .feature(RoomFeature.Event.resetPreview(counts))
        case let .resetDone(counts): self = .feature(RoomFeature.Event.resetDone(counts))
        case let .followed(session, frame): self = .feature(RoomFeature.Event.followed(session: session, frame))
        case let .followEnded(session, reason): self = .feature(RoomFeature.Event.followEnded(session: session, reason: reason))
        case .status, .command, .frame: return nil
        }
    }
}
