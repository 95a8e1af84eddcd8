import AppData
import AuthClient
import Foundation
import TerminalUI

/// The sign-in methods of the account: linked, and not linked yet.
enum LinkingScreen {
    static func draw(_ context: ConsoleContext, state: LinkingState, on canvas: any Canvas, in frame: Rect) {
        guard let user = context.user else { return }
        let column = frame.column + 1
        canvas.put("Sign-in methods of this account", row: frame.row, column: column, style: .title)
        canvas.put(TextWidth.truncate("uid \(user.uid): link more ways to sign in to it; unlink any but the last.", toCells: frame.width - 2),
                   row: frame.row + 1, column: column, style: .dim)
        let linked = LinkingState.linked(user)
        let notLinked = LinkingState.notLinked(user)
        let width = min(frame.width, 70)
        let linkedBox = Box.draw(on: canvas, frame: Rect(row: frame.row + 3, column: frame.column, width: width, height: max(linked.count, 1) + 2),
                                 title: "Linked (\(linked.count))", style: state.selection < linked.count ? .accent : .dim)
        if linked.isEmpty {
            canvas.put("none: this account is anonymous", row: linkedBox.row, column: linkedBox.column + 1, style: .dim)
        } else {
            let items = user.providerData.map { ListView.Item(AccountScreen.providerLine($0, width: linkedBox.width - 2)) }
            ListView(items: items, selection: state.selection < linked.count ? state.selection : -1)
                .draw(on: canvas, in: linkedBox, focused: state.selection < linked.count)
        }
        let top = linkedBox.row + linkedBox.height + 1
        let notLinkedBox = Box.draw(on: canvas, frame: Rect(row: top, column: frame.column, width: width, height: max(notLinked.count, 1) + 2),
                                    title: "Not linked yet (\(notLinked.count))", style: state.selection >= linked.count ? .accent : .dim)
        if notLinked.isEmpty {
            canvas.put("every method is linked", row: notLinkedBox.row, column: notLinkedBox.column + 1, style: .dim)
        } else {
            let items = notLinked.map { ListView.Item(TextWidth.pad(FederatedProvider.displayName($0), toCells: 20) + " " + Self.hint($0)) }
            ListView(items: items, selection: state.selection - linked.count).draw(on: canvas, in: notLinkedBox, focused: state.selection >= linked.count)
        }
        let hint = user.isAnonymous
            ? "Linking any of them upgrades this anonymous account: the uid and the cart stay."
            : "A method that belongs to another account opens the link-conflict screen."
        canvas.put(TextWidth.truncate(hint, toCells: frame.width - 2), row: notLinkedBox.row + notLinkedBox.height + 1, column: column, style: .dim)
        let selectedRow = state.selection < linked.count ? linkedBox.row + state.selection : notLinkedBox.row + state.selection - linked.count
        canvas.placeCursor(row: selectedRow, column: state.selection < linked.count ? linkedBox.column : notLinkedBox.column)
    }

    static func hint(_ method: String) -> String {
        switch method {
        case EmailAuthProvider.id: "an email and a password"
        case FederatedProvider.apple.id: "simulated, nonce"
        case FederatedProvider.microsoft.id: "simulated, tenant"
        case FederatedProvider.google.id: "simulated"
        case FederatedProvider.facebook.id: "simulated, access token"
        default: ""
        }
    }
}

/// What the app will ask the provider for, before anything is sent.
enum ProviderFormScreen {
    static let labelWidth = 14

