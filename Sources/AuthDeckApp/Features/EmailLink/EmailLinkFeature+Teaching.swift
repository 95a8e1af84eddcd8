/// The teaching pane's step of the email link: the link sent, with the app's own `continueURL`.
extension EmailLinkFeature {
    func teaching(for effect: ConsoleEffect, in input: TeachingInput) -> TeachingContext? {
        guard case let .emailLink(.sendSignInLink(email)) = effect else { return nil }
        return TeachingContext(.sendSignInLink(email: email, continueURL: TeachingContext.continueURL))
    }
}
