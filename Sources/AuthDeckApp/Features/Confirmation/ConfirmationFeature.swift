import AuthClient
import Foundation
import TerminalUI

/// A destructive or irreversible action waiting for a yes, drawn over the screen it was asked
/// from; cancelling returns there.
public struct ConfirmationFeature: ConsoleFeature {
    /// What the dialog's keys mean.
    public enum Action: Equatable, Sendable {
        case toggle, choose, confirm, cancel
    }

    /// It starts no work of its own: what it runs, the console answers.
    typealias Event = Never

    /// What waits for the yes.
    public enum Subject: Equatable, Sendable {
        case deleteAccount
        case unlink(providerID: String)
        case signOutAnonymous
        case unenroll(MultiFactorInfo)
    }

    public var subject: Subject
    public var confirmSelected = false
    /// The screen the dialog sits on, and goes back to when cancelled.
    public var behind: Screen

    public init(subject: Subject, over behind: Screen) {
        self.subject = subject
        self.behind = behind
    }

    var title: String { "Confirm" }
    var needsUser: Bool { true }
    var screen: Screen { .confirm(self) }

    func bindings(in context: ConsoleContext) -> [KeyBinding<KeyIntent<Action>>] {
        [KeyBinding([.left, .right, .tab], "←/→", "choose", .toggle),
         KeyBinding([.enter], "enter", "confirm choice", .choose),
         .char("y", "yes", .confirm), KeyBinding([.escape, .character("n")], "esc/n", "cancel", .cancel)]
    }

    mutating func perform(_ action: Action, in context: ConsoleContext) -> [FlowStep] {
        switch action {
        case .toggle:
            confirmSelected.toggle()
            return []
        case .cancel:
            return [.show(behind)]
        case .choose where !confirmSelected:
            return [.show(behind)]
        case .choose, .confirm:
            switch subject {
            case .deleteAccount:
                return [.run(.perform(.deleteAccount), busy: "Deleting the account…")]
            case let .unlink(providerID):
                return [.run(.unlink(providerID: providerID), busy: "Unlinking \(providerID)…")]
            case .signOutAnonymous:
                return AccountFeature.signOut
            case let .unenroll(factor):
                return [.run(.perform(.unenroll(factor)), busy: "Removing \(factor.displayName ?? factor.factorID)…")]
            }
        }
    }

    func draw(in context: ConsoleContext, on canvas: any Canvas, frame: Rect) {
        behind.feature.draw(in: context, on: canvas, frame: frame)
        dialog.draw(on: canvas)
    }

    var dialog: Dialog {
        let (title, message, button): (String, String, String) = switch subject {
        case .deleteAccount:
            ("Delete account", "Delete this account and its app data? This cannot be undone.", "Delete")
        case let .unlink(providerID):
            ("Unlink \(providerID)", "Unlink \(providerID)? You will no longer be able to sign in with it.", "Unlink")
        case .signOutAnonymous:
            ("Sign out", "This account is anonymous: once signed out, nobody can sign in to it again and its data is lost. Link a credential first to keep it.", "Sign out")
        case let .unenroll(factor):
            ("Remove a second factor", "Remove \"\(factor.displayName ?? factor.factorID)\"? It will no longer be offered at sign-in, and other sessions of this account are signed out.", "Remove")
        }
        return Dialog(title: title, message: message, buttons: ["Cancel", button], selection: confirmSelected ? 1 : 0)
    }
}