    static func draw(_ form: ProviderForm, on canvas: any Canvas, in frame: Rect) {
        let column = frame.column + 1
        let purpose = switch form.purpose {
        case .signIn: "Sign in with \(form.provider.name)"
        case .link: "Link \(form.provider.name) to this account"
        case let .reauthenticate(operation): "Confirm it's you with \(form.provider.name) to \(operation.title)"
        case .signInToLink: "Sign in with \(form.provider.name), then link the pending provider"
        }
        canvas.put(TextWidth.truncate(purpose, toCells: frame.width - 2), row: frame.row, column: column, style: .title)
        canvas.put("The request to the simulated \(form.provider.id) (an OAuthProvider):", row: frame.row + 1, column: column, style: .dim)
        let fields = form.fields
        let inside = Box.draw(on: canvas, frame: Rect(row: frame.row + 2, column: frame.column, width: min(frame.width, 76), height: fields.count + 2))
        for (index, field) in fields.enumerated() {
            form[field].drawRow(on: canvas, row: inside.row + index, column: inside.column, width: inside.width - 1,
                                label: label(field), labelWidth: labelWidth, focused: form.focus == field)
        }
        var notes = [
            "Custom parameters: key=value separated by spaces. client_id, response_type, redirect_uri, state, scope and response_mode are reserved and refused here, before anything is sent.",
        ]
        if form.provider == .microsoft {
            notes.insert("Tenant: common, organizations, consumers, a directory GUID or a domain. Prompt: login, none, consent or select_account. Add scopes such as mail.read calendars.read.", at: 0)
        }
        if form.provider.usesNonce {
            notes.append("At consent AuthDeck draws a fresh 32-character nonce; the provider gets its SHA-256, the backend the raw nonce.")
        }
        var row = inside.row + inside.height + 1
        for note in notes {
            for line in TextWidth.wrap(note, width: frame.width - 2) where row < frame.row + frame.height {
                canvas.put(line, row: row, column: column, style: .dim)
                row += 1
            }
        }
        if let focusedIndex = fields.firstIndex(of: form.focus) {
            let field = form[form.focus]
            field.draw(on: canvas, row: inside.row + focusedIndex, column: inside.column + 2 + labelWidth + 1,
                       width: inside.width - 1 - (2 + labelWidth + 1), focused: true)
        }
    }

    static func label(_ field: ProviderForm.Field) -> String {
        switch field {
        case .tenant: "Tenant"
        case .prompt: "Prompt"
        case .loginHint: "Login hint"
        case .scopes: "Scopes"
        case .parameters: "Parameters"
        }
    }
}

/// The simulated provider's account chooser and consent, labelled as simulated throughout.
enum ConsentScreen {
    static func draw(_ consent: ConsentState, on canvas: any Canvas, in frame: Rect) {
        let column = frame.column + 1
        let name = FederatedProvider.displayName(consent.provider.providerID)
        canvas.put(" SIMULATED \(name.uppercased()) ", row: frame.row, column: column, style: .badge)
        canvas.put(TextWidth.truncate(" not the real \(name): test identities of the embedded backend", toCells: frame.width - 16 - name.count),
                   row: frame.row, column: column + 12 + name.count, style: .dim)
        let asks = switch consent.purpose {
        case .signIn, .signInToLink: "to sign you in"
        case .link: "to link your \(name) account"
        case .reauthenticate: "to confirm it's you"
        }
        var clientId = ""
        if case let .loaded(list) = consent.directory { clientId = " (client id \(list.clientID))" }
        canvas.put(TextWidth.truncate("AuthDeck\(clientId) asks \(asks).", toCells: frame.width - 2), row: frame.row + 1, column: column, style: .normal)
        canvas.put(TextWidth.truncate("Scopes:     \(consent.provider.scopes.isEmpty ? "(none)" : consent.provider.scopes.joined(separator: " "))", toCells: frame.width - 2),
                   row: frame.row + 2, column: column, style: .normal)
        let parameters = consent.provider.customParameters.keys.sorted().map { "\($0)=\(consent.provider.customParameters[$0] ?? "")" }
        canvas.put(TextWidth.truncate("Parameters: \(parameters.isEmpty ? "(none)" : parameters.joined(separator: " "))", toCells: frame.width - 2),
                   row: frame.row + 3, column: column, style: .normal)

        switch consent.directory {
        case .loading:
            canvas.put("Asking the simulated provider for its accounts…", row: frame.row + 5, column: column, style: .dim)
            return
        case let .unavailable(reason):
            for (index, line) in TextWidth.wrap(reason, width: frame.width - 2).enumerated() {
                canvas.put(line, row: frame.row + 5 + index, column: column, style: .error)
            }
            return
        case .loaded:
            break
        }
        let identities = consent.identities
        let reserved = consent.isApple ? 2 : 1
        let listHeight = min(identities.count + 1, max(frame.height - 7 - reserved, 1))
        let box = Box.draw(on: canvas, frame: Rect(row: frame.row + 5, column: frame.column, width: frame.width, height: listHeight + 2),
                           title: "Choose an account (\(identities.count))", style: .accent)
        let items = identities.map { ListView.Item(line($0, width: box.width - 2)) } + [ListView.Item("+ Add a new identity")]
        ListView(items: items, selection: consent.selection).draw(on: canvas, in: box, focused: consent.newIdentity == nil)
        canvas.placeCursor(row: box.row + min(consent.selection, listHeight - 1), column: box.column)
        let row = box.row + box.height + 1
        if consent.isApple {
            let text: String
            if let identity = consent.selectedIdentity, identity.authorized {
                text = "Email: \(identity.emailHidden == true ? "hidden" : "shared") (chosen at the first consent; Apple keeps it). Name: not shared again."
            } else {
                text = "[\(consent.hideEmail ? "x" : " ")] Hide my email (h): Apple gives a private relay address. The name is shared only now."
            }
            canvas.put(TextWidth.truncate(text, toCells: frame.width - 2), row: row, column: column, style: .normal)
        }
        if let form = consent.newIdentity {
            drawNewIdentity(form, provider: name, on: canvas)
        }
    }

