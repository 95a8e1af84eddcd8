import AuthClient

/// The teaching pane's steps of a second-factor sign-in: the resolver and its hints after the first
/// factor, the code texted, and the resolution with the code typed here.
extension SecondFactorSignInFeature {
    func teaching(for effect: ConsoleEffect, in input: TeachingInput) -> TeachingContext? {
        guard case let .secondFactorSignIn(signIn) = effect else { return nil }
        let assertion: MultiFactorAssertion
        let asked: MultiFactorChallenge
        switch signIn {
        case let .startSecondFactorSignIn(info, _):
            return TeachingContext(.secondFactorSendCode(displayName: info.displayName ?? "", phoneHint: info.phoneNumber))
        case let .resolveSignIn(challenge, given), let .resolveMerge(challenge, given, _):
            asked = challenge
            assertion = given
        }
        switch assertion {
        case let .totpSignIn(enrollmentID, code):
            let name = asked.hints.first { $0.uid == enrollmentID }?.displayName ?? ""
            return TeachingContext(.secondFactorResolveTOTP(displayName: name, code: code))
        case .phone:
            guard case let .enteringCode(_, verificationID?, code) = step else { return nil }
            return TeachingContext(.secondFactorResolvePhone(verificationID: verificationID, code: code.text))
        case .totpEnrollment:
            return nil
        }
    }

    /// The backend asked for a second factor: the resolver and its hints, after the first factor that led there.
    func teachingAfterResult(in input: TeachingInput) -> TeachingContext? {
        guard case .choosingFactor = step, input.shown?.step.kind != .secondFactorResolver else { return nil }
        let first = input.shown.map { [$0.step] } ?? []
        let email = first.first.flatMap { step -> String? in
            if case let .text(email)? = step.values["email"] { return email }
            return nil
        } ?? input.user?.email ?? ""
        return TeachingContext(steps: first + [.secondFactorResolver(email: email, hints: challenge.hints.map { $0.displayName ?? $0.factorID })])
    }
}
