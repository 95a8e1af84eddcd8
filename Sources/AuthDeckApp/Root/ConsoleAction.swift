/// What a key asks of the console: a command it answers on every screen, a key of the open
/// overlay, or the current feature's own action, wrapped in the feature's case as The Composable
/// Architecture scopes a child's actions (the feature's `embed` and `extract`).
public enum ConsoleAction: Equatable, Sendable, ConsoleCommanding {
    case console(ConsoleCommand)
    case overlay(OverlayAction)
    case teaching(TeachingAction)
    case signInMethods(SignInMethodsFeature.Action)
    case credentialForm(CredentialFormFeature.Action)
    case account(AccountFeature.Action)
    case addCartItem(AddCartItemFeature.Action)
    case changePassword(ChangePasswordFeature.Action)
    case confirm(ConfirmationFeature.Action)
    case reauthMethods(ReauthMethodsFeature.Action)
    case linking(LinkingFeature.Action)
    case changeEmail(ChangeEmailFeature.Action)
    case pendingLink(PendingLinkFeature.Action)
    case providerForm(ProviderFormFeature.Action)
    case consent(ConsentFeature.Action)
    case conflict(ConflictFeature.Action)
    case emailLink(EmailLinkFeature.Action)
    case passwordReset(PasswordResetFeature.Action)
    case secondFactorEnrollment(SecondFactorEnrollmentFeature.Action)
    case secondFactorSignIn(SecondFactorSignInFeature.Action)
    case secondFactors(SecondFactorsFeature.Action)
    case phone(PhoneFeature.Action)
    case accounts(AccountsFeature.Action)
    case room(RoomFeature.Action)
}

/// The keys of the help, inspector and outbox overlays.
public enum OverlayAction: Equatable, Sendable {
    case up, down, back, choose, refresh, scrollUp, scrollDown
}
