import AuthClient
import Foundation

extension EffectRunner {
    func perform(_ effect: ConflictFeature.Effect) async -> ConflictFeature.Event {
        switch effect {
        case let .inspectConflictAccount(credential):
            // A second Auth on the same backend, with nothing persisted: the operator's session stays as it is.
            let probe = auth.sessionless()
            let outcome = await result { try await probe.signIn(with: credential) }
            conflictProbe.withLock { $0 = ConflictProbe(auth: probe, outcome: outcome) }
            return .conflictAccountLoaded(await result {
                let user = try outcome.get().user
                return AccountSnapshot(user: user, cart: try await self.cart.items(of: user.uid))
            })
        case let .mergeAccounts(plan):
            return .mergeFinished(await merge(plan) { try await self.signInToConflictAccount(plan) })
        }
    }

    /// The merge's sign-in is the preview's: its credential (a `pendingToken`) signs in only once.
    /// The console takes over the preview's session, or gets its second-factor challenge, which the
    /// console's own resolver finishes.
    private func signInToConflictAccount(_ plan: MergePlan) async throws -> AuthDataResult {
        guard let probe = conflictProbe.withLock({ probe in defer { probe = nil }; return probe }) else {
            return try await auth.signIn(with: plan.credential)
        }
        let signedIn = try probe.outcome.get()
        try await auth.updateCurrentUser(from: probe.auth)
        return signedIn
    }
}

/// The preview's sign-in to a link conflict's other account, kept until the merge or the next conflict.
struct ConflictProbe: Sendable {
    let auth: Auth
    let outcome: Result<AuthDataResult, AuthError>
}
