import AuthClient
import TerminalUI

/// The teaching pane's keys: scroll, the language, the step of several, copy, the transcript, close.
public enum TeachingAction: Equatable, Sendable {
    case lineUp, lineDown, pageUp, pageDown, nextLanguage, previousStep, nextStep, close
    case scrollLeft, scrollRight, copy, copyTranscript, toggleTranscript
}

/// The teaching pane, an overlay like the inspector: its keys, and the step it shows after every
/// event, from what just happened: the work the console was asked for, or a result that put a new
/// step in front of the user. Each feature says which step its work or a result is
/// (`XFeature+Teaching`); the session's own work is read here.
extension ConsoleModel {
    /// The key that opens the pane on the current screen: `s`, or F4 where letters are typed; none
    /// before the console has started, and on the operator's accounts view and room, which no client SDK
    /// drives (a visitor's pane shows in the room when the presenter follows them).
    var teachingBinding: KeyBinding<ConsoleAction>? {
        if case .launching = screen { return nil }
        if case .accounts = screen { return nil }
        if case .room = screen { return nil }
        return screen.editsText ? .teachingInForm : .teaching
    }

    /// The screen's own keys with the pane's first among the console's, where an 80-column bar still
    /// shows it, unless the screen uses that key itself.
    func withTeachingKey(_ own: [KeyBinding<ConsoleAction>]) -> [KeyBinding<ConsoleAction>] {
        guard let key = teachingBinding, !own.contains(where: { $0.keys.contains(where: key.keys.contains) }) else { return own }
        let at = own.firstIndex { binding in
            if case .console = binding.intent { binding.inBar } else { false }
        } ?? own.endIndex
        return Array(own[..<at]) + [key] + Array(own[at...])
    }

    var teachingBindings: [KeyBinding<ConsoleAction>] {
        // The bar offers paging only while there is more below.
        let frame = ConsoleView.teachingFrame(terminalSize ?? Size(width: 80, height: 24))
        let last = teachingPane(scroll: 0)?.maxScroll(in: frame) ?? 0
        let moreBelow = if case let .teaching(scroll) = overlay { scroll < last } else { last > 0 }
        var keys: [KeyBinding<ConsoleAction>] = [
            KeyBinding([.down, .character("j")], "↓/j", "scroll down", .teaching(.lineDown), inBar: false),
            KeyBinding([.up, .character("k")], "↑/k", "scroll up", .teaching(.lineUp), inBar: false),
            KeyBinding([.pageDown, .character(" ")], "space", "page down", .teaching(.pageDown), inBar: moreBelow),
            KeyBinding([.pageUp, .character("b")], "b", "page up", .teaching(.pageUp), inBar: false),
            KeyBinding([.character("l"), .tab], "l", "show \(teachingDisplay.next.name)", .teaching(.nextLanguage)),
        ]
        if let teaching, teaching.steps.count > 1, !teachingSession.showsTranscript {
            keys += [KeyBinding([.left, .character("h")], "←/→", "step", .teaching(.previousStep)),
                     KeyBinding([.right], "", "", .teaching(.nextStep), inBar: false)]
        }
        keys += teachingCopyBindings
        keys.append(KeyBinding([.escape, .character("s"), .function(4), .character("q")], "esc", "close", .teaching(.close)))
        return keys
    }

    mutating func openTeaching() {
        overlay = .teaching(scroll: 0)
    }

    mutating func performInTeaching(_ scroll: Int, _ action: TeachingAction) -> [ConsoleEffect] {
        let frame = ConsoleView.teachingFrame(terminalSize ?? Size(width: 80, height: 24))
        let last = teachingPane(scroll: 0)?.maxScroll(in: frame) ?? 0
        let page = max(1, TeachingPane.visibleRows(in: frame) - 1)
        teachingSession.copied = nil
        switch action {
        case .lineDown: overlay = .teaching(scroll: min(scroll + 1, last))
        case .lineUp: overlay = .teaching(scroll: max(scroll - 1, 0))
        case .pageDown: overlay = .teaching(scroll: min(scroll + page, last))
        case .pageUp: overlay = .teaching(scroll: max(scroll - page, 0))
        case .nextLanguage:
            teachingDisplay = teachingDisplay.next
            teachingSession.column = 0
            overlay = .teaching(scroll: 0)
        case .previousStep, .nextStep:
            guard var teaching else { return [] }
            teaching.selected = action == .nextStep ? min(teaching.selected + 1, teaching.steps.count - 1) : max(teaching.selected - 1, 0)
            self.teaching = teaching
            teachingSession.column = 0
            overlay = .teaching(scroll: 0)
        case .close: overlay = nil
        case .scrollLeft, .scrollRight, .copy, .copyTranscript, .toggleTranscript:
            performTeachingCopy(action, in: frame)
        }
        return []
    }

    /// The pane as it draws: the step, the language choice, and above the code the call it made.
    /// Before any step, what the screen in front of the user does, with what is typed so far.
    func teachingPane(scroll: Int) -> TeachingPane? {
        if teachingSession.showsTranscript { return transcriptPane(scroll: scroll) }
        guard let teaching else {
            return screen.feature.teachingPreview.map { step in
                TeachingPane(step: step, display: teachingDisplay, scroll: scroll, notes: ["Not done yet: what enter does on this screen."])
            }
        }
        var notes = (teachingSession.copied.map { [$0] } ?? []) + [teaching.step.exchangeLine(in: exchanges)]
        if teaching.steps.count > 1 {
            notes.append("Step \(teaching.selected + 1) of \(teaching.steps.count) of what you just did (←/→).")
        }
        return TeachingPane(step: teaching.step, display: teachingDisplay, scroll: scroll, column: teachingSession.column, notes: notes)
    }

