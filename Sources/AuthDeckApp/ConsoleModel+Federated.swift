import AppData
import AuthClient
import Foundation
import TerminalUI

/// The federated flows: provider form → simulated consent → sign-in, link or reauthentication;
/// the linking screen; the link conflict and its merge; the pending link after
/// accountExistsWithDifferentCredential or emailAlreadyInUse. Pure like the rest of the model.
extension ConsoleModel {
    // MARK: Results of effects

    mutating func handleFederated(_ event: ConsoleEvent) -> [ConsoleEffect] {
        switch event {
        case let .providerDirectoryLoaded(providerID, result):
            guard case var .consent(consent) = screen, consent.provider.providerID == providerID else { return [] }
            switch result {
            case let .success(list):
                consent.directory = .loaded(list)
                // Microsoft's login_hint picks the account, as its account chooser does.
                let hint = consent.provider.customParameters["login_hint"]?.lowercased()
                consent.selection = list.identities.firstIndex { hint != nil && $0.email == hint } ?? 0
            case let .failure(error):
                consent.directory = .unavailable(Self.unavailableReason(error))
            }
            screen = .consent(consent)
            return []
        case let .simulatedIdentityAdded(providerID, result):
            busy = nil
            guard case var .consent(consent) = screen, consent.provider.providerID == providerID,
                  case var .loaded(list) = consent.directory else { return [] }
            switch result {
            case let .success(identity):
                list.identities.append(identity)
                consent.directory = .loaded(list)
                consent.selection = list.identities.count - 1
                consent.newIdentity = nil
                banner = Banner(.success, "Added \(identity.displayName ?? identity.subject) to the simulated \(FederatedProvider.displayName(providerID)).")
            case let .failure(error):
                banner = .error(error)
            }
            screen = .consent(consent)
            return []
        case let .providerAuthorized(result):
            guard case let .consent(consent) = screen else {
                busy = nil
                return []
            }
            switch result {
            case let .success(authorization):
                lastAuthorization = authorization
                return use(authorization.credential, for: consent.purpose)
            case let .failure(error):
                busy = nil
                banner = .error(error)
                return []
            }
        case let .conflictAccountLoaded(result):
            guard case var .conflict(conflict) = screen else { return [] }
            switch result {
            case let .success(snapshot): conflict.other = .loaded(snapshot)
            case let .failure(error):
                conflict.other = error.multiFactorChallenge.map { .needsSecondFactor($0.hints) } ?? .failed(error)
            }
            conflict.choice = 0
            screen = .conflict(conflict)
            return []
        case let .mergeFinished(result):
            busy = nil
            guard case let .conflict(conflict) = screen else { return [] }
            switch result {
            case let .success(outcome):
                return finishMerge(outcome, after: conflict)
            case let .failure(error):
                // The other account has 2-step verification: its second factor, then the merge.
                if let challenge = error.multiFactorChallenge { return challengeSecondFactor(challenge, purpose: .mergeAfterConflict(conflict)) }
                screen = user == nil ? .signInMethods(selection: 0) : .account(AccountFocus())
                banner = .error(error)
                return user.map { [.loadCart(uid: $0.uid)] } ?? []
            }
        default:
            return []
        }
    }

    /// The merge is done: the console is on the other account, with the previous one's cart.
    mutating func finishMerge(_ outcome: MergeOutcome, after conflict: ConflictState) -> [ConsoleEffect] {
        adopt(outcome.result.user)
        screen = .account(AccountFocus())
        let previous = conflict.previous.uid
        let fate = switch outcome.deletionFailure {
        case nil where conflict.choiceOption == .mergeAndKeep: "\(previous) was kept."
        case nil: "\(previous) was deleted."
        case let failure?:
            "\(previous) could not be deleted (\(failure.message)) and was kept with an empty cart"
                + (conflict.previous.isAnonymous ? "; anonymous clean-up removes it after 30 days." : ".")
        }
        banner = Banner(outcome.deletionFailure == nil ? .success : .info,
                        "Signed in to the account that has \(FederatedProvider.displayName(conflict.providerID)); the cart of \(previous) was merged into it. \(fate)")
        return [.loadCart(uid: outcome.result.user.uid)]
    }

    /// Only a provider's answer has a profile; a password sign-in leaves the last one shown.
    mutating func remember(_ info: AdditionalUserInfo?) {
        if let info, info.profile != nil { lastAdditionalUserInfo = info }
    }

