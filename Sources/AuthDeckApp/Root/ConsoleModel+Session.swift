import AppData
import AuthClient
import Foundation

/// The session's events: they change who is signed in (or whether an operation ran), so they
/// decide the next screen whatever screen asked.
extension ConsoleModel {
    mutating func sessionRestored(_ result: Result<SignedIn?, SessionRestoreError>) -> [ConsoleEffect] {
        switch result {
        case let .success(restored?):
            screen = .account(AccountFeature())
            adopt(restored)
        case .success(nil):
            screen = .signInMethods(SignInMethodsFeature(selection: 0))
        case let .failure(error):
            screen = .signInMethods(SignInMethodsFeature(selection: 0))
            banner = Banner(.error, "The saved session could not be read; sign in again. The file was left in place.",
                            detail: error.reason)
        }
        return []
    }

    /// A sign-in the session ran: the feature that asked decides what follows.
    mutating func signInFinished(_ result: Result<SignedIn, AuthError>) -> [ConsoleEffect] {
        if case let .success(signedIn) = result { remember(signedIn.result.additionalUserInfo) }
        return update { feature, context in feature.signInFinished(result, in: context) }
    }

    /// A link the session ran: the feature that asked decides what follows, but for the pending
    /// credential the root links itself once the sign-in it was for is done.
    mutating func linkFinished(_ result: Result<AuthDataResult, AuthError>) -> [ConsoleEffect] {
        let afterSignIn = linkAfterSignIn
        linkAfterSignIn = nil
        if case let .success(data) = result { remember(data.additionalUserInfo) }
        guard let afterSignIn else { return update { feature, context in feature.linkFinished(result, in: context) } }
        switch result {
        case let .success(data):
            return leaveFlow(.linkedAfterSignIn(data, afterSignIn))
        case let .failure(error):
            if let steps = AuthResultRoute.linkConflict(error, in: context) { return apply(steps) }
            return showFailure(error)
        }
    }

    mutating func leftGuestDeleted(_ uid: String, _ failure: AuthError?) -> [ConsoleEffect] {
        let fate = failure.map { "\(uid) could not be deleted (\($0.message)); anonymous clean-up removes it after 30 days." } ?? "\(uid) was deleted."
        banner = Banner(failure == nil ? .success : .info, [banner?.text, fate].compactMap { $0 }.joined(separator: " "))
        return []
    }

    /// `r`: the account again from the backend, and what changed since this console last saw it.
    mutating func userReloaded(_ result: Result<User, AuthError>) -> [ConsoleEffect] {
        switch result {
        case let .success(fresh):
            let changes = user.map { Self.changes(from: $0, to: fresh) } ?? []
            adopt(fresh)
            banner = Banner(.success, changes.isEmpty ? "Reloaded: nothing changed." : "Reloaded: \(changes.joined(separator: "; ")).")
        case let .failure(error):
            banner = .error(error)
        }
        return []
    }

    static func changes(from old: User, to new: User) -> [String] {
        var changes: [String] = []
        if old.email != new.email { changes.append("the email is now \(new.email ?? "none")") }
        if !old.emailVerified, new.emailVerified { changes.append("the email is verified") }
        let before = Set(old.providerData.map(\.providerID)), after = Set(new.providerData.map(\.providerID))
        changes += after.subtracting(before).sorted().map { "linked \(FederatedProvider.displayName($0))" }
        changes += before.subtracting(after).sorted().map { "unlinked \(FederatedProvider.displayName($0))" }
        if old.enrolledFactors.count != new.enrolledFactors.count {
            changes.append("\(new.enrolledFactors.count) second factor\(new.enrolledFactors.count == 1 ? "" : "s") now")
        }
        return changes
    }

    mutating func unlinkFinished(_ providerID: String, _ result: Result<User, AuthError>) -> [ConsoleEffect] {
        leaveFlow(.unlinked(providerID: providerID, result))
    }

    mutating func reauthenticationFinished(_ operation: SensitiveOperation, _ result: Result<AuthDataResult, AuthError>) -> [ConsoleEffect] {
        switch result {
        case .success:
            return leaveFlow(.reauthenticated(operation))
        case let .failure(error):
            // Its second factor would finish on the console's session, not on the previous account's own.
            if case let .deletePreviousAccount(previous) = operation, error.multiFactorChallenge != nil {
                banner = Banner(.info, "\(previous.email ?? previous.uid) has 2-step verification, which this step cannot ask for: it was kept. Sign in to it and delete it from its account screen.")
                screen = .account(AccountFeature())
                return []
            }
            if let challenge = error.multiFactorChallenge {
                return apply(SecondFactorSignInFeature.challenge(challenge, purpose: .reauthenticate(operation)))
            }
            return showFailure(error)
        }
    }

    mutating func sensitiveOperationFinished(_ operation: SensitiveOperation, _ result: Result<User?, AuthError>) -> [ConsoleEffect] {
        switch result {
        case let .success(updated):
            return leaveFlow(.operationFinished(operation, updated))
        case let .failure(error) where error.code == .requiresRecentLogin:
            return requireReauthentication(for: operation)
        case let .failure(error):
            banner = .error(error)
            return []
        }
    }

