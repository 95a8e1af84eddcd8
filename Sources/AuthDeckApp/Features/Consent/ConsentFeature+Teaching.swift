import AuthClient

/// The teaching pane's steps of a provider's sign-in, link or reauthentication from the consent
/// screen: the provider's request as it holds it (tenant, prompt, scopes) and the identity chosen.
extension ConsentFeature {
    func teaching(for effect: ConsoleEffect, in input: TeachingInput) -> TeachingContext? {
        let chosen = identities.indices.contains(selection) ? identities[selection] : nil
        let request = CredentialTeaching.ProviderRequest(provider: provider, identityEmail: chosen?.email)
        if case let .signIn(credential) = effect { return CredentialTeaching.signIn(credential, request: request, in: input) }
        if case let .link(credential) = effect { return CredentialTeaching.link(credential, request: request, in: input) }
        if case let .reauthenticate(credential, _) = effect { return CredentialTeaching.reauthenticate(credential, request: request, in: input) }
        return nil
    }
}