    /// A fresh provider credential goes where the consent was asked for.
    private mutating func use(_ credential: AuthCredential, for purpose: FederatedPurpose) -> [ConsoleEffect] {
        let name = FederatedProvider.displayName(credential.provider)
        switch purpose {
        case .signIn, .signInToLink:
            busy = "Signing in with \(name)…"
            return [.signIn(credential)]
        case .link:
            busy = "Linking \(name)…"
            return [.link(credential)]
        case let .reauthenticate(operation):
            busy = "Confirming it's you with \(name)…"
            return [.reauthenticate(credential, then: operation)]
        }
    }

    /// After signing in to the account of a pending credential: link it, and bring the
    /// anonymous account's cart along.
    mutating func continuePendingLink(_ pending: PendingLink?, signedIn user: User) -> [ConsoleEffect] {
        guard let pending else { return [.loadCart(uid: user.uid)] }
        busy = "Linking \(FederatedProvider.displayName(pending.providerID))…"
        let cart: ConsoleEffect = pending.previousAnonymousUid.map { .mergeCart(from: $0, into: user.uid) } ?? .loadCart(uid: user.uid)
        return [cart, .link(pending.credential)]
    }

    /// accountExistsWithDifferentCredential: sign in to that account the way it knows, then link.
    mutating func routeSignInFailure(_ error: AuthError) -> [ConsoleEffect]? {
        guard error.code == .accountExistsWithDifferentCredential, let credential = error.updatedCredential else { return nil }
        screen = .pendingLink(PendingLinkState(pending: PendingLink(credential: credential, email: error.email, reason: .accountExists)))
        banner = nil
        return []
    }

    /// credentialAlreadyInUse → the conflict screen; emailAlreadyInUse with a provider → the pending link.
    mutating func routeLinkFailure(_ error: AuthError) -> [ConsoleEffect]? {
        guard let user, let credential = error.updatedCredential else { return nil }
        switch error.code {
        case .credentialAlreadyInUse:
            screen = .conflict(ConflictState(credential: credential, email: error.email, previous: AccountSnapshot(user: user, cart: cart)))
            banner = nil
            return [.inspectConflictAccount(credential)]
        case .emailAlreadyInUse:
            let pending = PendingLink(credential: credential, email: error.email, reason: .emailInUse,
                                      previousAnonymousUid: user.isAnonymous ? user.uid : nil)
            screen = .pendingLink(PendingLinkState(pending: pending))
            banner = nil
            return []
        default:
            return nil
        }
    }

    /// A stale sign-in of an account with providers: its one provider, or a choice.
    mutating func requireFederatedReauthentication(of user: User, for operation: SensitiveOperation) -> [ConsoleEffect]? {
        let methods = Self.reauthenticationMethods(of: user)
        guard methods.contains(where: { $0 != EmailAuthProvider.id }) else { return nil }
        if methods.count == 1, let provider = FederatedProvider.named(methods[0]) {
            banner = Banner(.info, "Your last sign-in was too long ago. Sign in with \(provider.name) again to \(operation.title); it then runs by itself.")
            screen = .providerForm(ProviderForm(provider: provider, purpose: .reauthenticate(operation)))
        } else {
            banner = Banner(.info, "Your last sign-in was too long ago. Choose how to confirm it's you; then \(operation.title) runs by itself.")
            screen = .reauthMethods(operation, selection: 0)
        }
        return []
    }

    static func reauthenticationMethods(of user: User) -> [String] {
        user.providerData.map(\.providerID).filter { $0 == EmailAuthProvider.id || FederatedProvider.named($0) != nil }
    }

    private static func unavailableReason(_ error: AuthError) -> String {
        if error.serverMessage?.hasPrefix("NOT_FOUND") == true {
            return "This backend has no simulated providers. They come with the embedded backend and `authdeck serve`; "
                + "the Firebase Auth Emulator's provider widget works only in a browser, and production needs the real provider in an app."
        }
        return "The simulated provider could not be reached: \(error.description)"
    }

    // MARK: Keys

