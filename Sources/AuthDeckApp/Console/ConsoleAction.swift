/// What a key asks of the console: a command it answers on every screen, a key of the open
/// overlay, or the current feature's own action, wrapped in the feature's case as The Composable
/// Architecture scopes a child's actions (the feature's `embed` and `extract`).
public enum ConsoleAction: Equatable, Sendable, ConsoleCommanding {
    case console(ConsoleCommand)
    case overlay(OverlayAction)
    case signInMethods(SignInMethods.Action)
    case credentialForm(CredentialForm.Action)
    case account(AccountFocus.Action)
    case addCartItem(AddCartItem.Action)
    case changePassword(PasswordForm.Action)
    case confirm(Confirmation.Action)
    case reauthMethods(ReauthMethods.Action)
    case linking(LinkingState.Action)
    case changeEmail(EmailChangeForm.Action)
    case pendingLink(PendingLinkState.Action)
    case providerForm(ProviderForm.Action)
    case consent(ConsentState.Action)
    case conflict(ConflictState.Action)
    case emailLink(EmailLinkFlow.Action)
    case passwordReset(PasswordResetFlow.Action)
    case enrollment(SecondFactorEnrollmentFlow.Action)
    case secondFactorChallenge(SecondFactorSignInFlow.Action)
    case secondFactors(SecondFactors.Action)
    case phone(PhoneFeature.Action)
    case accounts(AccountsFeature.Action)
}

/// The keys of the help, inspector and outbox overlays.
public enum OverlayAction: Equatable, Sendable {
    case up, down, back, choose, refresh, scrollUp, scrollDown
}
