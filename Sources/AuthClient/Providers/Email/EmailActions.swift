import Foundation
import IdentityToolkit

extension Auth {
    /// Sends the signed-in user a link that verifies their email address.
    public func sendEmailVerification() async throws {
        _ = try requireUser()
        let idToken = try await validIDToken()
        _ = try await performForCurrentUser(SendOobCodeRequest(requestType: .verifyEmail, idToken: idToken))
    }

    /// Sends a password-reset link. With email-enumeration protection an unknown address succeeds too.
    public func sendPasswordReset(withEmail email: String) async throws {
        _ = try await perform(SendOobCodeRequest(requestType: .passwordReset, email: email))
    }

    /// The email a password-reset code was sent to, without using the code.
    public func verifyPasswordResetCode(_ code: String) async throws -> String {
        let response = try await perform(ResetPasswordRequest(oobCode: code))
        guard let email = response.email else { throw AuthError.missingField("email") }
        return email
    }

    /// Sets a new password with a reset code. Every session of the account ends, this one included.
    public func confirmPasswordReset(withCode code: String, newPassword: String) async throws {
        let response = try await perform(ResetPasswordRequest(oobCode: code, newPassword: newPassword))
        if let current = session?.user, current.email == response.email { signOutLocally() }
    }

    /// Applies an email action (verifies the email, changes it to a verified new one, or restores the
    /// old one); the signed-in user is reloaded when it was theirs. An email change ends every
    /// session of the account, this one included: the user is then signed out.
    public func applyActionCode(_ code: String) async throws {
        let response = try await perform(ApplyActionCodeRequest(oobCode: code))
        guard session?.user.uid == response.localId else { return }
        do {
            try await reload()
        } catch let error as AuthError where Self.endsSession(error.code) {
            return
        }
    }
}
