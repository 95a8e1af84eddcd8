import AppData
import AuthClient
import Foundation
import TerminalUI

extension ConsoleModel {
    /// The keys valid right now, in the order the bar shows them.
    public var bindings: [KeyBinding] {
        switch overlay {
        case .help:
            return [KeyBinding([.escape, .character("?"), .enter, .character("q")], "esc", "close help", .back)]
        case .inspector:
            return [.moveUp, .moveDown, KeyBinding([.escape, .character("i")], "esc", "close inspector", .back)]
        case .outbox:
            return outboxBindings
        case nil:
            return screenBindings
        }
    }

    /// The keys of the screen itself, whatever overlay is open: what the help overlay lists.
    var screenBindings: [KeyBinding] {
        let formKeys: [KeyBinding] = [
            KeyBinding([.enter], "enter", "submit", .submit),
            KeyBinding([.tab, .down], "tab", "next", .nextField),
            KeyBinding([.backTab, .up], "shift-tab", "previous field", .previousField, inBar: false),
            .back, .helpInForm, .inspectorInForm,
        ]
        switch screen {
        case .launching:
            return []
        case .signInMethods:
            return [.moveUp, .moveDown, KeyBinding([.enter], "enter", "choose", .choose), .messages, .inspector, .help, .quit]
        case .credentialForm, .changePassword:
            return formKeys
        case .addCartItem:
            return [KeyBinding([.enter], "enter", "add", .submit), .back, .helpInForm]
        case let .account(focus):
            guard let user else { return [.quit] }
            // Actions first, then help and quit, so those two survive a narrow terminal's truncation.
            var keys: [KeyBinding] = [.moveUp, .moveDown]
            if user.email != nil, !user.emailVerified { keys.append(.char("v", "verify", .verifyEmail)) }
            // Second factors need a verified email: the bar offers "verify" first, then "2-step".
            if user.email != nil { keys.append(.char("f", "2-step", .secondFactors, inBar: user.emailVerified)) }
            keys.append(.char("a", "add item", .addItem))
            if focus.pane == .cart, !cart.isEmpty { keys.append(.char("x", "remove item", .removeItem)) }
            keys.append(.char("l", user.isAnonymous ? "upgrade" : "link", .link))
            if focus.pane == .providers, !user.providerData.isEmpty { keys.append(.char("u", "unlink", .unlink)) }
            if user.providerData.contains(where: { $0.providerID == EmailAuthProvider.id }) {
                keys.append(.char("p", "password", .changePassword, inBar: false))
            }
            if !user.providerData.contains(where: { $0.providerID == PhoneAuthProvider.id }) {
                keys.append(.char("n", "link a phone number", .linkPhone, inBar: false))
            }
            keys += [.char("D", "delete", .deleteAccount, inBar: user.isAnonymous), .char("o", "sign out", .signOut), .help, .quit,
                     .inspector, KeyBinding([.character("m")], "m", "messages (outbox)", .messages, inBar: false),
                     KeyBinding([.tab, .backTab], "tab", focus.pane == .providers ? "to cart" : "to providers", .nextPane)]
            return keys
        case .secondFactors:
            return secondFactorsBindings
        case let .enrollment(flow):
            return flow.bindings
        case let .secondFactorChallenge(flow):
            return flow.bindings
        case let .phone(flow):
            return flow.bindings
        case let .passwordReset(flow):
            return flow.bindings
        case .confirm:
            return [KeyBinding([.left, .right, .tab], "←/→", "choose", .toggle),
                    KeyBinding([.enter], "enter", "confirm choice", .choose),
                    .char("y", "yes", .confirm), KeyBinding([.escape, .character("n")], "esc/n", "cancel", .cancel)]
        case .linking, .providerForm, .consent, .conflict, .pendingLink, .reauthMethods:
            return federatedBindings(formKeys: formKeys) ?? []
        }
    }

    mutating func handleKey(_ key: Key) -> [ConsoleEffect] {
        if key == .control("c") { return [.quit] }
        guard busy == nil else { return [] }
        if key == .function(1) || (key == .character("?") && !screen.editsText) {
            overlay = overlay == .help ? nil : .help
            return []
        }
        if let binding = bindings.first(where: { $0.keys.contains(key) }) {
            return perform(binding.intent)
        }
        guard overlay == nil else { return [] }
        editFocusedField(with: key)
        return []
    }

