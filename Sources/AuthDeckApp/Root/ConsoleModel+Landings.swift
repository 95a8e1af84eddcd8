import AuthClient
import Foundation

/// The landings: where each way out of a flow leads, in one table.
extension ConsoleModel {
    /// Where every flow ends, whichever screen or session event led there: one banner per way out,
    /// and a sign-in's account adopted once, with the cart that came with it.
    mutating func leaveFlow(_ exit: FlowExit) -> [ConsoleEffect] {
        switch exit {
        case let .signedIn(signedIn):
            let withSecondFactor = if case .secondFactorSignIn = screen { true } else { false }
            let pending = screen.pendingLink
            screen = .account(AccountFeature())
            banner = Banner(.success, signedIn.result.additionalUserInfo?.isNewUser == true
                ? "Account created." : (withSecondFactor ? "Signed in with a second factor." : "Signed in."))
            adopt(signedIn)
            return continuePendingLink(pending, signedIn: signedIn.user)
        case let .reauthenticated(operation):
            busy = "Retrying: \(operation.title)…"
            return [.perform(operation)]
        case let .merged(outcome, conflict):
            return finishMerge(outcome, after: conflict)
        case let .enrolled(user, displayName):
            adopt(user)
            screen = .secondFactors(SecondFactorsFeature(selection: max(user.enrolledFactors.count - 1, 0)))
            banner = Banner(.success, "Enrolled \"\(displayName)\". Signing in now asks for a second factor.")
            return []
        case let .linked(result, what):
            adopt(result.user)
            screen = .account(AccountFeature())
            banner = Banner(.success, "Linked \(what). The uid and app data are unchanged.")
            return []
        case let .linkedAfterSignIn(result, pending):
            // The cart came with the sign-in before the link, and the guest's was merged in then.
            adopt(result.user)
            screen = .account(AccountFeature())
            let text = "Signed in to \(result.user.email ?? result.user.uid) and linked \(FederatedProvider.displayName(pending.providerID)) to it."
            guard let guest = pending.previousAnonymousUid else {
                banner = Banner(.success, text)
                return []
            }
            // The guest account goes, as the link conflict's merge deletes the account it switched from.
            banner = Banner(.success, text + " The cart of \(guest) was merged into it.")
            busy = "Deleting the guest account \(guest)…"
            return [.deleteLeftGuest(uid: guest)]
        case let .operationFinished(operation, updated):
            return operationFinished(operation, updated)
        case let .sessionEnded(endBanner):
            user = nil
            cart = []
            screen = .signInMethods(SignInMethodsFeature(selection: 0))
            if let endBanner { banner = endBanner }
            return []
        case let .unlinked(providerID, result):
            switch result {
            case let .success(user):
                adopt(user)
                banner = Banner(.success, "Unlinked \(providerID).")
            case let .failure(error):
                banner = .error(error)
            }
            screen = .account(AccountFeature.afterUnlink(from: screen, providers: user?.providerData.count ?? 0))
            return []
        case let .passwordReset(email):
            screen = .credentialForm(CredentialFormFeature(purpose: .signIn, email: email))
            banner = Banner(.success, "Password changed and every session signed out. Sign in with the new password.")
            return []
        case .cancelled:
            screen = screen.feature.screenBefore(in: context)
            return []
        case let .restartSignIn(restartBanner):
            screen = user == nil ? .signInMethods(.selecting(.emailPassword)) : .account(AccountFeature())
            banner = restartBanner
            return []
        }
    }

    /// Where a sensitive operation that ran leads.
    private mutating func operationFinished(_ operation: SensitiveOperation, _ updated: User?) -> [ConsoleEffect] {
        switch operation {
        case .updatePassword:
            banner = Banner(.success, "Password changed. Other sessions of this account were signed out.")
            screen = .account(AccountFeature())
            return []
        case .deleteAccount:
            let uid = user?.uid
            banner = Banner(.success, "Account deleted.")
            screen = .signInMethods(SignInMethodsFeature(selection: 0))
            return uid.map { [.deleteAppData(uid: $0)] } ?? []
        case let .unenroll(factor):
            if let updated { adopt(updated) }
            banner = Banner(.success, "Removed the second factor \"\(factor.displayName ?? factor.factorID)\". Other sessions were signed out.")
            screen = .secondFactors(SecondFactorsFeature(selection: 0))
            return []
        case let .deletePreviousAccount(previous):
            banner = Banner(.success, "Deleted \(previous.email ?? previous.uid) (\(previous.uid)), the account you switched from. You are signed in to \(user?.email ?? user?.uid ?? "the other account").")
            screen = .account(AccountFeature())
            return []
        case let .updateEmail(email, previous):
            if let updated { adopt(updated) }
            banner = Banner(.success, "The email is now \(email)."
                + (previous.map { " A message to \($0) can undo the change: press m." } ?? ""))
            screen = .account(AccountFeature())
            return [.verification(.refreshOutbox)]
        case let .verifyBeforeUpdateEmail(email):
            banner = Banner(.info, "A link that confirms \(email) is in the outbox: press m and open it. The email changes only then.")
            screen = .account(AccountFeature())
            return [.verification(.refreshOutbox)]
        }
    }
}