    /// The keys of the federated screens, or nil for the other screens.
    func federatedBindings(formKeys: [KeyBinding]) -> [KeyBinding]? {
        switch screen {
        case let .linking(state):
            guard let user else { return [.back] }
            let rows = LinkingState.rows(user)
            let onLinked = state.selection < LinkingState.linked(user).count
            var keys: [KeyBinding] = [.moveUp, .moveDown]
            if !rows.isEmpty, !onLinked { keys.append(KeyBinding([.enter], "enter", "link", .choose)) }
            if onLinked { keys.append(.char("u", "unlink", .unlink)) }
            return keys + [.back, .help, .inspector]
        case .providerForm:
            return formKeys
        case let .consent(consent):
            if consent.newIdentity != nil {
                return [KeyBinding([.enter], "enter", "add", .submit), KeyBinding([.tab, .down, .backTab, .up], "tab", "next", .nextField),
                        KeyBinding([.escape], "esc", "back", .back), .helpInForm, .inspectorInForm]
            }
            guard case .loaded = consent.directory else { return [KeyBinding([.escape], "esc", "cancel", .back), .help, .inspector] }
            var keys: [KeyBinding] = [.moveUp, .moveDown]
            keys.append(KeyBinding([.enter], "enter", consent.selectedIdentity == nil ? "add identity" : "consent", .choose))
            keys.append(.char("n", "new identity", .addIdentity))
            if consent.canChooseHideEmail { keys.append(.char("h", "hide email", .toggleHideEmail)) }
            return keys + [KeyBinding([.escape], "esc", "cancel", .back), .help, .inspector]
        case .conflict:
            return [KeyBinding([.right, .tab], "←/→", "choose", .down), KeyBinding([.left, .backTab], "←", "previous", .up, inBar: false),
                    KeyBinding([.enter], "enter", "confirm choice", .choose), KeyBinding([.escape], "esc", "cancel", .cancel),
                    .help, .inspector]
        case .pendingLink, .reauthMethods:
            return [.moveUp, .moveDown, KeyBinding([.enter], "enter", "choose", .choose), KeyBinding([.escape], "esc", "cancel", .back),
                    .help, .inspector]
        default:
            return nil
        }
    }

    mutating func performOnFederatedScreen(_ intent: Intent) -> [ConsoleEffect] {
        switch screen {
        case let .linking(state): performOnLinking(state, intent)
        case let .providerForm(form): performOnProviderForm(form, intent)
        case let .consent(consent): performOnConsent(consent, intent)
        case let .conflict(conflict): performOnConflict(conflict, intent)
        case let .pendingLink(state): performOnPendingLink(state, intent)
        case let .reauthMethods(operation, selection): performOnReauthMethods(operation, selection, intent)
        default: []
        }
    }

    private mutating func performOnLinking(_ state: LinkingState, _ intent: Intent) -> [ConsoleEffect] {
        guard let user else { return [] }
        let rows = LinkingState.rows(user)
        let linked = LinkingState.linked(user)
        var state = state
        switch intent {
        case .up: state.selection = max(state.selection - 1, 0)
        case .down: state.selection = min(state.selection + 1, max(rows.count - 1, 0))
        case .back:
            screen = .account(AccountFocus())
            return []
        case .choose:
            guard rows.indices.contains(state.selection), state.selection >= linked.count else { return [] }
            banner = nil
            let method = rows[state.selection]
            if let provider = FederatedProvider.named(method) {
                screen = .providerForm(ProviderForm(provider: provider, purpose: .link))
            } else {
                screen = .credentialForm(CredentialForm(purpose: .link))
            }
            return []
        case .unlink:
            guard linked.indices.contains(state.selection) else { return [] }
            let provider = linked[state.selection]
            guard linked.count > 1 else {
                banner = Banner(.error, "\(provider) is this account's only way to sign in; link another method before unlinking it.")
                return []
            }
            banner = nil
            screen = .confirm(Confirmation(action: .unlink(providerID: provider)))
            return []
        default:
            return []
        }
        screen = .linking(state)
        return []
    }

    private mutating func performOnProviderForm(_ form: ProviderForm, _ intent: Intent) -> [ConsoleEffect] {
        var form = form
        switch intent {
        case .nextField, .previousField:
            form.moveFocus(by: intent == .nextField ? 1 : -1)
            screen = .providerForm(form)
        case .back:
            banner = nil
            screen = Self.screenBefore(form.purpose, provider: form.provider, user: user)
            if case let .reauthenticate(operation) = form.purpose {
                banner = Banner(.info, "Cancelled: did not \(operation.title).")
            }
        case .submit:
            switch form.oauthProvider() {
            case let .success(provider):
                banner = nil
                screen = .consent(ConsentState(provider: provider, purpose: form.purpose))
                return [.loadProviderDirectory(providerID: provider.providerID)]
            case let .failure(problem):
                banner = Banner(.error, problem.message)
                form.focus = problem.field
                screen = .providerForm(form)
            }
        default:
            break
        }
        return []
    }