    static func line(_ identity: SimulatedIdentityProviders.Identity, width: Int) -> String {
        var parts = [TextWidth.pad(identity.displayName ?? "—", toCells: 18), TextWidth.pad(identity.email ?? "—", toCells: 26)]
        var notes: [String] = []
        if let type = identity.accountType { notes.append(type) }
        if identity.authorized { notes.append("consented before") }
        parts.append(notes.joined(separator: " · "))
        return TextWidth.truncate(parts.joined(separator: " "), toCells: width)
    }

    static func drawNewIdentity(_ form: NewIdentityForm, provider: String, on canvas: any Canvas) {
        let frame = Rect.centered(width: 60, height: 6, in: canvas.size)
        let inside = Box.draw(on: canvas, frame: frame, title: "New simulated \(provider) identity", style: .accent)
        form.name.drawRow(on: canvas, row: inside.row + 1, column: inside.column, width: inside.width - 1,
                          label: "Name", labelWidth: 6, focused: !form.focusOnEmail)
        form.email.drawRow(on: canvas, row: inside.row + 2, column: inside.column, width: inside.width - 1,
                           label: "Email", labelWidth: 6, focused: form.focusOnEmail)
        let focused = form.focusOnEmail ? form.email : form.name
        focused.draw(on: canvas, row: inside.row + (form.focusOnEmail ? 2 : 1), column: inside.column + 9, width: inside.width - 10, focused: true)
    }
}

