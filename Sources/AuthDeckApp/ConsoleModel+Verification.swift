import AuthClient
import Foundation
import TerminalUI

// The console's side of email verification, password reset, phone sign-in and linking, and second
// factors: it hosts the flows (each a state machine of its own), turns their steps into effects
// and screens, and owns the second-factors screen and the outbox overlay.
extension ConsoleModel {
    /// The backend asked for a second factor: the factor-selection screen takes over.
    mutating func challengeSecondFactor(_ challenge: MultiFactorChallenge, purpose: SecondFactorSignInFlow.Purpose) -> [ConsoleEffect] {
        busy = nil
        screen = .secondFactorChallenge(SecondFactorSignInFlow(challenge: challenge, purpose: purpose))
        if case let .mergeAfterConflict(conflict) = purpose {
            banner = Banner(.info, "The account that has \(FederatedProvider.displayName(conflict.providerID)) has 2-step verification: choose its second factor.")
        } else {
            banner = Banner(.info, "This account has 2-step verification: choose a second factor.")
        }
        return []
    }

    mutating func handleVerification(_ event: VerificationEvent) -> [ConsoleEffect] {
        switch event {
        case let .outboxChanged(.success(newOutbox)):
            outbox = newOutbox
            if case let .outbox(selection) = overlay { overlay = .outbox(selection: min(selection, max(newOutbox.count - 1, 0))) }
            return []
        case let .outboxChanged(.failure(error)):
            if case .outbox = overlay { banner = .error(error, advice: "This backend has no outbox to read.") }
            return []
        case let .emailVerificationSent(result):
            busy = nil
            switch result {
            case let .success(email):
                banner = Banner(.info, "A verification email to \(email) is in the outbox: press m and open it.")
                return [.verification(.refreshOutbox)]
            case let .failure(error):
                banner = .error(error)
                return []
            }
        case let .actionCodeApplied(result):
            busy = nil
            switch result {
            case let .success(user):
                if let user { adopt(user) }
                overlay = nil
                banner = Banner(.success, "Email verified.")
            case let .failure(error):
                banner = .error(error)
            }
            return [.verification(.refreshOutbox)]
        default:
            busy = nil
            return forwardToFlow(event)
        }
    }

    private mutating func forwardToFlow(_ event: VerificationEvent) -> [ConsoleEffect] {
        updateFlow { $0.handle(event) } ?? []
    }

    mutating func performOnFlow(_ intent: Intent) -> [ConsoleEffect] {
        updateFlow { $0.perform(intent) } ?? []
    }

    mutating func editFlow(with key: Key) {
        _ = updateFlow { flow -> [FlowStep] in
            flow.edit(key)
            return []
        }
    }

    /// Runs `body` on the flow of the current screen, stores it back, then applies its steps.
    private mutating func updateFlow(_ body: (inout any ConsoleFlow) -> [FlowStep]) -> [ConsoleEffect]? {
        var flow: any ConsoleFlow
        switch screen {
        case let .enrollment(current): flow = current
        case let .secondFactorChallenge(current): flow = current
        case let .phone(current): flow = current
        case let .passwordReset(current): flow = current
        default: return nil
        }
        let steps = body(&flow)
        screen = flow.screen
        return apply(steps)
    }

    private mutating func apply(_ steps: [FlowStep]) -> [ConsoleEffect] {
        var effects: [ConsoleEffect] = []
        for step in steps {
            switch step {
            case let .run(effect, busyText):
                if let busyText { busy = busyText }
                effects.append(.verification(effect))
            case let .banner(newBanner):
                banner = newBanner
            case let .exit(exit):
                effects += leaveFlow(exit)
            }
        }
        return effects
    }

    private mutating func leaveFlow(_ exit: FlowExit) -> [ConsoleEffect] {
        switch exit {
        case let .signedIn(result):
            let withSecondFactor = if case .secondFactorChallenge = screen { true } else { false }
            adopt(result.user)
            screen = .account(AccountFocus())
            banner = Banner(.success, result.additionalUserInfo?.isNewUser == true
                ? "Account created." : (withSecondFactor ? "Signed in with a second factor." : "Signed in."))
            return [.loadCart(uid: result.user.uid)]
        case let .reauthenticated(operation):
            busy = "Retrying: \(operation.title)…"
            return [.perform(operation)]
        case let .merged(outcome, conflict):
            return finishMerge(outcome, after: conflict)
        case let .enrolled(user, displayName):
            adopt(user)
            screen = .secondFactors(selection: max(user.enrolledFactors.count - 1, 0))
            banner = Banner(.success, "Enrolled \"\(displayName)\". Signing in now asks for a second factor.")
            return []
        case let .linked(result):
            adopt(result.user)
            screen = .account(AccountFocus())
            banner = Banner(.success, "Linked \(result.user.phoneNumber ?? "the phone number"). The uid and app data are unchanged.")
            return []
        case let .passwordReset(email):
            screen = .credentialForm(CredentialForm(purpose: .signIn, email: email))
            banner = Banner(.success, "Password changed and every session signed out. Sign in with the new password.")
            return []
        case .cancelled:
            screen = screenBeforeFlow
            return []
        case let .restartSignIn(restartBanner):
            screen = user == nil ? .signInMethods(selection: 1) : .account(AccountFocus())
            banner = restartBanner
            return []
        }
    }

