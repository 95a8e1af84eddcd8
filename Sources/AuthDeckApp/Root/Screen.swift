import AuthClient
import Foundation
import TerminalUI

/// Which screen the console is on, and that screen's state. Each case carries exactly what its
/// feature needs, so impossible combinations (a reauth prompt with nothing to retry) cannot be built.
public indirect enum Screen: Equatable, Sendable {
    case launching
    case signInMethods(SignInMethodsFeature)
    case credentialForm(CredentialFormFeature)
    case account(AccountFeature)
    case addCartItem(AddCartItemFeature)
    case changePassword(ChangePasswordFeature)
    /// A dialog, drawn over the screen it was opened from.
    case confirm(ConfirmationFeature)
    /// The account's second factors: list, add, remove.
    case secondFactors(SecondFactorsFeature)
    case secondFactorEnrollment(SecondFactorEnrollmentFeature)
    /// Factor selection and code entry after a first factor (sign-in or reauthentication).
    case secondFactorSignIn(SecondFactorSignInFeature)
    case phone(PhoneFeature)
    case passwordReset(PasswordResetFeature)
    case linking(LinkingFeature)
    case providerForm(ProviderFormFeature)
    case consent(ConsentFeature)
    case conflict(ConflictFeature)
    case pendingLink(PendingLinkFeature)
    case reauthMethods(ReauthMethodsFeature)
    /// Passwordless sign-in (or linking) with a link from the outbox.
    case emailLink(EmailLinkFeature)
    case changeEmail(ChangeEmailFeature)
    /// The operator's table of every account, with what sits over it.
    case accounts(AccountsFeature)
    /// The presenter's table of every SSH session, and a followed screen.
    case room(RoomFeature)

    /// The feature that runs this screen.
    var feature: any ConsoleFeature {
        switch self {
        case .launching: LaunchingFeature()
        case let .signInMethods(state): state
        case let .credentialForm(state): state
        case let .account(state): state
        case let .addCartItem(state): state
        case let .changePassword(state): state
        case let .confirm(state): state
        case let .secondFactors(state): state
        case let .secondFactorEnrollment(state): state
        case let .secondFactorSignIn(state): state
        case let .phone(state): state
        case let .passwordReset(state): state
        case let .linking(state): state
        case let .providerForm(state): state
        case let .consent(state): state
        case let .conflict(state): state
        case let .pendingLink(state): state
        case let .reauthMethods(state): state
        case let .emailLink(state): state
        case let .changeEmail(state): state
        case let .accounts(state): state
        case let .room(state): state
        }
    }

    var title: String { feature.title }
    var needsUser: Bool { feature.needsUser }
    var editsText: Bool { feature.editsText }
    var ownsTerminal: Bool { feature.ownsTerminal }

    /// The QR code of a TOTP enrollment takes the rows the banner would use on an 80×24 terminal.
    var showsQRCode: Bool { feature.showsQRCode }
    var pendingLink: PendingLink? { feature.pendingLink }
}
