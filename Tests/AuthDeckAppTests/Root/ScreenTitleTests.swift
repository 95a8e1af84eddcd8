@testable import AuthClient
@testable import AuthDeckApp
import Foundation
import Testing
import TerminalUI

/// A screen's title is short on purpose, so the title bar at 80 columns and the presenter's room
/// column show it whole; the screen's own heading says the rest.
@Suite("Screen titles")
struct ScreenTitleTests {
    static let operations: [SensitiveOperation] = [
        .updatePassword("x"), .deleteAccount, .updateEmail("ada.lovelace@analytical-engine.example", previous: "ada@example.com"),
        .verifyBeforeUpdateEmail("ada.lovelace@analytical-engine.example"),
    ]

    /// Every screen whose title or room description changes with its purpose or step.
    static var screens: [Screen] {
        var screens: [Screen] = [.signInMethods(SignInMethodsFeature(selection: 0)), .account(AccountFeature()), .addCartItem(AddCartItemFeature()),
                                 .changePassword(ChangePasswordFeature()), .changeEmail(ChangeEmailFeature()), .linking(LinkingFeature(selection: 0)),
                                 .secondFactors(SecondFactorsFeature(selection: 0)), .passwordReset(PasswordResetFeature()),
                                 .secondFactorEnrollment(.sms(accountName: "ada@example.com")), .secondFactorEnrollment(.totp(accountName: "ada@example.com").0)]
        screens += ([.signIn, .createAccount, .link] + operations.map { .reauthenticate($0) }).map { .credentialForm(CredentialFormFeature(purpose: $0)) }
        for provider in FederatedProvider.allCases {
            let pending = PendingLink(credential: OAuthProvider.credential(providerID: provider.id, idToken: "t"), email: "ada@example.com", reason: .accountExists)
            screens.append(.credentialForm(CredentialFormFeature(purpose: .signInToLink(pending))))
            screens.append(.providerForm(ProviderFormFeature(provider: provider, purpose: .signIn)))
            screens.append(.consent(ConsentFeature(provider: OAuthProvider(providerID: provider.id), purpose: .link)))
        }
        for purpose in [PhoneFeature.Purpose.signIn, .link] + operations.map({ .reauthenticate($0) }) {
            var phone = PhoneFeature(purpose: purpose)
            screens.append(.phone(phone))
            phone.step = .enteringCode(phone: "+15555550100", verificationID: "v", code: TextField(maxLength: 6))
            screens.append(.phone(phone))
        }
        var linking = PhoneFeature(purpose: .link)
        linking.step = .conflict(phone: "+15555550100", credential: .phone(PhoneAuthProvider.credential(withVerificationID: "v", verificationCode: "1")),
                                 signInSelected: false)
        screens.append(.phone(linking))
        screens += [EmailLinkFeature.Purpose.signIn, .link].map { .emailLink(EmailLinkFeature(purpose: $0)) }
        return screens
    }

    @Test func everyTitleAndRoomDescriptionFitsTheRoomsColumn() {
        let column = RoomScreen.columns.screen
        for screen in Self.screens {
            #expect(TextWidth.cells(screen.title) <= column, "\(screen.title)")
            #expect(TextWidth.cells(screen.feature.roomDescription) <= column, "\(screen.feature.roomDescription)")
        }
    }

    /// Beside the longest status the bar gives way to (half its width), the title is whole at 80 columns.
    @Test func theTitleBarShowsEveryTitleWholeAt80Columns() {
        var model = ConsoleModel(backendName: "embedded /home/ada/.local/share/authdeck")
        model.user = Fixtures.passwordUser(email: "ada.lovelace@analytical-engine.example")
        for screen in Self.screens {
            model.screen = screen
            let titleRow = render(model).split(separator: "\n").first.map(String.init) ?? ""
            #expect(titleRow.hasPrefix(" AuthDeck · \(screen.title) "), "\(titleRow)")
        }
    }

    /// The title bar's short titles leave the whole sentence to the screen.
    @Test func theScreenSaysWhatTheShortTitleLeavesOut() {
        var model = Fixtures.signedIn(Fixtures.anonymous)
        model.screen = .credentialForm(CredentialFormFeature(purpose: .link))
        #expect(render(model).contains("  Link email and password to this account\n"))
        model.screen = .phone(PhoneFeature(purpose: .link))
        #expect(render(model).contains("  Link a phone number to this account\n"))
        model.screen = .credentialForm(CredentialFormFeature(purpose: .reauthenticate(.verifyBeforeUpdateEmail("ada.lovelace@analytical-engine.example"))))
        let words = render(model).split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(words.contains("embedded · anonymous Confirm it's you to send a link that changes the email to ada.lovelace@analytical-engine.example ┌"))
    }

    /// Who is signed in, as the user knows themselves: a phone account by its number, not its uid.
    @Test func theTitleBarNamesAPhoneAccountByItsNumber() {
        var model = ConsoleModel(backendName: "embedded")
        model.user = User(uid: "phoneUID000000000000000000001", isAnonymous: false, phoneNumber: "+15555550100",
                          providerData: [UserInfo(providerID: "phone", uid: "+15555550100", phoneNumber: "+15555550100")])
        model.screen = .account(AccountFeature())
        let titleRow = render(model).split(separator: "\n").first.map(String.init) ?? ""
        #expect(titleRow.hasSuffix(" · +15555550100"), "\(titleRow)")
    }
}
