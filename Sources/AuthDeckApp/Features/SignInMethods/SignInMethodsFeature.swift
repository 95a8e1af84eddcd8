import AuthClient
import Foundation
import TerminalUI

/// The first screen when signed out: every way to sign in, one line each, the selected one explained.
public struct SignInMethodsFeature: ConsoleFeature {
    /// What the screen's keys mean.
    public enum Action: Equatable, Sendable, ListAction {
        case up, down, choose, openAccounts, openProjects, openRoom
        /// A list's row by its number, 1 first.
        case number(Int)
    }

    /// It starts no work of its own: what it runs, the console answers.
    typealias Event = Never

    public var selection: Int

    public init(selection: Int) { self.selection = selection }

    /// The screen with `method` selected: where leaving that method's form leads back to.
    static func selecting(_ method: SignInMethod) -> SignInMethodsFeature {
        SignInMethodsFeature(selection: SignInMethod.allCases.firstIndex(of: method) ?? 0)
    }

    var title: String { "Sign in" }
    var needsUser: Bool { false }
    var screen: Screen { .signInMethods(self) }

    func bindings(in context: ConsoleContext) -> [KeyBinding<KeyIntent<Action>>] {
        [.moveUp(), .moveDown(), KeyBinding([.enter], "enter", "choose", .choose)] + Self.numberKeys
            + AccountsFeature.openBinding(.openAccounts, in: context) + AccountsFeature.openProjectsBinding(.openProjects, in: context)
            + RoomFeature.openBinding(.openRoom, in: context) + [.messages, .inspector, .help, .quit]
    }

    /// A presenter's shortcut: each method's number chooses it at once, 1 to 9 then 0 as on a keyboard.
    /// One entry stands for all in the bar and help.
    static let numberKeys: [KeyBinding<KeyIntent<Action>>] = SignInMethod.allCases.indices.compactMap { index in
        numberKey(index).map { key in
            KeyBinding([.character(key)], index == 0 ? (SignInMethod.allCases.count >= 10 ? "0–9" : "1–\(SignInMethod.allCases.count)") : "",
                       index == 0 ? "pick by number" : "", .number(index + 1), inBar: index == 0)
        }
    }

    /// Each method with its number key, made once: they never change.
    static let listItems = SignInMethod.allCases.enumerated().map { ListView.Item("\(numberKey($0.offset) ?? " ") \($0.element.title)") }

    static func numberKey(_ index: Int) -> Character? {
        switch index {
        case 0..<9: Character("\(index + 1)")
        case 9: "0"
        // Past the tenth row there is no key left.
        default: nil
        }
    }

    mutating func perform(_ action: Action, in context: ConsoleContext) -> [FlowStep] {
        let methods = SignInMethod.allCases
        switch action {
        case .up: selection = max(selection - 1, 0)
        case .down: selection = min(selection + 1, methods.count - 1)
        case let .number(number):
            guard methods.indices.contains(number - 1) else { return [] }
            selection = number - 1
            return perform(.choose, in: context)
        case .choose:
            switch methods[selection] {
            case .anonymous:
                return [.banner(nil), .run(.signInAnonymously, busy: "Signing in anonymously…")]
            case .emailPassword: return [.banner(nil), .show(.credentialForm(CredentialFormFeature(purpose: .signIn)))]
            case .createAccount: return [.banner(nil), .show(.credentialForm(CredentialFormFeature(purpose: .createAccount)))]
            case .phone: return [.banner(nil), .show(.phone(PhoneFeature(purpose: .signIn)))]
            case .resetPassword: return [.banner(nil), .show(.passwordReset(PasswordResetFeature()))]
            case .emailLink: return [.banner(nil), .show(.emailLink(EmailLinkFeature(purpose: .signIn)))]
            case .apple, .microsoft, .google, .facebook:
                guard let provider = methods[selection].federated else { return [.banner(nil)] }
                return [.banner(nil), .show(.providerForm(ProviderFormFeature(provider: provider, purpose: .signIn)))]
            }
        case .openAccounts: return AccountsFeature.open(in: context)
        case .openProjects: return AccountsFeature.openProjects(in: context)
        case .openRoom: return RoomFeature.open(in: context)
        }
        return []
    }

    func draw(in context: ConsoleContext, on canvas: any Canvas, frame: Rect) {
        canvas.put("Choose a sign-in method", row: frame.row, column: frame.column + 1, style: .title)
        let methods = SignInMethod.allCases
        let list = ListView(items: Self.listItems, selection: selection)
        let inside = Box.draw(on: canvas, frame: Rect(row: frame.row + 2, column: frame.column, width: min(frame.width, 60), height: methods.count + 2))
        list.draw(on: canvas, in: inside, focused: true)
        canvas.placeCursor(row: inside.row + selection, column: inside.column)
        let detailRow = frame.row + methods.count + 5
        for (index, line) in TextWidth.wrap(methods[selection].detail, width: frame.width - 2).enumerated() {
            canvas.put(line, row: detailRow + index, column: frame.column + 1, style: .dim)
        }
    }
}

/// The sign-in methods offered; only those that work are listed.
public enum SignInMethod: CaseIterable, Equatable, Sendable {
    case anonymous, emailPassword, createAccount
    case apple, microsoft, google, facebook
    case phone, resetPassword
    case emailLink

    var title: String {
        switch self {
        case .anonymous: "Continue as guest (anonymous)"
        case .emailPassword: "Sign in with email and password"
        case .createAccount: "Create an account with email and password"
        case .phone: "Sign in with a phone number (SMS code)"
        case .resetPassword: "Reset a forgotten password"
        case .emailLink: "Sign in with an email link (passwordless)"
        case .apple, .microsoft, .google, .facebook: "Sign in with \(federated?.name ?? "")"
        }
    }

    var detail: String {
        switch self {
        case .anonymous: "A new account with a uid and no credentials, to upgrade later by linking."
        case .emailPassword: "Sign in to an existing email/password account."
        case .createAccount: "A new account; the password needs at least 6 characters."
        case .phone: "A code is texted to the number (the phone pane shows it); a new number creates an account."
        case .resetPassword: "A reset link is emailed to the account (open it from the outbox, m)."
        case .emailLink: "A sign-in link is emailed to the address (open it from the outbox, m); a new address creates an account."
        case .apple: "Simulated Sign in with Apple: a nonce binds the ID token to this request; Hide My Email on the first consent."
        case .microsoft: "Simulated Microsoft identity platform: tenant, prompt, login hint and extra scopes such as mail.read."
        case .google: "Simulated Google: an ID token and an access token."
        case .facebook: "Simulated Facebook Login: an access token only; Facebook emails count as unverified."
        }
    }

    var federated: FederatedProvider? {
        switch self {
        case .anonymous, .emailPassword, .createAccount, .phone, .resetPassword, .emailLink: nil
        case .apple: .apple
        case .microsoft: .microsoft
        case .google: .google
        case .facebook: .facebook
        }
    }
}