/// The link conflict: both accounts side by side, and the choice.
enum ConflictScreen {
    static func draw(_ conflict: ConflictState, on canvas: any Canvas, in frame: Rect) {
        let column = frame.column + 1
        let name = FederatedProvider.displayName(conflict.providerID)
        canvas.put(TextWidth.truncate("This \(name) identity already belongs to another account", toCells: frame.width - 2),
                   row: frame.row, column: column, style: .title)
        canvas.put(TextWidth.truncate("credentialAlreadyInUse (17025): the backend sent an updated credential; no second trip to \(name).", toCells: frame.width - 2),
                   row: frame.row + 1, column: column, style: .dim)
        let half = (frame.width - 1) / 2
        let height = max(6, frame.height - 7)
        let left = Box.draw(on: canvas, frame: Rect(row: frame.row + 3, column: frame.column, width: half, height: height),
                            title: "This account", style: .dim)
        drawAccount(conflict.previous, on: canvas, in: left)
        let right = Box.draw(on: canvas, frame: Rect(row: frame.row + 3, column: frame.column + half + 1, width: frame.width - half - 1, height: height),
                             title: "The account that has \(name)", style: .accent)
        switch conflict.other {
        case .loading:
            canvas.put("Looking it up…", row: right.row, column: right.column + 1, style: .dim)
        case let .loaded(snapshot):
            drawAccount(snapshot, on: canvas, in: right)
        case let .needsSecondFactor(hints):
            var lines: [(String, Style)] = [("It has 2-step verification:", .normal)]
            lines += hints.map { hint in
                switch hint {
                case let .phone(info): ("  SMS  \(info.phoneNumber) \(info.displayName ?? "")", .normal)
                case let .totp(info): ("  TOTP \(info.displayName ?? "authenticator app")", .normal)
                }
            }
            lines += TextWidth.wrap("Its uid, email and cart show once its second factor passes; switching asks for it.",
                                    width: right.width - 2).map { ($0, .dim) }
            for (index, line) in lines.prefix(right.height).enumerated() {
                canvas.put(TextWidth.truncate(line.0, toCells: right.width - 2), row: right.row + index, column: right.column + 1, style: line.1)
            }
        case let .failed(error):
            for (index, line) in TextWidth.wrap("Could not sign in to it: \(error.description)", width: right.width - 2).prefix(right.height).enumerated() {
                canvas.put(line, row: right.row + index, column: right.column + 1, style: .error)
            }
        }
        let options = conflict.options
        var buttonColumn = column
        let buttonRow = frame.row + 3 + height + 1
        for (index, option) in options.enumerated() {
            let text = label(option, previousIsAnonymous: conflict.previous.isAnonymous)
            let button = index == conflict.choice ? "[>\(text)<]" : "[ \(text) ]"
            canvas.put(button, row: buttonRow, column: buttonColumn, style: index == conflict.choice ? Style(.selected, bold: true, reverse: true) : .normal)
            if index == conflict.choice { canvas.placeCursor(row: buttonRow, column: buttonColumn + 2) }
            buttonColumn += TextWidth.cells(button) + 1
        }
        canvas.put(TextWidth.truncate(explanation(conflict.choiceOption, conflict: conflict), toCells: frame.width - 2),
                   row: buttonRow + 1, column: column, style: .dim)
    }

    static func label(_ option: ConflictState.Option, previousIsAnonymous: Bool) -> String {
        switch option {
        case .cancel: "Cancel"
        case .mergeAndKeep: "Switch + merge cart"
        case .mergeAndDelete: previousIsAnonymous ? "Switch + merge cart" : "Switch + merge + delete this"
        }
    }

    static func explanation(_ option: ConflictState.Option, conflict: ConflictState) -> String {
        let needsSecondFactor = if case .needsSecondFactor = conflict.other { true } else { false }
        return switch option {
        case .cancel: "Stay on this account; it keeps its cart, the other keeps the provider."
        case .mergeAndKeep where needsSecondFactor: "Its second factor first, then this cart moves there; this one stays."
        case .mergeAndKeep: "Sign in to the other account, add this cart to it; this account stays as it is."
        case .mergeAndDelete where needsSecondFactor: "Its second factor first, then this cart moves there; this one is deleted."
        case .mergeAndDelete where conflict.previous.isAnonymous:
            "Sign in to the other account, add this cart to it, then delete this anonymous account."
        case .mergeAndDelete: "Sign in to the other account, add this cart to it, then delete this account."
        }
    }

    static func items(_ count: Int) -> String { count == 1 ? "1 item" : "\(count) items" }

    static func drawAccount(_ account: AccountSnapshot, on canvas: any Canvas, in box: Rect) {
        let width = box.width - 2
        var lines: [(String, Style)] = [
            ("uid \(account.uid)", .normal),
            (account.isAnonymous ? "ANONYMOUS" : (account.email ?? "no email"), account.isAnonymous ? .badge : .normal),
            ("providers: \(account.providerIDs.isEmpty ? "none" : account.providerIDs.joined(separator: ", "))", .normal),
            ("cart: \(Self.items(account.cart.reduce(0) { $0 + $1.quantity }))", .dim),
        ]
        lines += account.cart.map { ("  \($0.quantity) × \($0.name)", .normal) }
        for (index, line) in lines.prefix(box.height).enumerated() {
            canvas.put(TextWidth.truncate(line.0, toCells: width), row: box.row + index, column: box.column + 1, style: line.1)
        }
    }
}

