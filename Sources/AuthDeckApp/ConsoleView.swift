import AppData
import AuthClient
import Foundation
import TerminalUI

/// Draws the model. Screens read state only: nothing here changes the model or does I/O.
public enum ConsoleView {
    public static func draw(_ model: ConsoleModel, on canvas: any Canvas) {
        if TooSmall.drawIfNeeded(on: canvas) { return }
        TitleBar.draw(on: canvas, left: "AuthDeck · \(model.screen.title)", right: model.statusText)
        let content = Rect(row: 2, column: 1, width: canvas.size.width - 2, height: canvas.size.height - 6)
        switch model.screen {
        case .launching:
            canvas.put("Starting…", row: content.row, column: content.column + 1, style: .dim)
        case let .signInMethods(selection):
            SignInMethodsScreen.draw(selection: selection, on: canvas, in: content)
        case let .credentialForm(form):
            FormScreen.draw(form, on: canvas, in: content)
        case let .account(focus):
            AccountScreen.draw(model, focus: focus, on: canvas, in: content)
        case let .addCartItem(field):
            AccountScreen.draw(model, focus: AccountFocus(), on: canvas, in: content)
            FormScreen.drawItemPrompt(field, on: canvas)
        case let .changePassword(form):
            FormScreen.draw(form, on: canvas, in: content)
        case let .confirm(confirmation):
            if case .unenroll = confirmation.action {
                SecondFactorsScreen.draw(model, selection: 0, on: canvas, in: content)
            } else {
                AccountScreen.draw(model, focus: AccountFocus(), on: canvas, in: content)
            }
            confirmation.dialog.draw(on: canvas)
        case let .secondFactors(selection):
            SecondFactorsScreen.draw(model, selection: selection, on: canvas, in: content)
        case let .enrollment(flow):
            EnrollmentScreen.draw(flow, outbox: model.outbox, on: canvas, in: content)
        case let .secondFactorChallenge(flow):
            SecondFactorChallengeScreen.draw(flow, outbox: model.outbox, on: canvas, in: content)
        case let .phone(flow):
            PhoneScreen.draw(flow, outbox: model.outbox, on: canvas, in: content)
        case let .passwordReset(flow):
            PasswordResetScreen.draw(flow, on: canvas, in: content)
        case let .linking(state):
            LinkingScreen.draw(model, state: state, on: canvas, in: content)
        case let .providerForm(form):
            ProviderFormScreen.draw(form, on: canvas, in: content)
        case let .consent(consent):
            ConsentScreen.draw(consent, on: canvas, in: content)
        case let .conflict(conflict):
            ConflictScreen.draw(conflict, on: canvas, in: content)
        case let .pendingLink(state):
            PendingLinkScreen.draw(state, on: canvas, in: content)
        case let .reauthMethods(operation, selection):
            ReauthMethodsScreen.draw(model, operation: operation, selection: selection, on: canvas, in: content)
        }
        // The QR code of a TOTP enrollment takes the rows the banner would use on an 80×24 terminal.
        if !(model.screen.showsQRCode && canvas.size.height < 28) { drawBanner(model, on: canvas) }
        switch model.overlay {
        case .help:
            HelpOverlay.draw(on: canvas, title: "Keys: \(model.screen.title)",
                             entries: model.helpEntries)
        case let .inspector(selection):
            InspectorScreen.draw(model.exchanges, selection: selection, authorization: model.lastAuthorization,
                                 additionalUserInfo: model.lastAdditionalUserInfo, on: canvas)
        case let .outbox(selection):
            OutboxScreen.draw(model.outbox, selection: selection, on: canvas)
        case nil:
            break
        }
        StatusBar.draw(on: canvas, hints: model.barHints)
    }

