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
