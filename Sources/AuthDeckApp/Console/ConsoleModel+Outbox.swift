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
            keys.append(KeyBinding([.enter], "enter", "open the link", .overlay(.choose)))
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
            switch email.action {
            case .verifyEmail, .verifyAndChangeEmail, .recoverEmail:
                busy = email.action.opening(email.to)
                return [.verification(.applyActionCode(email))]
            case .resetPassword:
                overlay = nil
                screen = .passwordReset(.choosingPassword(code: email.oobCode, email: email.to))
                banner = Banner(.info, "Choose a new password for \(email.to).")
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
            if showing || problem != .noOutbox { banner = problem.banner }
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
                if let signedIn {
                    adopt(signedIn)
                } else if endedSession {
                    // An email change ends every session of the account, this console's too.
                    user = nil
                    cart = []
                    screen = .signInMethods(SignInMethodsFeature(selection: 0))
                }
                banner = Banner(.success, email.action.applied(email.to, endedSession: endedSession))
            case let .failure(error):
                banner = .error(error)
            }
            return [.verification(.refreshOutbox)]
        }
    }
}
