import AuthClient
import Foundation
import TerminalUI

/// The outbox overlay, and the email actions and outbox reads the console answers whatever screen asked.
extension ConsoleModel {
    mutating func openOutbox() -> [ConsoleEffect] {
        overlay = .outbox(selection: 0)
        return [.verification(.refreshOutbox)]
    }

    var outboxBindings: [KeyBinding<ConsoleAction>] {
        var keys: [KeyBinding<ConsoleAction>] = [
            KeyBinding([.up, .character("k")], "↑/k", "move up", .overlay(.up), inBar: false),
            KeyBinding([.down, .character("j")], "↓/j", "move down", .overlay(.down), inBar: false),
        ]
        if case let .outbox(selection) = overlay, outbox.emails.indices.contains(selection) {
            let elsewhere = outbox.isElsewhere(project: outbox.emails[selection].project)
            keys.append(KeyBinding([.enter], "enter", elsewhere ? "where it opens" : "open the link", .overlay(.choose)))
        }
        keys += [.char("r", "refresh", .overlay(.refresh)), KeyBinding([.escape, .character("m")], "esc", "close", .overlay(.back))]
        return keys
    }

    mutating func performInOutbox(_ selection: Int, _ action: OverlayAction) -> [ConsoleEffect] {
        switch action {
        case .up: overlay = .outbox(selection: max(selection - 1, 0))
        case .down: overlay = .outbox(selection: min(selection + 1, max(outbox.count - 1, 0)))
        case .refresh: return [.verification(.refreshOutbox)]
        case .back: overlay = nil
        case .choose:
            guard outbox.emails.indices.contains(selection) else { return [] }
            let email = outbox.emails[selection]
            // Its code acts in the project it came from, not in this console's.
            guard !outbox.isElsewhere(project: email.project) else {
                banner = Banner(.info, "That message is in project \(email.project): it opens from a console in that project.")
                return []
            }
            switch email.action {
            case .verifyEmail, .verifyAndChangeEmail, .recoverEmail:
                busy = email.action.opening(email.to)
                return [.verification(.applyActionCode(email))]
            case .resetPassword:
                // The backend says whether the code still works before a form asks for a password it would refuse.
                busy = "Checking the reset link…"
                return [.verification(.checkResetCode(email))]
            case .signIn:
                overlay = nil
                return apply(EmailLinkFeature.open(email, on: screen, user: user))
            case let .other(type):
                banner = Banner(.info, "AuthDeck does not open \(type) messages.")
            }
        case .scrollUp, .scrollDown:
            break
        }
        return []
    }

    mutating func handleVerification(_ event: VerificationEvent) -> [ConsoleEffect] {
        switch event {
        case let .outboxChanged(.success(newOutbox)):
            outbox = newOutbox
            if case let .outbox(selection) = overlay { overlay = .outbox(selection: min(selection, max(newOutbox.count - 1, 0))) }
            return []
        case let .outboxChanged(.failure(problem)):
            outbox = Outbox(problem: problem)
            let showing = if case .outbox = overlay { true } else { false }
            if showing { overlay = .outbox(selection: 0) }
            // A banner that points at the outbox must not stand when the outbox cannot be read; a real
            // project has none, which needs saying only to someone looking for it.
            if showing || problem != .noOutbox { banner = problem.banner(replacing: showing ? nil : banner) }
            return []
        case let .emailVerificationSent(result):
            switch result {
            case let .success(email):
                banner = Banner(.info, "A verification email to \(email) is in the outbox: press m and open it.")
                return [.verification(.refreshOutbox)]
            case let .failure(error):
                banner = .error(error)
                return []
            }
        case let .actionCodeApplied(email, result):
            switch result {
            case let .success(signedIn):
                overlay = nil
                let endedSession = signedIn == nil && user != nil
                let applied = Banner(.success, email.action.applied(email.to, account: email.account, endedSession: endedSession))
                // An email change ends every session of the account, this console's too.
                if endedSession { return leaveFlow(.sessionEnded(applied)) + [.verification(.refreshOutbox)] }
                if let signedIn { adopt(signedIn) }
                banner = applied
            case let .failure(error):
                banner = Self.refusedLink(email, error)
            }
            return [.verification(.refreshOutbox)]
        case let .resetCodeChecked(email, result):
            switch result {
            case let .success(address):
                overlay = nil
                screen = .passwordReset(.choosingPassword(code: email.oobCode, email: address))
                banner = Banner(.info, "Choose a new password for \(address).")
                return []
            case let .failure(error):
                banner = Self.refusedLink(email, error)
                return [.verification(.refreshOutbox)]
            }
        }
    }

    /// A link the backend refused: it stays in the outbox, marked, and the banner says why and what to do.
    static func refusedLink(_ email: Outbox.Email, _ error: AuthError) -> Banner {
        var banner = Banner.error(error)
        banner.text = "This \"\(email.subject)\" link no longer works: \(error.message) Ask for a new one."
        return banner
    }
}