    private mutating func perform(_ intent: Intent) -> [ConsoleEffect] {
        if case let .outbox(selection) = overlay { return performInOutbox(selection, intent) }
        if let overlay { return performInOverlay(overlay, intent) }
        switch intent {
        case .quit: return [.quit]
        case .messages:
            return openOutbox()
        case .inspector:
            overlay = .inspector(selection: max(exchanges.count - 1, 0))
            return []
        case .help:
            overlay = .help
            return []
        default: break
        }
        switch screen {
        case .launching:
            return []
        case let .signInMethods(selection):
            return performOnMethods(selection, intent)
        case let .credentialForm(form):
            return performOnCredentialForm(form, intent)
        case let .account(focus):
            return performOnAccount(focus, intent)
        case let .addCartItem(field):
            if intent == .back {
                screen = .account(AccountFocus())
            } else if intent == .submit, let uid = user?.uid {
                let name = field.text.trimmingCharacters(in: .whitespaces)
                guard !name.isEmpty else {
                    banner = Banner(.error, "Type the item's name, or press esc.")
                    return []
                }
                var focus = AccountFocus()
                focus.pane = .cart
                screen = .account(focus)
                return [.addToCart(uid: uid, name: name)]
            }
            return []
        case let .changePassword(form):
            return performOnPasswordForm(form, intent)
        case let .confirm(confirmation):
            return performOnConfirmation(confirmation, intent)
        case let .secondFactors(selection):
            return performOnSecondFactors(selection, intent)
        case .enrollment, .secondFactorChallenge, .phone, .passwordReset:
            return performOnFlow(intent)
        case .linking, .providerForm, .consent, .conflict, .pendingLink, .reauthMethods:
            return performOnFederatedScreen(intent)
        }
    }

    private mutating func performInOverlay(_ current: Overlay, _ intent: Intent) -> [ConsoleEffect] {
        switch (current, intent) {
        case (_, .back): overlay = nil
        case let (.inspector(selection), .up): overlay = .inspector(selection: max(selection - 1, 0))
        case let (.inspector(selection), .down): overlay = .inspector(selection: min(selection + 1, max(exchanges.count - 1, 0)))
        default: break
        }
        return []
    }

    private mutating func performOnMethods(_ selection: Int, _ intent: Intent) -> [ConsoleEffect] {
        let methods = SignInMethod.allCases
        switch intent {
        case .up: screen = .signInMethods(selection: max(selection - 1, 0))
        case .down: screen = .signInMethods(selection: min(selection + 1, methods.count - 1))
        case .choose:
            banner = nil
            switch methods[selection] {
            case .anonymous:
                busy = "Signing in anonymously…"
                return [.signInAnonymously]
            case .emailPassword: screen = .credentialForm(CredentialForm(purpose: .signIn))
            case .createAccount: screen = .credentialForm(CredentialForm(purpose: .createAccount))
            case .phone: screen = .phone(PhoneFlow(purpose: .signIn))
            case .resetPassword: screen = .passwordReset(PasswordResetFlow())
            case .apple, .microsoft, .google, .facebook:
                if let provider = methods[selection].federated {
                    screen = .providerForm(ProviderForm(provider: provider, purpose: .signIn))
                }
            }
        default: break
        }
        return []
    }

    private mutating func performOnCredentialForm(_ form: CredentialForm, _ intent: Intent) -> [ConsoleEffect] {
        var form = form
        switch intent {
        case .nextField, .previousField:
            form.focus = form.focus == .email ? .password : .email
            screen = .credentialForm(form)
        case .back:
            switch form.purpose {
            case .signIn: screen = .signInMethods(selection: 1)
            case .createAccount: screen = .signInMethods(selection: 2)
            case .link: screen = .account(AccountFocus())
            case let .reauthenticate(operation):
                banner = Banner(.info, "Cancelled: did not \(operation.title).")
                screen = .account(AccountFocus())
            case let .signInToLink(pending):
                screen = .pendingLink(PendingLinkState(pending: pending))
            }
        case .submit:
            if form.focus == .email, form.password.text.isEmpty {
                form.focus = .password
                screen = .credentialForm(form)
                return []
            }
            let email = form.email.text.trimmingCharacters(in: .whitespaces)
            guard !email.isEmpty else {
                banner = Banner(.error, "Enter an email address.")
                form.focus = .email
                screen = .credentialForm(form)
                return []
            }
            guard !form.password.text.isEmpty else {
                banner = Banner(.error, "Enter a password.")
                form.focus = .password
                screen = .credentialForm(form)
                return []
            }
            banner = nil
            let password = form.password.text
            let credential = EmailAuthProvider.credential(withEmail: email, password: password)
            switch form.purpose {
            case .signIn, .signInToLink:
                busy = "Signing in…"
                return [.signIn(credential)]
            case .createAccount:
                busy = "Creating the account…"
                return [.createUser(email: email, password: password)]
            case .link:
                busy = "Linking email and password…"
                return [.link(credential)]
            case let .reauthenticate(operation):
                busy = "Confirming it's you…"
                return [.reauthenticate(credential, then: operation)]
            }
        default: break
        }
        return []
    }