/// accountExistsWithDifferentCredential / emailAlreadyInUse: sign in to that account, then link.
enum PendingLinkScreen {
    static func draw(_ state: PendingLinkState, on canvas: any Canvas, in frame: Rect) {
        let column = frame.column + 1
        let name = FederatedProvider.displayName(state.pending.providerID)
        let email = state.pending.email ?? "this email"
        let (title, text) = switch state.pending.reason {
        case .accountExists:
            ("An account already uses \(email)",
             "\(name) does not vouch for \(email), so Firebase will not join it to that account by itself (accountExistsWithDifferentCredential). Sign in to that account the way it knows; \(name) is then linked to it without asking \(name) again.")
        case .emailInUse:
            ("\(name)'s email belongs to another account",
             "The email \(email) of this \(name) identity belongs to another account (emailAlreadyInUse). Sign in to that account; \(name) is then linked to it."
                + (state.pending.previousAnonymousUid == nil ? "" : " This anonymous account's cart comes along."))
        }
        canvas.put(TextWidth.truncate(title, toCells: frame.width - 2), row: frame.row, column: column, style: .title)
        let lines = TextWidth.wrap(text, width: frame.width - 2)
        for (index, line) in lines.enumerated() {
            canvas.put(line, row: frame.row + 1 + index, column: column, style: .normal)
        }
        let methods = state.methods
        let box = Box.draw(on: canvas, frame: Rect(row: frame.row + 2 + lines.count, column: frame.column, width: min(frame.width, 60), height: methods.count + 2),
                           title: "Sign in to that account with", style: .accent)
        ListView(items: methods.map { ListView.Item(FederatedProvider.displayName($0)) }, selection: state.selection).draw(on: canvas, in: box)
        canvas.placeCursor(row: box.row + state.selection, column: box.column)
    }
}

/// The inspector's lines about the last consent: the nonce, its hash, and the provider's claims.
enum FederatedInspector {
    static func lines(_ authorization: ProviderAuthorization, additionalUserInfo: AdditionalUserInfo?, width: Int) -> [(String, Style)] {
        var lines: [(String, Style)] = [("Last consent at the simulated \(authorization.credential.provider):", .title)]
        if let raw = authorization.rawNonce, let hash = authorization.hashedNonce {
            let claim = authorization.idTokenClaims?["nonce"]?.stringValue
            lines.append(("raw nonce  \(raw)", .accent))
            lines.append(("SHA-256    \(hash)", .accent))
            lines.append((claim == hash ? "the ID token's nonce claim matches the SHA-256" : "the ID token's nonce claim DOES NOT MATCH: \(claim ?? "none")", .accent))
        } else {
            lines.append(("no nonce: an access token has nothing to bind it to", .dim))
        }
        if !authorization.grantedScopes.isEmpty {
            lines.append(("granted scopes: \(authorization.grantedScopes.joined(separator: " "))", .normal))
        }
        lines = lines.map { (TextWidth.truncate($0.0, toCells: width), $0.1) }
        if let claims = authorization.idTokenClaims {
            lines.append(("Provider ID token claims:", .title))
            for key in claims.keys.sorted() {
                lines += TextWidth.wrap("\(key): \(claims[key]?.compactText ?? "")", width: width).map { ($0, .accent) }
            }
        }
        if let info = additionalUserInfo, let profile = info.profile, info.providerID == authorization.credential.provider {
            lines.append(("Additional user info (\(info.providerID ?? ""), isNewUser \(info.isNewUser)):", .title))
            for key in profile.keys.sorted() {
                lines += TextWidth.wrap("\(key): \(profile[key]?.compactText ?? "")", width: width).map { ($0, .normal) }
            }
        }
        return lines
    }
}

extension BackendExchange {
    /// The calls whose story the last consent tells: the provider's answer and the sign-in with it.
    var isFederatedStep: Bool {
        path.hasSuffix("simulatedIdp:authorize") || path.hasSuffix("accounts:signInWithIdp")
    }
}
