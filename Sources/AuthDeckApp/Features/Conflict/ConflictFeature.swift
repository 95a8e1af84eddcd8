import AppData
import AuthClient
import Foundation
import TerminalUI

/// The link conflict: the identity belongs to another account. Both accounts side by side,
/// and what to do: cancel, or switch to the other account with the updated credential and merge.
public struct ConflictFeature: ConsoleFeature {
    /// What the screen's keys mean.
    public enum Action: Equatable, Sendable, ListAction {
        case up, down, choose, cancel
    }

    /// Work the screen asks for; `EffectRunner` performs it (`EffectRunner+Conflict` beside this file).
    public enum Effect: Equatable, Sendable {
        /// Signs in with the updated credential on the side, without touching the session, to show
        /// the account that owns the identity.
        case inspectConflictAccount(AuthCredential)
        case mergeAccounts(MergePlan)
    }

    /// The outcome of an `Effect`.
    public enum Event: FeatureResult {
        case conflictAccountLoaded(Result<AccountSnapshot, AuthError>)
        case mergeFinished(Result<MergeOutcome, AuthError>)
    }

    public enum Other: Equatable, Sendable {
        case loading
        case loaded(AccountSnapshot)
        /// It has 2-step verification: nothing of it shows before its second factor passes, which
        /// the switch asks for (these are its factors, as the sign-in's challenge listed them).
        case needsSecondFactor([MultiFactorInfo])
        case failed(AuthError)
    }

    public enum Option: Equatable, Sendable {
        case cancel
        /// Switch, merge the cart, keep the previous account (never offered for an anonymous one).
        case mergeAndKeep
        /// Switch, merge the cart, delete the previous account.
        case mergeAndDelete
    }

    public var credential: AuthCredential
    public var email: String?
    public var previous: AccountSnapshot
    public var other: Other = .loading
    public var choice = 0

    public init(credential: AuthCredential, email: String?, previous: AccountSnapshot) {
        self.credential = credential
        self.email = email
        self.previous = previous
    }

    var providerID: String { credential.provider }

    var options: [Option] {
        switch other {
        case .loaded, .needsSecondFactor:
            return previous.isAnonymous ? [.cancel, .mergeAndDelete] : [.cancel, .mergeAndKeep, .mergeAndDelete]
        case .loading, .failed:
            return [.cancel]
        }
    }

    var choiceOption: Option { options.indices.contains(choice) ? options[choice] : .cancel }

    /// What the chosen switch does.
    var mergePlan: MergePlan {
        MergePlan(credential: credential, previousUid: previous.uid, deletePrevious: choiceOption == .mergeAndDelete)
    }

    var title: String { "Link conflict" }
    /// It carries what it shows itself and leads on whether or not a session remains.
    var needsUser: Bool { false }
    var screen: Screen { .conflict(self) }

    /// The conflict screen, and the preview of the account that has the identity.
    static func open(_ conflict: ConflictFeature) -> [FlowStep] {
        [.show(.conflict(conflict)), .banner(nil), .run(.conflict(.inspectConflictAccount(conflict.credential)), busy: nil)]
    }

    func bindings(in context: ConsoleContext) -> [KeyBinding<KeyIntent<Action>>] {
        [KeyBinding([.right, .tab], "←/→", "choose", .down), KeyBinding([.left, .backTab], "←", "previous", .up, inBar: false),
         KeyBinding([.enter], "enter", "confirm choice", .choose), KeyBinding([.escape], "esc", "cancel", .cancel),
         .help, .inspector]
    }

    mutating func perform(_ action: Action, in context: ConsoleContext) -> [FlowStep] {
        switch action {
        case .up: choice = max(choice - 1, 0)
        case .down: choice = min(choice + 1, options.count - 1)
        case .cancel:
            return cancel(in: context)
        case .choose:
            switch choiceOption {
            case .cancel:
                return cancel(in: context)
            case .mergeAndKeep, .mergeAndDelete:
                return [.banner(nil), .run(.conflict(.mergeAccounts(mergePlan)), busy: "Merging into the account that has \(FederatedProvider.displayName(providerID))…")]
            }
        }
        return []
    }

    private func cancel(in context: ConsoleContext) -> [FlowStep] {
        [.banner(Banner(.info, "Cancelled: \(FederatedProvider.displayName(providerID)) stays with the other account; this one is unchanged.")),
         .show(context.home)]
    }

    mutating func handle(_ event: Event, in context: ConsoleContext) -> [FlowStep] {
        switch event {
        case let .conflictAccountLoaded(result):
            switch result {
            case let .success(snapshot): other = .loaded(snapshot)
            case let .failure(error):
                other = error.multiFactorChallenge.map { .needsSecondFactor($0.hints) } ?? .failed(error)
            }
            choice = 0
            return []
        case let .mergeFinished(result):
            switch result {
            case let .success(outcome):
                return [.exit(.merged(outcome, self))]
            case let .failure(error):
                // The other account has 2-step verification: its second factor, then the merge.
                if let challenge = error.multiFactorChallenge {
                    return SecondFactorSignInFeature.challenge(challenge, purpose: .mergeAfterConflict(self))
                }
                return [.show(context.home), .banner(.error(error))] + (context.user.map { [.run(.loadCart(uid: $0.uid), busy: nil)] } ?? [])
            }
        }
    }

    func draw(in context: ConsoleContext, on canvas: any Canvas, frame: Rect) {
        ConflictScreen.draw(self, on: canvas, in: frame)
    }
}

/// One account as the conflict screen shows it.
public struct AccountSnapshot: Equatable, Sendable {
    public var uid: String
    public var isAnonymous: Bool
    public var email: String?
    public var providerIDs: [String]
    public var cart: [CartItem]

    public init(uid: String, isAnonymous: Bool, email: String?, providerIDs: [String], cart: [CartItem]) {
        self.uid = uid
        self.isAnonymous = isAnonymous
        self.email = email
        self.providerIDs = providerIDs
        self.cart = cart
    }

    public init(user: User, cart: [CartItem]) {
        self.init(uid: user.uid, isAnonymous: user.isAnonymous, email: user.email,
                  providerIDs: user.providerData.map(\.providerID), cart: cart)
    }
}

/// The merge after a link conflict, as the effect runner performs it: a sign-in with the updated
/// credential (and the other account's second factor, if it has them), then the previous account's
/// cart into the account signed in to, and the previous account deleted if asked.
public struct MergePlan: Equatable, Sendable {
    public var credential: AuthCredential
    public var previousUid: String
    public var deletePrevious: Bool

    public init(credential: AuthCredential, previousUid: String, deletePrevious: Bool) {
        self.credential = credential
        self.previousUid = previousUid
        self.deletePrevious = deletePrevious
    }
}

public struct MergeOutcome: Equatable, Sendable {
    /// The other account, with its cart once the previous one's was merged in.
    public var result: SignedIn
    /// Set when the previous account was to be deleted and could not be (it is kept, its cart empty).
    public var deletionFailure: AuthError?

    public init(result: SignedIn, deletionFailure: AuthError? = nil) {
        self.result = result
        self.deletionFailure = deletionFailure
    }
}