    /// Where leaving the current flow goes back to.
    private var screenBeforeFlow: Screen {
        let methods = SignInMethod.allCases
        switch screen {
        case .enrollment:
            return .secondFactors(selection: 0)
        case let .secondFactorChallenge(flow) where flow.purpose == .signIn:
            return .signInMethods(selection: methods.firstIndex(of: .emailPassword) ?? 0)
        case let .secondFactorChallenge(flow):
            // Back to the conflict, where the operator can cancel or try again.
            if case let .mergeAfterConflict(conflict) = flow.purpose { return .conflict(conflict) }
            return user == nil ? .signInMethods(selection: 0) : .account(AccountFocus())
        case let .phone(flow) where flow.purpose == .signIn:
            return .signInMethods(selection: methods.firstIndex(of: .phone) ?? 0)
        case .passwordReset where user == nil:
            return .signInMethods(selection: methods.firstIndex(of: .resetPassword) ?? 0)
        default:
            return user == nil ? .signInMethods(selection: 0) : .account(AccountFocus())
        }
    }

    // MARK: The second-factors screen

    var secondFactorsBindings: [KeyBinding] {
        var keys: [KeyBinding] = [.moveUp, .moveDown, .char("s", "add SMS", .enrollSms), .char("t", "add authenticator", .enrollTotp)]
        if !(user?.enrolledFactors.isEmpty ?? true) { keys.append(.char("x", "remove", .unlink)) }
        keys += [KeyBinding([.escape], "esc", "back", .back), .messages, .help]
        return keys
    }

    mutating func performOnSecondFactors(_ selection: Int, _ intent: Intent) -> [ConsoleEffect] {
        guard let user else { return [] }
        let factors = user.enrolledFactors
        let accountName = user.email ?? user.phoneNumber ?? user.uid
        switch intent {
        case .up: screen = .secondFactors(selection: max(selection - 1, 0))
        case .down: screen = .secondFactors(selection: min(selection + 1, max(factors.count - 1, 0)))
        case .enrollSms:
            banner = nil
            screen = .enrollment(.sms(accountName: accountName))
        case .enrollTotp:
            let (flow, steps) = SecondFactorEnrollmentFlow.totp(accountName: accountName)
            screen = .enrollment(flow)
            return apply(steps)
        case .unlink:
            guard factors.indices.contains(selection) else { return [] }
            banner = nil
            screen = .confirm(Confirmation(action: .unenroll(factors[selection])))
        case .back:
            banner = nil
            screen = .account(AccountFocus())
        default:
            break
        }
        return []
    }

    // MARK: The outbox overlay

    mutating func openOutbox() -> [ConsoleEffect] {
        overlay = .outbox(selection: 0)
        return [.verification(.refreshOutbox)]
    }

    var outboxBindings: [KeyBinding] {
        var keys: [KeyBinding] = [.moveUp, .moveDown]
        if case let .outbox(selection) = overlay, outbox.emails.indices.contains(selection) {
            keys.append(KeyBinding([.enter], "enter", "open the link", .choose))
        }
        keys += [.char("r", "refresh", .refresh), KeyBinding([.escape, .character("m")], "esc", "close", .back)]
        return keys
    }

    mutating func performInOutbox(_ selection: Int, _ intent: Intent) -> [ConsoleEffect] {
        switch intent {
        case .up: overlay = .outbox(selection: max(selection - 1, 0))
        case .down: overlay = .outbox(selection: min(selection + 1, max(outbox.count - 1, 0)))
        case .refresh: return [.verification(.refreshOutbox)]
        case .back: overlay = nil
        case .choose:
            guard outbox.emails.indices.contains(selection) else { return [] }
            let email = outbox.emails[selection]
            switch email.action {
            case .verifyEmail:
                busy = "Verifying \(email.to)…"
                return [.verification(.applyActionCode(email.oobCode))]
            case .resetPassword:
                overlay = nil
                screen = .passwordReset(.choosingPassword(code: email.oobCode, email: email.to))
                banner = Banner(.info, "Choose a new password for \(email.to).")
            case .other:
                break
            }
        default:
            break
        }
        return []
    }
}

extension Confirmation {
    /// The screen the dialog sits on, and goes back to when cancelled.
    var screenBehind: Screen {
        if case .unenroll = action { return .secondFactors(selection: 0) }
        return .account(AccountFocus())
    }
}

/// What the console needs of a flow, whichever it is.
protocol ConsoleFlow: Sendable {
    mutating func perform(_ intent: Intent) -> [FlowStep]
    mutating func edit(_ key: Key)
    mutating func handle(_ event: VerificationEvent) -> [FlowStep]
    /// The screen that shows this flow.
    var screen: Screen { get }
}

extension SecondFactorEnrollmentFlow: ConsoleFlow { var screen: Screen { .enrollment(self) } }
extension SecondFactorSignInFlow: ConsoleFlow { var screen: Screen { .secondFactorChallenge(self) } }
extension PhoneFlow: ConsoleFlow { var screen: Screen { .phone(self) } }
extension PasswordResetFlow: ConsoleFlow { var screen: Screen { .passwordReset(self) } }