    /// Where esc leads from a provider's form, by what it was for.
    private static func screenBefore(_ purpose: FederatedPurpose, provider: FederatedProvider, user: User?) -> Screen {
        switch purpose {
        case .signIn:
            let index = SignInMethod.allCases.firstIndex { $0.federated == provider } ?? 0
            return .signInMethods(selection: index)
        case .link:
            guard let user else { return .signInMethods(selection: 0) }
            let index = LinkingState.rows(user).firstIndex(of: provider.id) ?? 0
            return .linking(LinkingState(selection: index))
        case .reauthenticate:
            return .account(AccountFocus())
        case let .signInToLink(pending):
            var state = PendingLinkState(pending: pending)
            state.selection = state.methods.firstIndex(of: provider.id) ?? 0
            return .pendingLink(state)
        }
    }

    private mutating func performOnConsent(_ consent: ConsentState, _ intent: Intent) -> [ConsoleEffect] {
        var consent = consent
        if var form = consent.newIdentity {
            switch intent {
            case .nextField, .previousField:
                form.focusOnEmail.toggle()
                consent.newIdentity = form
            case .back:
                consent.newIdentity = nil
            case .submit:
                let name = form.name.text.trimmingCharacters(in: .whitespaces)
                let email = form.email.text.trimmingCharacters(in: .whitespaces)
                guard !name.isEmpty else {
                    banner = Banner(.error, "Give the new identity a name.")
                    form.focusOnEmail = false
                    consent.newIdentity = form
                    break
                }
                guard email.contains("@") else {
                    if !form.focusOnEmail {
                        form.focusOnEmail = true
                    } else {
                        banner = Banner(.error, "Give the new identity an email address.")
                    }
                    consent.newIdentity = form
                    break
                }
                banner = nil
                busy = "Adding the identity…"
                screen = .consent(consent)
                return [.addSimulatedIdentity(providerID: consent.provider.providerID, name: name, email: email)]
            default:
                break
            }
            screen = .consent(consent)
            return []
        }
        let rowCount = consent.identities.count + 1
        switch intent {
        case .up: consent.selection = max(consent.selection - 1, 0)
        case .down: consent.selection = min(consent.selection + 1, rowCount - 1)
        case .toggleHideEmail where consent.canChooseHideEmail:
            consent.hideEmail.toggle()
        case .addIdentity:
            banner = nil
            consent.newIdentity = NewIdentityForm()
        case .choose:
            guard case .loaded = consent.directory else { return [] }
            guard let identity = consent.selectedIdentity else {
                banner = nil
                consent.newIdentity = NewIdentityForm()
                break
            }
            banner = nil
            busy = "Waiting for the simulated \(FederatedProvider.displayName(consent.provider.providerID))…"
            screen = .consent(consent)
            let firstAppleConsent = consent.isApple && !identity.authorized
            return [.authorize(consent.provider, subject: identity.subject, hideEmail: firstAppleConsent ? consent.hideEmail : nil)]
        case .back:
            guard let provider = FederatedProvider.named(consent.provider.providerID) else { return [] }
            var form = ProviderForm(provider: provider, purpose: consent.purpose)
            form.restore(from: consent.provider)
            screen = .providerForm(form)
            banner = Banner(.info, "Cancelled at the provider: nothing was sent to the backend.")
            return []
        default:
            break
        }
        screen = .consent(consent)
        return []
    }

    private mutating func performOnConflict(_ conflict: ConflictState, _ intent: Intent) -> [ConsoleEffect] {
        var conflict = conflict
        let options = conflict.options
        switch intent {
        case .up: conflict.choice = max(conflict.choice - 1, 0)
        case .down: conflict.choice = min(conflict.choice + 1, options.count - 1)
        case .cancel:
            return cancelConflict(conflict)
        case .choose:
            switch conflict.choiceOption {
            case .cancel:
                return cancelConflict(conflict)
            case .mergeAndKeep, .mergeAndDelete:
                banner = nil
                busy = "Merging into the account that has \(FederatedProvider.displayName(conflict.providerID))…"
                screen = .conflict(conflict)
                return [.mergeAccounts(conflict.mergePlan)]
            }
        default:
            break
        }
        screen = .conflict(conflict)
        return []
    }

