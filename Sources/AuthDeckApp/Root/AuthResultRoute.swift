import AuthClient

/// What every sign-in and link result shares, whichever feature asked for it: the second factor the
/// backend asks for, a credential whose email another account has (the pending link), a credential
/// another account holds (the link conflict). A feature calls it from its handling of the result and
/// shows any other failure its own way (`ConsoleFeature.signInFinished`, `linkFinished`).
enum AuthResultRoute {
    /// Signed in, or the screen the backend's answer leads to; nil: a failure the feature shows.
    static func signIn(_ result: Result<SignedIn, AuthError>) -> [FlowStep]? {
        switch result {
        case let .success(data):
            return [.exit(.signedIn(data))]
        case let .failure(error):
            if let challenge = error.multiFactorChallenge { return SecondFactorSignInFeature.challenge(challenge, purpose: .signIn) }
            // accountExistsWithDifferentCredential: sign in to that account the way it knows, then link.
            guard error.code == .accountExistsWithDifferentCredential, let credential = error.updatedCredential else { return nil }
            return PendingLinkFeature.open(PendingLink(credential: credential, email: error.email, reason: .accountExists))
        }
    }

    /// Linked (`what` names it for the banner), or the screen the backend's answer leads to; nil: a
    /// failure the feature shows.
    static func link(_ result: Result<AuthDataResult, AuthError>, what: String? = nil, in context: ConsoleContext) -> [FlowStep]? {
        switch result {
        case let .success(data):
            return [.exit(.linked(data, what: what ?? data.additionalUserInfo?.providerID ?? "the credential"))]
        case let .failure(error):
            return linkConflict(error, in: context)
        }
    }

    /// credentialAlreadyInUse → the conflict screen; emailAlreadyInUse with a provider → the pending link.
    static func linkConflict(_ error: AuthError, in context: ConsoleContext) -> [FlowStep]? {
        guard let user = context.user, let credential = error.updatedCredential else { return nil }
        switch error.code {
        case .credentialAlreadyInUse:
            return ConflictFeature.open(ConflictFeature(credential: credential, email: error.email, previous: AccountSnapshot(user: user, cart: context.cart)))
        case .emailAlreadyInUse:
            let pending = PendingLink(credential: credential, email: error.email, reason: .emailInUse,
                                      previousAnonymousUid: user.isAnonymous ? user.uid : nil)
            return PendingLinkFeature.open(pending)
        // Any other failure is no link conflict: the feature shows it as it is.
        default:
            return nil
        }
    }
}