    /// The banner (or what is running) sits just above the key bar: text, then its detail dimmed.
    static func drawBanner(_ model: ConsoleModel, on canvas: any Canvas) {
        let width = canvas.size.width - 2
        let top = canvas.size.height - 4
        if let busy = model.busy {
            canvas.put("\(canvas.symbols.ellipsis) \(busy)", row: top, column: 1, style: .accent)
            return
        }
        guard let banner = model.banner else { return }
        let (marker, style): (String, Style) = switch banner.kind {
        case .info: ("i", .accent)
        case .success: ("ok", .success)
        case .error: ("error", .error)
        }
        let lines = TextWidth.wrap("\(marker): \(banner.text)", width: width)
        for (index, line) in lines.prefix(2).enumerated() {
            canvas.put(line, row: top + index, column: 1, style: style)
        }
        if let detail = banner.detail, lines.count < 3 {
            canvas.put(TextWidth.truncate(detail, toCells: width), row: top + min(lines.count, 2), column: 1, style: .dim)
        }
    }

    static func dateText(_ date: Date?) -> String {
        guard let date else { return "—" }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? .current
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        return String(format: "%04d-%02d-%02d %02d:%02d:%02d UTC", c.year ?? 0, c.month ?? 0, c.day ?? 0, c.hour ?? 0, c.minute ?? 0, c.second ?? 0)
    }
}

extension ConsoleModel {
    /// The right side of the title bar: the backend, and who is signed in.
    var statusText: String {
        let who = user.map { $0.isAnonymous ? "anonymous" : ($0.email ?? $0.uid) } ?? "signed out"
        return "\(backendName) · \(who)"
    }

    /// The bar's hints; where `q` types a letter, ctrl-c is the way out and says so.
    var barHints: [(key: String, label: String)] {
        let shown = bindings.filter(\.inBar)
        let hints = shown.map { (key: $0.label, label: $0.action) }
        return shown.contains { $0.intent == .quit } || screen == .launching ? hints : hints + [(key: "ctrl-c", label: "quit")]
    }

    var helpEntries: [(key: String, description: String)] {
        screenBindings.map { ($0.label, $0.action) } + [("ctrl-c", "quit at once, from anywhere")]
    }
}

extension Screen {
    var title: String {
        switch self {
        case .launching: "starting"
        case .signInMethods: "Sign in"
        case let .credentialForm(form): form.title
        case .account: "Account"
        case .addCartItem: "Add to cart"
        case .changePassword: "Change password"
        case .confirm: "Confirm"
        case .secondFactors: "Second factors"
        case let .enrollment(flow): flow.isTotp ? "Add an authenticator app" : "Add an SMS factor"
        case .secondFactorChallenge: "Second factor"
        case let .phone(flow): flow.title
        case .passwordReset: "Reset password"
        case .linking: "Sign-in methods"
        case let .providerForm(form): "\(FederatedProvider.displayName(form.provider.id)) request"
        case let .consent(consent): "SIMULATED \(FederatedProvider.displayName(consent.provider.providerID))"
        case .conflict: "Link conflict"
        case .pendingLink: "Account exists"
        case .reauthMethods: "Confirm it's you"
        }
    }

    var showsQRCode: Bool {
        if case let .enrollment(flow) = self, case .scanning = flow.step { return true }
        return false
    }
}

extension Confirmation {
    var dialog: Dialog {
        let (title, message, action): (String, String, String) = switch action {
        case .deleteAccount:
            ("Delete account", "Delete this account and its app data? This cannot be undone.", "Delete")
        case let .unlink(providerID):
            ("Unlink \(providerID)", "Unlink \(providerID)? You will no longer be able to sign in with it.", "Unlink")
        case .signOutAnonymous:
            ("Sign out", "This account is anonymous: once signed out, nobody can sign in to it again and its data is lost. Link a credential first to keep it.", "Sign out")
        case let .unenroll(factor):
            ("Remove a second factor", "Remove \"\(factor.displayName ?? factor.factorID)\"? It will no longer be offered at sign-in, and other sessions of this account are signed out.", "Remove")
        }
        return Dialog(title: title, message: message, buttons: ["Cancel", action], selection: confirmSelected ? 1 : 0)
    }
}

