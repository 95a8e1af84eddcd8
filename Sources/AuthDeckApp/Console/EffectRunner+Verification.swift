import AuthClient
import Foundation

extension EffectRunner {
    func perform(_ effect: VerificationEffect) async -> VerificationEvent {
        switch effect {
        case .refreshOutbox:
            return .outboxChanged(await readOutbox())
        case .sendEmailVerification:
            return .emailVerificationSent(await result {
                try await self.auth.sendEmailVerification()
                return await self.auth.currentUser?.email ?? ""
            })
        case let .applyActionCode(email):
            return .actionCodeApplied(email, await result {
                try await self.auth.applyActionCode(email.oobCode)
                return await self.auth.currentUser
            })
        case let .sendSignInLink(email):
            return .signInLinkSent(await result {
                try await self.auth.sendSignInLink(toEmail: email)
                return email
            })
        case let .fetchSignInMethods(email):
            return .signInMethodsFetched(email: email, await result { try await self.auth.fetchSignInMethods(forEmail: email) })
        case let .sendPasswordReset(email):
            return .passwordResetSent(await result {
                try await self.auth.sendPasswordReset(withEmail: email)
                return email
            })
        case let .confirmPasswordReset(code, newPassword):
            return .passwordResetConfirmed(await result {
                let email = try await self.auth.verifyPasswordResetCode(code)
                try await self.auth.confirmPasswordReset(withCode: code, newPassword: newPassword)
                return email
            })
        case let .startPhoneEnrollment(phone):
            control.enrolling(phoneNumber: phone)
            return .codeSent(await result {
                let session = try await self.auth.multiFactor.session()
                return try await PhoneAuthProvider.provider(auth: self.auth).verifyPhoneNumber(phone, multiFactorSession: session)
            })
        case .generateTotpSecret:
            return .totpSecretGenerated(await result {
                try await TotpMultiFactorGenerator.generateSecret(with: self.auth.multiFactor.session())
            })
        case let .enroll(assertion, displayName):
            return .enrolled(await result { try await self.auth.multiFactor.enroll(with: assertion, displayName: displayName) })
        case let .startSecondFactorSignIn(hint, challenge):
            let session = auth.multiFactorResolver(for: challenge).session
            return .codeSent(await result {
                try await PhoneAuthProvider.provider(auth: self.auth).verifyPhoneNumber(with: hint, multiFactorSession: session)
            })
        case let .resolveSignIn(challenge, assertion):
            let resolver = auth.multiFactorResolver(for: challenge)
            return .secondFactorSignInFinished(await result { try await resolver.resolveSignIn(with: assertion) })
        case let .resolveMerge(challenge, assertion, plan):
            let resolver = auth.multiFactorResolver(for: challenge)
            return .secondFactorMergeFinished(await merge(plan) { try await resolver.resolveSignIn(with: assertion) })
        }
    }

    /// Newest first, as a phone or a mail client lists messages.
    private func readOutbox() async -> Result<Outbox, OutboxProblem> {
        guard let outbox else { return .failure(.noOutbox) }
        do {
            async let emails = outbox.emails()
            async let texts = outbox.texts()
            // The signed-in user is counted even if its auth-state event has not arrived yet.
            control.adopt(await auth.currentUser)
            let read = Outbox(emails: try await emails.reversed(), texts: try await texts.reversed())
            return .success(arrivals.stamp(control.filter(read), now: Date()))
        } catch let failure as AuthEmulatorOutbox.ReadFailure {
            return .failure(.unreadable(failure))
        } catch {
            return .failure(.unreadable(AuthEmulatorOutbox.ReadFailure(.failed, AuthError(.internalError, serverMessage: String(describing: error)))))
        }
    }
}
