import Foundation

/// What a console tells `authdeck ssh` about itself, for the presenter's room: the screen or flow
/// it shows and the account signed in to. Never a secret: no token, code, password or email.
public struct ConsoleStatus: Codable, Equatable, Sendable {
    /// "Phone sign-in: code sent", "Link conflict", "TOTP enrolment: QR shown".
    public var screen: String
    public var uid: String?
    /// The account's linked sign-in methods ("password", "phone", "google.com"…, its `providerData`),
    /// not the provider its token was issued for: after unlinking Google the room no longer says Google.
    public var methods: [String]
    public var anonymous: Bool
    /// The backend's error code for the console's last request (`TOO_MANY_ATTEMPTS_TRY_LATER`), when it failed.
    public var failure: String?

    public init(screen: String, uid: String? = nil, methods: [String] = [], anonymous: Bool = false, failure: String? = nil) {
        self.screen = screen
        self.uid = uid
        self.methods = methods
        self.anonymous = anonymous
        self.failure = failure
    }
}

/// One SSH session as the room shows it.
public struct RoomSession: Codable, Equatable, Sendable, Identifiable {
    public var id: Int
    public var user: String
    public var address: String
    /// `SHA256:…`; nil when the visitor offered no key.
    public var key: String?
    public var isOperator: Bool
    public var project: String?
    /// Seconds since connecting, and since the last key, when the snapshot was taken.
    public var connectedSeconds: Int
    public var idleSeconds: Int
    /// nil until the console has said what it shows.
    public var status: ConsoleStatus?
    /// Seconds on the screen or step it shows, when the snapshot was taken.
    public var stepSeconds: Int

    public init(id: Int, user: String, address: String, key: String?, isOperator: Bool, project: String?,
                connectedSeconds: Int, idleSeconds: Int, status: ConsoleStatus?, stepSeconds: Int = 0) {
        self.stepSeconds = stepSeconds
        self.id = id
        self.user = user
        self.address = address
        self.key = key
        self.isOperator = isOperator
        self.project = project
        self.connectedSeconds = connectedSeconds
        self.idleSeconds = idleSeconds
        self.status = status
    }
}

/// Every session, as pushed to the operators' consoles; `viewer` is the receiving console's own.
public struct RoomSnapshot: Codable, Equatable, Sendable {
    public var sessions: [RoomSession]
    public var viewer: Int
    /// The room's latest events, oldest first.
    public var log: [RoomEvent]

    public init(sessions: [RoomSession], viewer: Int, log: [RoomEvent] = []) {
        self.sessions = sessions
        self.viewer = viewer
        self.log = log
    }
}

/// Something that happened in the room, as its log shows it: who came and went, what the operators
/// did. The text is a printable sentence, never a secret.
public struct RoomEvent: Codable, Equatable, Sendable {
    public var date: Date
    public var text: String

    public init(date: Date, text: String) {
        self.date = date
        self.text = text
    }
}

/// What a reset of the demo empties, or emptied.
public struct ResetCounts: Codable, Equatable, Sendable {
    /// Visitors' sessions open, who are told.
    public var sessions: Int
    public var projects: Int
    public var accounts: Int

    public init(sessions: Int, projects: Int, accounts: Int) {
        self.sessions = sessions
        self.projects = projects
        self.accounts = accounts
    }
}

/// A console's screen as text rows, for an operator who follows it.
public struct ScreenFrame: Codable, Equatable, Sendable {
    public var columns: Int
    public var rows: [String]

    public init(columns: Int, rows: [String]) {
        self.columns = columns
        self.rows = rows
    }
}

/// An operator's command to the room.
public enum RoomCommand: Codable, Equatable, Sendable {
    /// A line on every visitor's console.
    case message(String)
    /// A line on that visitor's console alone.
    case messageOne(session: Int, String)
    /// Ends that session, with a notice to its visitor.
    case end(session: Int)
    /// Asks what a reset would empty (answered with `.resetPreview`).
    case previewReset
    case reset
    /// Start following a session's screen; nil stops.
    case follow(session: Int?)
}

/// What a visitor's console is told, whatever it shows.
public enum RoomNotice: Codable, Equatable, Sendable {
    case message(String)
    /// Whether the presenter is watching this screen.
    case watched(Bool)
    /// The session is being ended by the presenter; the console exits.
    case ending(String)
    /// The visitor's project was emptied: the account signed in to is gone.
    case accountReset
}

/// One line on a console's room channel, either way.
public enum RoomMessage: Codable, Equatable, Sendable {
    // Console → server.
    case status(ConsoleStatus)
    case command(RoomCommand)
    case frame(ScreenFrame)
    // Server → console.
    case notice(RoomNotice)
    case room(RoomSnapshot)
    case resetPreview(ResetCounts)
    case resetDone(ResetCounts)
    /// An operator's command done, in a sentence.
    case answered(String)
    /// An operator's command the room refused or could not do, and why.
    case refused(String)
    /// Send `.frame`s (at most ten a second, when the screen changed) while true.
    case sendFrames(Bool)
    /// To a following operator: the followed screen, or why following stopped.
    case followed(session: Int, ScreenFrame)
    case followEnded(session: Int, reason: String)
}
