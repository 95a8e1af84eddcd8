/// The teaching pane's steps of the password reset: the email sent, the new password confirmed.
extension PasswordResetFeature {
    func teaching(for effect: ConsoleEffect, in input: TeachingInput) -> TeachingContext? {
        guard case let .passwordReset(own) = effect else { return nil }
        switch own {
        case let .sendPasswordReset(email): return TeachingContext(.sendPasswordReset(email: email))
        case let .confirmPasswordReset(code, _): return TeachingContext(.confirmPasswordReset(oobCode: code))
        }
    }
}
