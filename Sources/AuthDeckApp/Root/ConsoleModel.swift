import AppData
import AuthClient
import Foundation
import RoomChannel
import TerminalUI

/// The console's root model: a pure state machine. `handle` takes an event and returns the
/// effects to run; it reads no clock, does no I/O and draws nothing.
///
/// It keeps only what crosses screens — the signed-in user and their token and cart, the
/// overlays, what is running, the banner, the inspector's data — and the current `Screen`, whose
/// feature (`ConsoleFeature`) owns that screen's state, keys, effects and view. The root routes
/// keys, the feature's own events and the results of the sign-ins and links it asked for to it, and
/// applies the `FlowStep`s it answers with; every way out of a flow lands in one table (`leaveFlow`).
/// The session's own news (restored, ended, reloaded) it handles itself.
public struct ConsoleModel: Equatable, Sendable {
    public var screen: Screen = .launching { didSet { builtKeys = BuiltKeys() } }
    public var user: User? { didSet { builtKeys = BuiltKeys() } }
    public var token: TokenSummary? { didSet { builtKeys = BuiltKeys() } }
    public var cart: [CartItem] = [] { didSet { builtKeys = BuiltKeys() } }
    public var banner: Banner?
    /// What is running, e.g. "Signing in…"; keys other than ctrl-c wait until it is done.
    public var busy: String?
    /// Keys typed while something ran, applied in order once it is done, as a shell takes
    /// type-ahead: a key whose screen went away applies to the screen that is there.
    public var typedAhead: [Key] = []
    /// The terminal's size as last reported; behind "Terminal too small" only ctrl-c acts.
    public var terminalSize: Size?
    /// A pending link being finished after signing in to the account that has its email: the
    /// account changed, and the link's banner says so.
    public var linkAfterSignIn: PendingLink?
    public var overlay: Overlay? { didSet { builtKeys = BuiltKeys() } }
    public var exchanges: [BackendExchange] = []
    /// The emulator's outboxes, as last fetched.
    public var outbox = Outbox() { didSet { builtKeys = BuiltKeys() } }
    /// The last consent at a simulated provider: the inspector shows its nonce and ID-token claims.
    public var lastAuthorization: ProviderAuthorization?
    /// The provider's profile from the last federated sign-in or link (`additionalUserInfo`).
    public var lastAdditionalUserInfo: AdditionalUserInfo?
    /// The step the teaching pane shows, with this run's values; it follows every step taken.
    var teaching: TeachingContext? { didSet { builtKeys = BuiltKeys() } }
    /// The pane's languages: all four, or one at full width (`--sdk`).
    var teachingDisplay: TeachingPane.Display = .all { didSet { builtKeys = BuiltKeys() } }
    /// The pane's transcript, sideways scroll and clipboard request.
    var teachingSession = TeachingSession() { didSet { builtKeys = BuiltKeys() } }
    public let backendName: String
    /// The Identity Platform tenant the console signs in to (`--tenant`); nil for the project's own users.
    public var tenant: String?
    /// The terminal is someone else's, over SSH: links to the server's own addresses would point at their machine.
    public var remoteTerminal = false
    /// The backend's recent-login window, which the sensitive changes' screens name.
    public var recentLoginWindow = RecentLoginWindow.firebase
    /// Whether this console offers the operator's accounts view, and its actions.
    public let operatorAccess: OperatorAccess?
    /// Whether this console runs under `authdeck ssh` with a room channel.
    public let inRoom: Bool
    /// The presenter follows this screen: a line says so.
    public var watched = false
    /// The room as the server last sent it to an operator's console (each second).
    public var lastRoomSnapshot: RoomSnapshot?
    /// The presenter's last message, on a line of its own: it never takes the banner's place, so an
    /// error the visitor is reading stays.
    public var presenterMessage: String?
    /// Someone follows this screen: the console sends it to the room as it changes.
    public var framesWanted = false
    /// The keys of the state `handle` left, for the frame that shows it and the key pressed next. The
    /// properties the keys are built from (the screen, the overlay, the context, the teaching pane's) let
    /// them go when set; a debug build checks at every use that they are still the state's.
    var builtKeys = BuiltKeys()

    public init(backendName: String, operatorAccess: OperatorAccess? = nil, inRoom: Bool = false) {
        self.backendName = backendName
        self.operatorAccess = operatorAccess
        self.inRoom = inRoom
    }

