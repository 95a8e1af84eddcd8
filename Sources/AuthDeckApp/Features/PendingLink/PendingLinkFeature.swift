import AuthClient
import Foundation
import TerminalUI

/// A credential the backend verified but could not use yet (accountExistsWithDifferentCredential,
/// emailAlreadyInUse): it is linked once the operator has signed in to the account with that email.
public struct PendingLink: Equatable, Sendable {
    public enum Reason: Equatable, Sendable { case accountExists, emailInUse }

    public var credential: AuthCredential
    public var email: String?
    public var reason: Reason
    /// An anonymous account the operator was on: its cart follows to the account signed in to.
    public var previousAnonymousUid: String?
    /// What `fetchSignInMethodsForEmail` said of the email: nil until it answers (or when it fails),
    /// empty when the backend does not tell (email-enumeration protection). Kept here so that the
    /// screen still says it after a sign-in form is left.
    public var knownMethods: [String]?

    public init(credential: AuthCredential, email: String?, reason: Reason, previousAnonymousUid: String? = nil, knownMethods: [String]? = nil) {
        self.credential = credential
        self.email = email
        self.reason = reason
        self.previousAnonymousUid = previousAnonymousUid
        self.knownMethods = knownMethods
    }

    var providerID: String { credential.provider }
}

/// The pending link's screen: how to sign in to the account that has the email.
public struct PendingLinkFeature: ConsoleFeature {
    /// What the screen's keys mean.
    public enum Action: Equatable, Sendable, ListAction, BackAction {
        case up, down, choose, back
    }

    /// Work the screen asks for; `EffectRunner` performs it (`EffectRunner+PendingLink` beside this file).
    public enum Effect: Equatable, Sendable {
        /// How the account with this email signs in (`fetchSignInMethodsForEmail`).
        case fetchSignInMethods(email: String)
    }

    /// The outcome of an `Effect`.
    public enum Event: FeatureResult {
        /// Empty when the backend does not tell (email-enumeration protection).
        case signInMethodsFetched(email: String, Result<[String], AuthError>)

        /// The sign-in methods arrive behind a screen that is not busy.
        var endsBusyWork: Bool { false }
    }

    public var pending: PendingLink
    public var selection = 0

    public init(pending: PendingLink, knownMethods: [String]? = nil) {
        self.pending = pending
        if let knownMethods { self.pending.knownMethods = knownMethods }
    }

    var knownMethods: [String]? { pending.knownMethods }

    /// The ways to sign in to the account with that email: anything but the pending provider itself,
    /// those the backend named first.
    var methods: [String] {
        let all = [EmailAuthProvider.id] + FederatedProvider.allCases.map(\.id).filter { $0 != pending.providerID }
        let known = all.filter { knownMethods?.contains($0) == true }
        return known + all.filter { !known.contains($0) }
    }

    var title: String { "Account exists" }
    /// It carries what it shows itself and leads on whether or not a session remains.
    var needsUser: Bool { false }
    var screen: Screen { .pendingLink(self) }

    /// The screen for `pending`, and the question of how the account with its email signs in.
    static func open(_ pending: PendingLink) -> [FlowStep] {
        [.show(.pendingLink(PendingLinkFeature(pending: pending))), .banner(nil)]
            + (pending.email.map { [.run(.pendingLink(.fetchSignInMethods(email: $0)), busy: nil)] } ?? [])
    }

    func bindings(in context: ConsoleContext) -> [KeyBinding<KeyIntent<Action>>] {
        [.moveUp(), .moveDown(), KeyBinding([.enter], "enter", "choose", .choose), KeyBinding([.escape], "esc", "cancel", .back), .help, .inspector]
    }

    mutating func perform(_ action: Action, in context: ConsoleContext) -> [FlowStep] {
        switch action {
        case .up: selection = max(selection - 1, 0)
        case .down: selection = min(selection + 1, methods.count - 1)
        case .back:
            return [.banner(Banner(.info, "Cancelled: \(FederatedProvider.displayName(pending.providerID)) was not linked to any account.")),
                    .show(context.home)]
        case .choose:
            if let provider = FederatedProvider.named(methods[selection]) {
                return [.banner(nil), .show(.providerForm(ProviderFormFeature(provider: provider, purpose: .signInToLink(pending))))]
            }
            return [.banner(nil), .show(.credentialForm(CredentialFormFeature(purpose: .signInToLink(pending), email: pending.email ?? "")))]
        }
        return []
    }

    mutating func handle(_ event: Event, in context: ConsoleContext) -> [FlowStep] {
        guard case let .signInMethodsFetched(email, .success(methods)) = event, email == pending.email else { return [] }
        pending.knownMethods = methods
        selection = 0
        return []
    }

    func draw(in context: ConsoleContext, on canvas: any Canvas, frame: Rect) {
        PendingLinkScreen.draw(self, on: canvas, in: frame)
    }
}
