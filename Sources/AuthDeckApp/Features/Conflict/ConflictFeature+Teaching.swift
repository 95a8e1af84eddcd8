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
            // The choice made here, after the failed link that led here.
            let uid: String = if case let .loaded(account) = other { account.uid } else { "" }
            let conflict = input.shown.map(\.steps).flatMap { $0.last { $0.kind == .linkConflictCredential } }
            return TeachingContext(steps: (conflict.map { [$0] } ?? []) + [.linkConflictMerge(guestUID: plan.previousUid, uid: uid)])
        }
    }
}
