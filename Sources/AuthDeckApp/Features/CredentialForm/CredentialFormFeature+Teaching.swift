/// The teaching pane's step before any: what the form does on enter, with the email typed so far.
extension CredentialFormFeature {
    var teachingPreview: TeachingStep? {
        switch purpose {
        case .createAccount: .createAccount(email: email.text)
        case .signIn, .signInToLink: .signInWithPassword(email: email.text)
        case .link: .upgradeWithPassword(email: email.text)
        case .reauthenticate: .reauthenticateWithPassword(email: email.text)
        }
    }
}