    private mutating func cancelConflict(_ conflict: ConflictState) -> [ConsoleEffect] {
        banner = Banner(.info, "Cancelled: \(FederatedProvider.displayName(conflict.providerID)) stays with the other account; this one is unchanged.")
        screen = user == nil ? .signInMethods(selection: 0) : .account(AccountFocus())
        return []
    }

    private mutating func performOnPendingLink(_ state: PendingLinkState, _ intent: Intent) -> [ConsoleEffect] {
        var state = state
        switch intent {
        case .up: state.selection = max(state.selection - 1, 0)
        case .down: state.selection = min(state.selection + 1, state.methods.count - 1)
        case .back:
            banner = Banner(.info, "Cancelled: \(FederatedProvider.displayName(state.pending.providerID)) was not linked to any account.")
            screen = user == nil ? .signInMethods(selection: 0) : .account(AccountFocus())
            return []
        case .choose:
            banner = nil
            let method = state.methods[state.selection]
            if let provider = FederatedProvider.named(method) {
                screen = .providerForm(ProviderForm(provider: provider, purpose: .signInToLink(state.pending)))
            } else {
                screen = .credentialForm(CredentialForm(purpose: .signInToLink(state.pending), email: state.pending.email ?? ""))
            }
            return []
        default:
            break
        }
        screen = .pendingLink(state)
        return []
    }

    private mutating func performOnReauthMethods(_ operation: SensitiveOperation, _ selection: Int, _ intent: Intent) -> [ConsoleEffect] {
        guard let user else { return [] }
        let methods = Self.reauthenticationMethods(of: user)
        switch intent {
        case .up: screen = .reauthMethods(operation, selection: max(selection - 1, 0))
        case .down: screen = .reauthMethods(operation, selection: min(selection + 1, max(methods.count - 1, 0)))
        case .back:
            banner = Banner(.info, "Cancelled: did not \(operation.title).")
            screen = .account(AccountFocus())
        case .choose:
            guard methods.indices.contains(selection) else { return [] }
            banner = nil
            if let provider = FederatedProvider.named(methods[selection]) {
                screen = .providerForm(ProviderForm(provider: provider, purpose: .reauthenticate(operation)))
            } else {
                let email = user.providerData.first { $0.providerID == EmailAuthProvider.id }?.email ?? user.email ?? ""
                screen = .credentialForm(CredentialForm(purpose: .reauthenticate(operation), email: email))
            }
        default:
            break
        }
        return []
    }

    /// Typing into the federated forms.
    mutating func editFederatedField(with key: Key) {
        switch screen {
        case var .providerForm(form):
            var field = form[form.focus]
            _ = field.handle(key)
            form[form.focus] = field
            screen = .providerForm(form)
        case var .consent(consent):
            guard var identity = consent.newIdentity else { return }
            if identity.focusOnEmail { _ = identity.email.handle(key) } else { _ = identity.name.handle(key) }
            consent.newIdentity = identity
            screen = .consent(consent)
        default:
            break
        }
    }
}

extension ConflictState {
    var choiceOption: Option { options.indices.contains(choice) ? options[choice] : .cancel }

    /// What the chosen switch does.
    var mergePlan: MergePlan {
        MergePlan(credential: credential, previousUid: previous.uid, deletePrevious: choiceOption == .mergeAndDelete)
    }
}

extension ProviderForm {
    /// Back from the consent screen, the form shows what was asked.
    mutating func restore(from provider: OAuthProvider) {
        var parameters = provider.customParameters
        if self.provider == .microsoft {
            tenant.text = parameters.removeValue(forKey: "tenant") ?? ""
            prompt.text = parameters.removeValue(forKey: "prompt") ?? ""
            loginHint.text = parameters.removeValue(forKey: "login_hint") ?? ""
        }
        scopes.text = provider.scopes.joined(separator: " ")
        self.parameters.text = parameters.keys.sorted().map { "\($0)=\(parameters[$0] ?? "")" }.joined(separator: " ")
    }
}

extension Screen {
    /// The pending credential a sign-in on this screen is meant to link afterwards.
    var pendingLink: PendingLink? {
        switch self {
        case let .credentialForm(form):
            if case let .signInToLink(pending) = form.purpose { return pending }
        case let .consent(consent):
            if case let .signInToLink(pending) = consent.purpose { return pending }
        default:
            break
        }
        return nil
    }
}
