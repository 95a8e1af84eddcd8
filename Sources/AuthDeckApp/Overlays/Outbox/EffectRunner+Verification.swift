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
            let applied = await result {
                try await self.auth.applyActionCode(email.oobCode)
                return await self.auth.currentUser
            }
            record(email, applied)
            return .actionCodeApplied(email, applied)
        case let .checkResetCode(email):
            let checked = await result { try await self.auth.verifyPasswordResetCode(email.oobCode) }
            if case .failure = checked { outboxHistory.refused(email) }
            return .resetCodeChecked(email, checked)
        }
    }

    private func record<T>(_ email: Outbox.Email, _ outcome: Result<T, AuthError>) {
        switch outcome {
        case .success: outboxHistory.opened(email)
        case .failure: outboxHistory.refused(email)
        }
    }

    /// Newest first, as a phone or a mail client lists messages.
    private func readOutbox() async -> Result<Outbox, OutboxProblem> {
        guard let outbox else { return .failure(.noOutbox) }
        do {
            async let messages = outbox.messages()
            // The signed-in user is counted even if its auth-state event has not arrived yet.
            control.adopt(await auth.currentUser)
            let read = try await messages
            let newestFirst = Outbox(emails: read.emails.reversed(), texts: read.texts.reversed(), project: outbox.projectId)
            // A reset empties the visitors' projects: a visitor's own (a console without the operators' accounts
            // view is a visitor's), and for an operator every one but the server's.
            let visitor = accounts == nil
            return .success(outboxHistory.stamp(control.filter(newestFirst), now: auth.clock(), resets: room?.resets ?? 0,
                                                emptiedByReset: { visitor || $0 != outbox.projectId }))
        } catch let failure as AuthEmulatorOutbox.ReadFailure {
            return .failure(.unreadable(failure))
        } catch {
            return .failure(.unreadable(AuthEmulatorOutbox.ReadFailure(.failed, AuthError(.internalError, serverMessage: String(describing: error)))))
        }
    }
}