    private mutating func performOnAccount(_ focus: AccountFocus, _ intent: Intent) -> [ConsoleEffect] {
        guard let user else { return [] }
        var focus = focus
        banner = intent == .up || intent == .down ? banner : nil
        switch intent {
        case .nextPane:
            focus.pane = focus.pane == .providers ? .cart : .providers
        case .up, .down:
            let delta = intent == .up ? -1 : 1
            if focus.pane == .providers {
                focus.providerSelection = max(0, min(focus.providerSelection + delta, user.providerData.count - 1))
            } else {
                focus.cartSelection = max(0, min(focus.cartSelection + delta, cart.count - 1))
            }
        case .addItem:
            screen = .addCartItem(TextField(maxLength: CartStore.maximumNameLength))
            return []
        case .removeItem:
            guard cart.indices.contains(focus.cartSelection) else { return [] }
            return [.removeFromCart(uid: user.uid, name: cart[focus.cartSelection].name)]
        case .link:
            screen = .linking(LinkingState.initial(for: user))
            return []
        case .unlink:
            guard user.providerData.indices.contains(focus.providerSelection) else { return [] }
            let provider = user.providerData[focus.providerSelection].providerID
            guard user.providerData.count > 1 else {
                banner = Banner(.error, "\(provider) is this account's only way to sign in; link another provider before unlinking it.")
                return []
            }
            screen = .confirm(Confirmation(action: .unlink(providerID: provider)))
            return []
        case .changePassword:
            screen = .changePassword(PasswordForm())
            return []
        case .verifyEmail:
            busy = "Sending the verification email…"
            return [.verification(.sendEmailVerification)]
        case .secondFactors:
            screen = .secondFactors(selection: 0)
            return []
        case .linkPhone:
            screen = .phone(PhoneFlow(purpose: .link))
            return []
        case .deleteAccount:
            screen = .confirm(Confirmation(action: .deleteAccount))
            return []
        case .signOut:
            if user.isAnonymous {
                screen = .confirm(Confirmation(action: .signOutAnonymous))
                return []
            }
            return signOut()
        default:
            return []
        }
        screen = .account(focus)
        return []
    }

    private mutating func signOut() -> [ConsoleEffect] {
        screen = .signInMethods(selection: 0)
        banner = Banner(.success, "Signed out.")
        return [.signOut]
    }

    private mutating func performOnPasswordForm(_ form: PasswordForm, _ intent: Intent) -> [ConsoleEffect] {
        var form = form
        switch intent {
        case .nextField, .previousField:
            form.focusOnConfirmation.toggle()
            screen = .changePassword(form)
        case .back:
            screen = .account(AccountFocus())
        case .submit:
            guard form.focusOnConfirmation else {
                form.focusOnConfirmation = true
                screen = .changePassword(form)
                return []
            }
            guard form.newPassword.text == form.confirmation.text else {
                banner = Banner(.error, "The two passwords do not match.")
                form.confirmation.text = ""
                screen = .changePassword(form)
                return []
            }
            banner = nil
            busy = "Changing the password…"
            return [.perform(.updatePassword(form.newPassword.text))]
        default: break
        }
        return []
    }

    private mutating func performOnConfirmation(_ confirmation: Confirmation, _ intent: Intent) -> [ConsoleEffect] {
        var confirmation = confirmation
        switch intent {
        case .toggle:
            confirmation.confirmSelected.toggle()
            screen = .confirm(confirmation)
            return []
        case .cancel:
            screen = confirmation.screenBehind
            return []
        case .choose where !confirmation.confirmSelected:
            screen = confirmation.screenBehind
            return []
        case .choose, .confirm:
            switch confirmation.action {
            case .deleteAccount:
                busy = "Deleting the account…"
                return [.perform(.deleteAccount)]
            case let .unlink(providerID):
                busy = "Unlinking \(providerID)…"
                return [.unlink(providerID: providerID)]
            case .signOutAnonymous:
                return signOut()
            case let .unenroll(factor):
                busy = "Removing \(factor.displayName ?? factor.factorID)…"
                return [.perform(.unenroll(factor))]
            }
        default:
            return []
        }
    }

    private mutating func editFocusedField(with key: Key) {
        switch screen {
        case var .credentialForm(form):
            if form.focus == .email { _ = form.email.handle(key) } else { _ = form.password.handle(key) }
            screen = .credentialForm(form)
        case var .changePassword(form):
            if form.focusOnConfirmation { _ = form.confirmation.handle(key) } else { _ = form.newPassword.handle(key) }
            screen = .changePassword(form)
        case var .addCartItem(field):
            _ = field.handle(key)
            screen = .addCartItem(field)
        case .enrollment, .secondFactorChallenge, .phone, .passwordReset:
            editFlow(with: key)
        default:
            editFederatedField(with: key)
        }
    }
}

extension Screen {
    /// Screens where printable keys are typed into a field rather than taken as commands.
    var editsText: Bool {
        switch self {
        case .credentialForm, .changePassword, .addCartItem, .providerForm: true
        case let .consent(consent): consent.newIdentity != nil
        case let .enrollment(flow): flow.editsText
        case let .passwordReset(flow): flow.editsText
        default: false
        }
    }
}
