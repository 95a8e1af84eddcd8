import AuthClient

/// The teaching pane's steps of a link conflict: the credential the backend handed back, the
/// account it signs in to, and the merge.
extension ConflictFeature {
    func teaching(for effect: ConsoleEffect, in input: TeachingInput) -> TeachingContext? {
        guard case let .conflict(own) = effect else { return nil }
        switch own {
        case let .inspectConflictAccount(credential):
            return TeachingContext(.linkConflictCredential(providerID: credential.provider))
        case let .mergeAccounts(plan):
            let uid: String = if case let .loaded(account) = other { account.uid } else { "" }
            return TeachingContext(.linkConflictMerge(guestUID: plan.previousUid, uid: uid))
        }
    }

    /// The other account was found: signing in to it follows the credential.
    func teachingAfterResult(in input: TeachingInput) -> TeachingContext? {
        guard case let .loaded(account) = other, input.shown?.step.kind == .linkConflictCredential else { return nil }
        return TeachingContext(steps: [input.shown?.step ?? .linkConflictCredential(providerID: providerID),
                                       .linkConflictSignIn(providerID: providerID, uid: account.uid)])
    }
}