enum SignInMethodsScreen {
    static func draw(selection: Int, on canvas: any Canvas, in frame: Rect) {
        canvas.put("Choose a sign-in method", row: frame.row, column: frame.column + 1, style: .title)
        let methods = SignInMethod.allCases
        let list = ListView(items: methods.map { ListView.Item($0.title) }, selection: selection)
        let inside = Box.draw(on: canvas, frame: Rect(row: frame.row + 2, column: frame.column, width: min(frame.width, 60), height: methods.count + 2))
        list.draw(on: canvas, in: inside, focused: true)
        canvas.placeCursor(row: inside.row + selection, column: inside.column)
        let detailRow = frame.row + methods.count + 5
        for (index, line) in TextWidth.wrap(methods[selection].detail, width: frame.width - 2).enumerated() {
            canvas.put(line, row: detailRow + index, column: frame.column + 1, style: .dim)
        }
    }
}

enum FormScreen {
    static let labelWidth = 18

    static func draw(_ form: CredentialForm, on canvas: any Canvas, in frame: Rect) {
        canvas.put(form.title, row: frame.row, column: frame.column + 1, style: .title)
        let width = min(frame.width, 70)
        let inside = Box.draw(on: canvas, frame: Rect(row: frame.row + 2, column: frame.column, width: width, height: 6))
        form.email.drawRow(on: canvas, row: inside.row + 1, column: inside.column, width: inside.width - 1,
                           label: "Email", labelWidth: labelWidth, focused: form.focus == .email)
        form.password.drawRow(on: canvas, row: inside.row + 2, column: inside.column, width: inside.width - 1,
                              label: "Password", labelWidth: labelWidth, focused: form.focus == .password)
        let hint = switch form.purpose {
        case .createAccount, .link: "At least 6 characters. Nothing is sent until you press enter on the password."
        case .signIn: "A wrong password and an unknown email get the same answer: email-enumeration protection is on."
        case .reauthenticate: "Your password, to prove the session is yours before a sensitive change."
        case let .signInToLink(pending): "The password of the account that has this email; \(FederatedProvider.displayName(pending.providerID)) is linked to it next."
        }
        for (index, line) in TextWidth.wrap(hint, width: frame.width - 2).enumerated() {
            canvas.put(line, row: frame.row + 9 + index, column: frame.column + 1, style: .dim)
        }
        placeFocusedCursorLast(form.focus == .email ? form.email : form.password, on: canvas, row: inside.row + (form.focus == .email ? 1 : 2), column: inside.column, width: inside.width - 1)
    }

    static func draw(_ form: PasswordForm, on canvas: any Canvas, in frame: Rect) {
        canvas.put("Change the password", row: frame.row, column: frame.column + 1, style: .title)
        let inside = Box.draw(on: canvas, frame: Rect(row: frame.row + 2, column: frame.column, width: min(frame.width, 70), height: 6))
        form.newPassword.drawRow(on: canvas, row: inside.row + 1, column: inside.column, width: inside.width - 1,
                                 label: "New password", labelWidth: labelWidth, focused: !form.focusOnConfirmation)
        form.confirmation.drawRow(on: canvas, row: inside.row + 2, column: inside.column, width: inside.width - 1,
                                  label: "Repeat it", labelWidth: labelWidth, focused: form.focusOnConfirmation)
        canvas.put("A sensitive change: if you signed in more than 5 minutes ago, you will be asked to confirm it's you.",
                   row: frame.row + 9, column: frame.column + 1, style: .dim)
        placeFocusedCursorLast(form.focusOnConfirmation ? form.confirmation : form.newPassword, on: canvas,
                               row: inside.row + (form.focusOnConfirmation ? 2 : 1), column: inside.column, width: inside.width - 1)
    }

    static func drawItemPrompt(_ field: TextField, on canvas: any Canvas) {
        let frame = Rect.centered(width: 56, height: 5, in: canvas.size)
        let inside = Box.draw(on: canvas, frame: frame, title: "Add to cart", style: .accent)
        field.drawRow(on: canvas, row: inside.row + 1, column: inside.column, width: inside.width - 1,
                      label: "Item", labelWidth: 6, focused: true)
    }

    /// The focused field draws again last so the terminal cursor (screen readers follow it)
    /// ends on it, whatever was drawn after it.
    private static func placeFocusedCursorLast(_ field: TextField, on canvas: any Canvas, row: Int, column: Int, width: Int) {
        field.draw(on: canvas, row: row, column: column + 2 + labelWidth + 1, width: width - (2 + labelWidth + 1), focused: true)
    }
}