    mutating func cartChanged(_ uid: String, _ result: Result<[CartItem], AppDataError>) -> [ConsoleEffect] {
        guard uid == user?.uid else { return [] }
        takeCart(result)
        return []
    }

    /// The signed-in account's cart as read, or why it could not be.
    private mutating func takeCart(_ result: Result<[CartItem], AppDataError>) {
        switch result {
        case let .success(items):
            cart = items
            var feature = screen.feature
            feature.cartChanged(items)
            screen = feature.screen
        case let .failure(error):
            banner = Banner(.error, "The app data could not be read or changed.", detail: error.reason)
        }
    }

    /// A failure of the session's work, as the screen that asked for it shows it.
    mutating func showFailure(_ error: AuthError) -> [ConsoleEffect] {
        update { feature, _ in feature.showFailure(error) }
    }

    mutating func adopt(_ user: User) {
        if self.user?.uid != user.uid { cart = [] }
        self.user = user
    }

    /// The account a sign-in landed on, with the cart read in the same trip; after the landing's
    /// screen and banner, which an unreadable cart's error replaces.
    mutating func adopt(_ signedIn: SignedIn) {
        adopt(signedIn.user)
        takeCart(signedIn.cart)
    }

    /// Only a provider's answer has a profile; a password sign-in leaves the last one shown.
    mutating func remember(_ info: AdditionalUserInfo?) {
        if let info, info.profile != nil { lastAdditionalUserInfo = info }
    }

    mutating func authStateChanged(_ newUser: User?, _ newToken: TokenSummary?, endedBy reason: AuthErrorCode? = nil) -> [ConsoleEffect] {
        token = newToken
        guard let newUser else {
            let wasSignedIn = user != nil
            user = nil
            cart = []
            guard screen.needsUser else { return [] }
            busy = nil
            // The backend's reason outranks any banner left from before; without one, a success
            // banner is the user's own sign-out or deletion saying what happened.
            let saying = wasSignedIn && (reason != nil || banner?.kind != .success)
            return leaveFlow(.sessionEnded(saying ? Banner(.error, Self.sessionEndText(reason)) : nil))
        }
        // A fresh copy of the account shown (a token refresh, a change made elsewhere). Another account
        // arrives through a flow, whose landing (`leaveFlow`) or the session's restore adopts it once with
        // its cart, whether this news comes before or after it.
        if user?.uid == newUser.uid { user = newUser }
        return []
    }

    static func sessionEndText(_ reason: AuthErrorCode?) -> String {
        switch reason {
        case .userDisabled: "This account was disabled by an administrator: the session ended."
        case .userNotFound: "This account was deleted: the session ended."
        case .userTokenExpired, .invalidUserToken:
            "The session ended: its sessions were revoked (a password change here or elsewhere, or an administrator). Sign in again."
        // No reason given (nil), or a code `Auth.endsSession` does not name.
        default: "The session ended: the account was deleted, disabled or its sessions revoked. Sign in again."
        }
    }

    /// A stale sign-in: the feature that asks for it again takes over.
    private mutating func requireReauthentication(for operation: SensitiveOperation, lead: String = "Your last sign-in was too long ago.") -> [ConsoleEffect] {
        apply(ReauthMethodsFeature.require(operation, user: user, lead: lead))
    }

    /// The merge is done: the console is on the other account, with the previous one's cart.
    mutating func finishMerge(_ outcome: MergeOutcome, after conflict: ConflictFeature) -> [ConsoleEffect] {
        screen = .account(AccountFeature())
        adopt(outcome.result)
        let previous = conflict.previous.uid
        // The operator chose to delete it: confirm it is theirs, as the SDKs' requiresRecentLogin flow does, then delete it.
        if outcome.deletionFailure?.code == .requiresRecentLogin, !conflict.previous.isAnonymous {
            let merged = "Signed in to the account that has \(FederatedProvider.displayName(conflict.providerID)); the cart of \(conflict.previous.email ?? previous) was merged into it."
            return requireReauthentication(for: .deletePreviousAccount(conflict.previous),
                                           lead: merged + " Its own sign-in is too old to delete it.")
        }
        let fate = switch outcome.deletionFailure {
        case nil where conflict.choiceOption == .mergeAndKeep: "\(previous) was kept."
        case nil: "\(previous) was deleted."
        case let failure?:
            "\(previous) could not be deleted (\(failure.message)) and was kept with an empty cart"
                + (conflict.previous.isAnonymous ? "; anonymous clean-up removes it after 30 days." : ".")
        }
        banner = Banner(outcome.deletionFailure == nil ? .success : .info,
                        "Signed in to the account that has \(FederatedProvider.displayName(conflict.providerID)); the cart of \(previous) was merged into it. \(fate)")
        return []
    }

    /// After signing in to the account of a pending credential: link it, and bring the
    /// anonymous account's cart along.
    mutating func continuePendingLink(_ pending: PendingLink?, signedIn user: User) -> [ConsoleEffect] {
        guard let pending else { return [] }
        busy = "Linking \(FederatedProvider.displayName(pending.providerID))…"
        linkAfterSignIn = pending
        let guestCart: [ConsoleEffect] = pending.previousAnonymousUid.map { [.mergeCart(from: $0, into: user.uid)] } ?? []
        return guestCart + [.link(pending.credential)]
    }
}
