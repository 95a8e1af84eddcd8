import AuthClient
import Foundation
import TerminalUI

/// The account's second factors: type, name, number (masked) and enrollment date; add or remove one.
public struct SecondFactorsFeature: ConsoleFeature {
    /// What the screen's keys mean.
    public enum Action: Equatable, Sendable, ListAction, BackAction {
        case up, down, enrollSms, enrollTotp, remove, back
    }

    /// It starts no work of its own: what it runs, the console answers.
    typealias Event = Never

    public var selection: Int

    public init(selection: Int) { self.selection = selection }

    var title: String { "Second factors" }
    var needsUser: Bool { true }
    var screen: Screen { .secondFactors(self) }

    func bindings(in context: ConsoleContext) -> [KeyBinding<KeyIntent<Action>>] {
        var keys: [KeyBinding<KeyIntent<Action>>] = [.moveUp(), .moveDown(), .char("p", "add SMS", .enrollSms), .char("t", "add authenticator", .enrollTotp)]
        if !(context.user?.enrolledFactors.isEmpty ?? true) { keys.append(.char("x", "remove", .remove)) }
        keys += [KeyBinding([.escape], "esc", "back", .back), .messages, .help]
        return keys
    }

    mutating func perform(_ action: Action, in context: ConsoleContext) -> [FlowStep] {
        guard let user = context.user else { return [] }
        let factors = user.enrolledFactors
        let accountName = user.email ?? user.phoneNumber ?? user.uid
        switch action {
        case .up: selection = max(selection - 1, 0)
        case .down: selection = min(selection + 1, max(factors.count - 1, 0))
        case .enrollSms:
            return [.banner(nil), .show(.secondFactorEnrollment(.sms(accountName: accountName)))]
        case .enrollTotp:
            let (flow, steps) = SecondFactorEnrollmentFeature.totp(accountName: accountName)
            return [.show(.secondFactorEnrollment(flow))] + steps
        case .remove:
            guard factors.indices.contains(selection) else { return [] }
            return [.banner(nil), .show(.confirm(ConfirmationFeature(subject: .unenroll(factors[selection]), over: screen)))]
        case .back:
            return [.banner(nil), .show(.account(AccountFeature()))]
        }
        return []
    }

    func draw(in context: ConsoleContext, on canvas: any Canvas, frame: Rect) {
        SecondFactorsScreen.draw(context, selection: selection, emptyHint: emptyHint(in: context), on: canvas, in: frame)
    }

    /// What the empty list says, with the keys named from the bindings, so that it follows them.
    func emptyHint(in context: ConsoleContext) -> String {
        let keys = bindings(in: context)
        func key(_ action: Action) -> String {
            keys.first { $0.intent == .feature(action) }?.label ?? "?"
        }
        return "none yet: \(key(.enrollSms)) adds an SMS factor, \(key(.enrollTotp)) an authenticator app"
    }
}
