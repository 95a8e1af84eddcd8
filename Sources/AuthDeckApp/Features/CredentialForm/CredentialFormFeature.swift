import AuthClient
import Foundation
import TerminalUI

/// The email/password form in its uses: sign in, create an account, link, reauthenticate, and
/// sign in to the account a pending credential is then linked to.
public struct CredentialFormFeature: ConsoleFeature {
    /// What the screen's keys mean.
    public enum Action: Equatable, Sendable, FormAction {
        case submit, back, nextField, previousField
    }

    /// It starts no work of its own: what it runs, the console answers.
    typealias Event = Never

    public enum Purpose: Equatable, Sendable {
        case signIn, createAccount, link
        case reauthenticate(SensitiveOperation)
        /// Signing in to the account that has the email of a pending credential, which is then linked.
        case signInToLink(PendingLink)

        var isReauthentication: Bool {
            if case .reauthenticate = self { return true }
            return false
        }
    }

    public var purpose: Purpose
    public var email: TextField
    public var password: TextField
    public var focus: Field

    public enum Field: Equatable, Sendable { case email, password }

    public init(purpose: Purpose, email: String = "") {
        self.purpose = purpose
        self.email = TextField(text: email, maxLength: 254)
        self.password = TextField(maxLength: 128, isSecure: true)
        self.focus = email.isEmpty ? .email : .password
    }

    /// Short, for the title bar and the room's column; `heading` says it whole on the screen.
    var title: String {
        switch purpose {
        case .signIn: "Sign in with a password"
        case .createAccount: "Create an account"
        case .link: "Link email and password"
        case .reauthenticate: "Confirm it's you"
        case let .signInToLink(pending): "Sign in to link \(FederatedProvider.displayName(pending.providerID))"
        }
    }

    var heading: String {
        switch purpose {
        case .signIn: "Sign in with email and password"
        case .link: "Link email and password to this account"
        case let .reauthenticate(operation): "Confirm it's you to \(operation.title)"
        case .createAccount, .signInToLink: title
        }
    }

    var needsUser: Bool { purpose == .link || purpose.isReauthentication }
    var editsText: Bool { true }
    var screen: Screen { .credentialForm(self) }

    var pendingLink: PendingLink? {
        if case let .signInToLink(pending) = purpose { return pending }
        return nil
    }

    /// enter on the email moves to the password while it is empty, and sends the form otherwise.
    func bindings(in context: ConsoleContext) -> [KeyBinding<KeyIntent<Action>>] {
        KeyBinding.formKeys(enter: focus == .email && password.text.isEmpty ? .next : .send(submitLabel))
    }

    var submitLabel: String {
        switch purpose {
        case .signIn, .signInToLink: "sign in"
        case .createAccount: "create account"
        case .link: "link"
        case .reauthenticate: "confirm"
        }
    }

    mutating func perform(_ action: Action, in context: ConsoleContext) -> [FlowStep] {
        switch action {
        case .nextField, .previousField:
            focus = focus == .email ? .password : .email
        case .back:
            switch purpose {
            case .signIn: return [.show(.signInMethods(.selecting(.emailPassword)))]
            case .createAccount: return [.show(.signInMethods(.selecting(.createAccount)))]
            case .link: return [.show(.account(AccountFeature()))]
            case let .reauthenticate(operation):
                return [.banner(Banner(.info, "Cancelled: did not \(operation.title).")), .show(.account(AccountFeature()))]
            case let .signInToLink(pending):
                return [.show(.pendingLink(PendingLinkFeature(pending: pending)))]
            }
        case .submit:
            if focus == .email, password.text.isEmpty {
                focus = .password
                return []
            }
            let email = email.text.trimmingCharacters(in: .whitespaces)
            guard !email.isEmpty else {
                focus = .email
                return [.banner(Banner(.error, "Enter an email address."))]
            }
            guard !password.text.isEmpty else {
                focus = .password
                return [.banner(Banner(.error, "Enter a password."))]
            }
            let password = password.text
            let credential = EmailAuthProvider.credential(withEmail: email, password: password)
            switch purpose {
            case .signIn, .signInToLink:
                return [.banner(nil), .run(.signIn(credential), busy: "Signing in…")]
            case .createAccount:
                return [.banner(nil), .run(.createUser(email: email, password: password), busy: "Creating the account…")]
            case .link:
                return [.banner(nil), .run(.link(credential), busy: "Linking email and password…")]
            case let .reauthenticate(operation):
                return [.banner(nil), .run(.reauthenticate(credential, then: operation), busy: "Confirming it's you…")]
            }
        }
        return []
    }

    mutating func edit(_ key: Key) {
        if focus == .email { _ = email.handle(key) } else { _ = password.handle(key) }
    }

    /// A failed submit keeps the email, never the password, and focuses what needs fixing.
    /// A failed submit keeps the email, never the password.
    mutating func showFailure(_ error: AuthError) -> [FlowStep] {
        password.text = ""
        focus = error.code == .invalidEmail ? .email : .password
        return [.banner(.error(error))]
    }

    static let labelWidth = 18

    func draw(in context: ConsoleContext, on canvas: any Canvas, frame: Rect) {
        for (index, line) in TextWidth.wrap(heading, width: frame.width - 2).prefix(2).enumerated() {
            canvas.put(line, row: frame.row + index, column: frame.column + 1, style: .title)
        }
        let width = min(frame.width, 70)
        let inside = Box.draw(on: canvas, frame: Rect(row: frame.row + 2, column: frame.column, width: width, height: 6))
        email.drawRow(on: canvas, row: inside.row + 1, column: inside.column, width: inside.width - 1,
                      label: "Email", labelWidth: Self.labelWidth, focused: focus == .email)
        password.drawRow(on: canvas, row: inside.row + 2, column: inside.column, width: inside.width - 1,
                         label: "Password", labelWidth: Self.labelWidth, focused: focus == .password)
        let hint = switch purpose {
        case .createAccount, .link: "At least 6 characters. Nothing is sent until you press enter on the password."
        case .signIn: "A wrong password and an unknown email get the same answer: email-enumeration protection is on."
        case .reauthenticate: "Your password, to prove the session is yours before a sensitive change."
        case let .signInToLink(pending): "The password of the account that has this email; \(FederatedProvider.displayName(pending.providerID)) is linked to it next."
        }
        for (index, line) in TextWidth.wrap(hint, width: frame.width - 2).enumerated() {
            canvas.put(line, row: frame.row + 9 + index, column: frame.column + 1, style: .dim)
        }
        FormFields.placeCursorLast(focus == .email ? email : password, on: canvas, row: inside.row + (focus == .email ? 1 : 2),
                                   column: inside.column, width: inside.width - 1, labelWidth: Self.labelWidth)
    }
}