    /// What the pane shows next: the work just asked for, else a result that put a step in front of
    /// the user. An open pane follows, back at its top.
    mutating func followTeaching(after event: ConsoleEvent, asked effects: [ConsoleEffect]) {
        guard let next = effects.reversed().compactMap({ teaching(for: $0) }).first ?? teaching(after: event) else { return }
        let shown = inTenant(next)
        teaching = shown
        // The transcript selects the tenant once, at its start, as an app does.
        teachingSession.record(teachingSession.transcript.isEmpty ? shown : next)
        teachingSession.column = 0
        teachingSession.copied = nil
        if case .teaching = overlay { overlay = .teaching(scroll: 0) }
    }

    /// In a tenant, what was done starts where the app selects the tenant: the calls after it are the tenant's.
    private func inTenant(_ context: TeachingContext) -> TeachingContext {
        guard let tenant, context.steps.first?.kind != .selectTenant else { return context }
        return TeachingContext(steps: [.selectTenant(tenantID: tenant)] + context.steps, selected: context.selected + 1)
    }

    /// What a feature reads when it says which step its work or a result is.
    private var teachingInput: TeachingInput { TeachingInput(user: user, shown: teaching, lastAuthorization: lastAuthorization) }

    /// The step of an effect: the feature on screen says for its own work and for the session's with
    /// a credential it made; the session's work with what it carries says for itself.
    private func teaching(for effect: ConsoleEffect) -> TeachingContext? {
        screen.feature.teaching(for: effect, in: teachingInput) ?? sessionTeaching(for: effect)
    }

    private func sessionTeaching(for effect: ConsoleEffect) -> TeachingContext? {
        let input = teachingInput
        switch effect {
        case .signInAnonymously:
            return TeachingContext(.anonymousSignIn)
        case let .createUser(email, _):
            return TeachingContext(.createAccount(email: email))
        case let .signIn(credential):
            return CredentialTeaching.signIn(credential, in: input)
        case let .link(credential):
            return CredentialTeaching.link(credential, in: input)
        case let .unlink(providerID):
            return TeachingContext(.unlinkProvider(providerID: providerID))
        case let .reauthenticate(credential, _):
            return CredentialTeaching.reauthenticate(credential, in: input)
        case let .perform(operation):
            return operationTeaching(operation)
        case .signOut:
            return user.map { TeachingContext(.signOut(uid: $0.uid)) }
        case .reloadUser:
            return user.map { TeachingContext(.reload(uid: $0.uid)) }
        case .verification(.sendEmailVerification):
            return TeachingContext(.sendEmailVerification(email: user?.email ?? ""))
        // A feature's own work: the feature says (`XFeature+Teaching`).
        case .phone, .passwordReset, .emailLink, .secondFactorEnrollment, .secondFactorSignIn, .conflict:
            return nil
        // The console's own bookkeeping, the simulated provider's directory and the operator's work: no SDK step.
        case .restoreSession, .loadCart, .addToCart, .removeFromCart, .deleteAppData, .mergeCart, .deleteLeftGuest,
             .verification(.refreshOutbox), .verification(.applyActionCode), .verification(.checkResetCode), .pendingLink, .consent, .accounts,
             .room, .quit:
            return nil
        }
    }

    private func operationTeaching(_ operation: SensitiveOperation) -> TeachingContext? {
        switch operation {
        case .updatePassword: TeachingContext(.updatePassword(email: user?.email ?? ""))
        case .deleteAccount: user.map { TeachingContext(.deleteAccount(uid: $0.uid)) }
        case let .deletePreviousAccount(previous): TeachingContext(.deleteAccount(uid: previous.uid))
        case let .updateEmail(email, _): TeachingContext(.updateEmail(newEmail: email))
        case let .verifyBeforeUpdateEmail(email): TeachingContext(.verifyBeforeUpdateEmail(newEmail: email))
        // Removing a factor has no step of its own in the catalogue.
        case .unenroll: nil
        }
    }

    /// The step a result put in front of the user: the feature on screen says.
    private func teaching(after event: ConsoleEvent) -> TeachingContext? {
        // Only an answer to the work asked for: keys, the inspector's news and the outbox take no step.
        guard event.endsBusyWork else { return nil }
        return screen.feature.teachingAfterResult(in: teachingInput)
    }
}

extension TeachingPane.Display {
    /// The language key's cycle: all four, then each alone at full width.
    var next: Self {
        switch self {
        case .all: return .one(SDKPlatform.allCases[0])
        case let .one(platform):
            let index = SDKPlatform.allCases.firstIndex(of: platform)! + 1
            return index < SDKPlatform.allCases.count ? .one(SDKPlatform.allCases[index]) : .all
        }
    }

    var name: String {
        switch self {
        case .all: "all four"
        case let .one(platform): platform.name
        }
    }
}