    /// The first screen and effects, before any event. Without a saved session the sign-in methods
    /// show at once: drawing them needs nothing from the backend, which opens meanwhile.
    /// `sdk`: the teaching pane's language at full width; nil shows all four.
    public static func start(backendName: String, operatorAccess: OperatorAccess? = nil, inRoom: Bool = false,
                             sessionSaved: Bool, sdk: SDKPlatform? = nil) -> (ConsoleModel, [ConsoleEffect]) {
        var model = ConsoleModel(backendName: backendName, operatorAccess: operatorAccess, inRoom: inRoom)
        model.teachingDisplay = sdk.map { .one($0) } ?? .all
        guard sessionSaved else {
            model.screen = .signInMethods(SignInMethodsFeature(selection: 0))
            return (model, [])
        }
        model.busy = "Restoring the saved session…"
        return (model, [.restoreSession])
    }

    /// What the features read of the root.
    var context: ConsoleContext { ConsoleContext(user: user, token: token, cart: cart, outbox: outbox, operatorAccess: operatorAccess, inRoom: inRoom,
                                                 recentLoginWindow: recentLoginWindow, roomSnapshot: lastRoomSnapshot, tenant: tenant) }

    public mutating func handle(_ event: ConsoleEvent) -> [ConsoleEffect] {
        var effects = handleEvent(event)
        followTeaching(after: event, asked: effects)
        while busy == nil, !typedAhead.isEmpty, !effects.contains(.quit) {
            let key = typedAhead.removeFirst()
            let asked = handleKey(key)
            followTeaching(after: .key(key), asked: asked)
            effects += asked
        }
        if builtKeys.bindings == nil {
            let bindings = buildBindings()
            builtKeys = BuiltKeys(bindings: bindings, barHints: barHints(of: bindings))
        }
        return effects
    }

    private mutating func handleEvent(_ event: ConsoleEvent) -> [ConsoleEffect] {
        // The one place what was running ends; a handler that starts the next step says so itself.
        if event.endsBusyWork { busy = nil }
        switch event {
        case let .key(key):
            return handleKey(key)
        case let .resized(size):
            terminalSize = size
            return []
        case let .sessionRestored(result):
            return sessionRestored(result)
        case let .authStateChanged(user, token, reason):
            return authStateChanged(user, token, endedBy: reason)
        case let .signInFinished(result):
            return signInFinished(result)
        case let .linkFinished(result):
            return linkFinished(result)
        case let .unlinkFinished(providerID, result):
            return unlinkFinished(providerID, result)
        case let .reauthenticationFinished(operation, result):
            return reauthenticationFinished(operation, result)
        case let .sensitiveOperationFinished(operation, result):
            return sensitiveOperationFinished(operation, result)
        case let .cartChanged(uid, result):
            return cartChanged(uid, result)
        case let .userReloaded(result):
            return userReloaded(result)
        case let .leftGuestDeleted(uid, failure):
            return leftGuestDeleted(uid, failure)
        case let .exchangesChanged(entries):
            exchanges = entries
            if case let .inspector(selection, scroll) = overlay {
                overlay = .inspector(selection: min(selection, max(entries.count - 1, 0)), scroll: scroll)
            }
            return []
        case let .verification(event):
            return handleVerification(event)
        case let .roomNotice(notice):
            return roomNotice(notice)
        case let .roomFrames(wanted):
            framesWanted = wanted
            return []
        // A feature's own result: it decides what follows.
        case let .feature(result):
            // The inspector shows the consent that produced the credential.
            if case let .providerAuthorized(.success(authorization))? = result.event(as: ConsentFeature.Event.self), case .consent = screen {
                lastAuthorization = authorization
            }
            // The room's latest snapshot, whatever shows: `W` opens on it at once.
            if case let .snapshot(snapshot)? = result.event(as: RoomFeature.Event.self) { lastRoomSnapshot = snapshot }
            return update { feature, context in feature.receive(result, in: context) }
        }
    }

    /// Runs `body` on the feature of the current screen, stores it back, then applies its steps.
    mutating func update(_ body: (inout any ConsoleFeature, ConsoleContext) -> [FlowStep]) -> [ConsoleEffect] {
        var feature = screen.feature
        let steps = body(&feature, context)
        screen = feature.screen
        return apply(steps)
    }

    mutating func apply(_ steps: [FlowStep]) -> [ConsoleEffect] {
        var effects: [ConsoleEffect] = []
        for step in steps {
            switch step {
            case let .run(effect, busyText):
                if let busyText { busy = busyText }
                effects.append(effect)
            case let .banner(newBanner):
                banner = newBanner
            case let .show(next):
                screen = next
            case let .exit(exit):
                effects += leaveFlow(exit)
            }
        }
        return effects
    }
}
