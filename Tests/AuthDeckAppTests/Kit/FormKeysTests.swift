@testable import AuthClient
@testable import AuthDeckApp
import Foundation
import Testing
import TerminalUI

/// A form's key bar says what enter does on the focused field: `next` where it moves on, the form's
/// own word where it sends the form; never a "submit" that only moves to the next field.
@Suite("Form keys")
struct FormKeysTests {
    /// The key bar of the console drawn at 80×24.
    func bar(_ screen: Screen, user: User? = Fixtures.passwordUser()) -> String {
        var model = ConsoleModel(backendName: "embedded")
        model.user = user
        model.screen = screen
        return render(model).split(separator: "\n", omittingEmptySubsequences: false).last.map(String.init) ?? ""
    }

    @Test func theCredentialFormMovesOnFromAnEmailUntilAPasswordIsTyped() {
        let empty = bar(.credentialForm(Fixtures.form(.signIn, email: "ada@example.com", password: "", focus: .email)), user: nil)
        #expect(empty.hasPrefix(" enter next · tab next · esc back"))
        #expect(!empty.contains("submit"))
        #expect(bar(.credentialForm(Fixtures.form(.signIn, email: "ada@example.com", password: "", focus: .password)), user: nil)
            .hasPrefix(" enter sign in · tab next"))
        // With a password typed, enter on the email sends the form, and says so.
        #expect(bar(.credentialForm(Fixtures.form(.createAccount, email: "ada@example.com", password: "hunter22", focus: .email)), user: nil)
            .hasPrefix(" enter create account · tab next"))
        #expect(bar(.credentialForm(Fixtures.form(.link, email: "ada@example.com", password: "", focus: .password)), user: Fixtures.anonymous)
            .hasPrefix(" enter link · "))
        #expect(bar(.credentialForm(Fixtures.form(.reauthenticate(.deleteAccount), email: "ada@example.com", password: "")))
            .hasPrefix(" enter confirm · "))
    }

    @Test func theNewPasswordFormsSendFromTheRepetition() {
        var change = ChangePasswordFeature()
        #expect(bar(.changePassword(change)).hasPrefix(" enter next · tab next"))
        change.focusOnConfirmation = true
        #expect(bar(.changePassword(change)).hasPrefix(" enter change password · tab next"))
        var reset = ChangePasswordFeature()
        #expect(bar(.passwordReset(PasswordResetFeature(step: .choosingPassword(code: "c", email: "ada@example.com", reset))), user: nil)
            .hasPrefix(" enter next · tab next · esc cancel"))
        reset.focusOnConfirmation = true
        #expect(bar(.passwordReset(PasswordResetFeature(step: .choosingPassword(code: "c", email: "ada@example.com", reset))), user: nil)
            .hasPrefix(" enter set password · tab next · esc cancel"))
    }

    @Test func theProviderRequestSendsFromItsLastField() {
        var microsoft = ProviderFormFeature(provider: .microsoft, purpose: .signIn)
        for field in [ProviderFormFeature.Field.tenant, .prompt, .loginHint, .scopes] {
            microsoft.focus = field
            #expect(bar(.providerForm(microsoft), user: nil).hasPrefix(" enter next · tab next"), "\(field)")
        }
        microsoft.focus = .parameters
        #expect(bar(.providerForm(microsoft), user: nil).hasPrefix(" enter send request · tab next"))
        var google = ProviderFormFeature(provider: .google, purpose: .signIn)
        #expect(bar(.providerForm(google), user: nil).hasPrefix(" enter next · "))
        google.focus = .parameters
        #expect(bar(.providerForm(google), user: nil).hasPrefix(" enter send request · "))
    }

    @Test func aNewSimulatedIdentityIsAddedOnceItHasAnEmail() {
        var consent = FederatedFixtures.consent(FederatedFixtures.appleProvider, .signIn, FederatedFixtures.appleDirectory)
        var form = NewIdentityForm()
        form.name = TextField(text: "Dana Scully", maxLength: 100)
        consent.newIdentity = form
        #expect(bar(.consent(consent), user: nil).hasPrefix(" enter next · tab next"))
        form.email = TextField(text: "dana@fabrikam.com", maxLength: 254)
        consent.newIdentity = form
        #expect(bar(.consent(consent), user: nil).hasPrefix(" enter add · tab next"))
        form.email = TextField(text: "dana", maxLength: 254)
        form.focusOnEmail = true
        consent.newIdentity = form
        #expect(bar(.consent(consent), user: nil).hasPrefix(" enter add · tab next"))
    }

    /// What the bar says enter does is what it does: on a field where it says next, the focus moves
    /// and nothing is sent.
    @Test func enterDoesWhatTheBarSays() {
        var form = Fixtures.form(.signIn, email: "ada@example.com", password: "", focus: .email)
        #expect(form.perform(.submit, in: Fixtures.signedOut).isEmpty)
        #expect(form.focus == .password)
        var microsoft = ProviderFormFeature(provider: .microsoft, purpose: .signIn)
        #expect(microsoft.perform(.submit, in: Fixtures.signedOut).isEmpty)
        #expect(microsoft.focus == .prompt)
    }
}
