import AuthClient
import Foundation
import TerminalUI

/// The simulated provider's consent screen: pick or add an identity, see what is asked, consent or cancel.
public struct ConsentFeature: ConsoleFeature {
    /// What the screen's keys mean.
    public enum Action: Equatable, Sendable, ListAction, FormAction {
        case up, down, choose, addIdentity, toggleHideEmail, back, submit, nextField, previousField
    }

    /// Work the screen asks for; `EffectRunner` performs it (`EffectRunner+Consent` beside this file).
    public enum Effect: Equatable, Sendable {
        case loadProviderDirectory(providerID: String)
        case addSimulatedIdentity(providerID: String, name: String, email: String)
        /// Consent at the simulated provider; the runner draws the nonce (nothing random in the model).
        case authorize(OAuthProvider, subject: String, hideEmail: Bool?)
    }

    /// The outcome of an `Effect`.
    public enum Event: FeatureResult {
        case providerDirectoryLoaded(providerID: String, Result<SimulatedIdentityProviders.Directory, AuthError>)
        case simulatedIdentityAdded(providerID: String, Result<SimulatedIdentityProviders.Identity, AuthError>)
        case providerAuthorized(Result<ProviderAuthorization, AuthError>)
    }

    public enum Directory: Equatable, Sendable {
        case loading
        case loaded(SimulatedIdentityProviders.Directory)
        /// The backend has no simulated providers (production, the Firebase Auth Emulator).
        case unavailable(String)
    }

    public var provider: OAuthProvider
    public var purpose: FederatedPurpose
    public var directory: Directory = .loading
    /// Over the identities, then the "add a new identity" row.
    public var selection = 0
    /// Apple's Hide My Email, asked on the first authorization only.
    public var hideEmail = false
    public var newIdentity: NewIdentityForm?

    public init(provider: OAuthProvider, purpose: FederatedPurpose) {
        self.provider = provider
        self.purpose = purpose
    }

    var identities: [SimulatedIdentityProviders.Identity] {
        if case let .loaded(list) = directory { return list.identities }
        return []
    }

    var selectedIdentity: SimulatedIdentityProviders.Identity? {
        identities.indices.contains(selection) ? identities[selection] : nil
    }

    var isApple: Bool { provider.providerID == FederatedProvider.apple.id }

    /// The choice is Apple's only on a first authorization (a new identity's included);
    /// afterwards the first one stands.
    var canChooseHideEmail: Bool { isApple && selectedIdentity?.authorized != true }

    var title: String { "SIMULATED \(FederatedProvider.displayName(provider.providerID))" }
    var needsUser: Bool { purpose.needsUser }
    var editsText: Bool { newIdentity != nil }
    var screen: Screen { .consent(self) }

    var pendingLink: PendingLink? {
        if case let .signInToLink(pending) = purpose { return pending }
        return nil
    }

    /// The consent screen for `provider`, busy while its accounts load: a key pressed meanwhile (n for
    /// a new identity) waits for the list instead of meeting a screen that takes none yet.
    static func open(_ provider: OAuthProvider, purpose: FederatedPurpose) -> [FlowStep] {
        [.show(.consent(ConsentFeature(provider: provider, purpose: purpose))),
         .run(.consent(.loadProviderDirectory(providerID: provider.providerID)),
              busy: "Asking the simulated \(FederatedProvider.displayName(provider.providerID)) for its accounts…")]
    }

    func bindings(in context: ConsoleContext) -> [KeyBinding<KeyIntent<Action>>] {
        if let form = newIdentity {
            // enter on the name moves to the email until the email is one.
            let enter: FormFields.Enter = form.focusOnEmail || form.email.text.contains("@") ? .send("add") : .next
            return [.formEnter(enter, .submit), KeyBinding([.tab, .down, .backTab, .up], "tab", "next", .nextField),
                    KeyBinding([.escape], "esc", "back", .back), .helpInForm, .inspectorInForm]
        }
        guard case .loaded = directory else { return [KeyBinding([.escape], "esc", "cancel", .back), .help, .inspector] }
        var keys: [KeyBinding<KeyIntent<Action>>] = [.moveUp(), .moveDown()]
        keys.append(KeyBinding([.enter], "enter", selectedIdentity == nil ? "add identity" : "consent", .choose))
        keys.append(.char("n", "new identity", .addIdentity))
        if canChooseHideEmail { keys.append(.char("h", "hide email", .toggleHideEmail)) }
        return keys + [KeyBinding([.escape], "esc", "cancel", .back), .help, .inspector]
    }

    mutating func perform(_ action: Action, in context: ConsoleContext) -> [FlowStep] {
        if let form = newIdentity { return performOnNewIdentity(form, action) }
        let rowCount = identities.count + 1
        switch action {
        case .up: selection = max(selection - 1, 0)
        case .down: selection = min(selection + 1, rowCount - 1)
        case .toggleHideEmail where canChooseHideEmail:
            hideEmail.toggle()
        case .addIdentity:
            newIdentity = hintedNewIdentity
            return [.banner(nil)]
        case .choose:
            guard case .loaded = directory else { return [] }
            guard let identity = selectedIdentity else {
                newIdentity = hintedNewIdentity
                return [.banner(nil)]
            }
            let firstAppleConsent = isApple && !identity.authorized
            return [.banner(nil), .run(.consent(.authorize(provider, subject: identity.subject, hideEmail: firstAppleConsent ? hideEmail : nil)),
                                       busy: "Waiting for the simulated \(FederatedProvider.displayName(provider.providerID))…")]
        case .back:
            guard let federated = FederatedProvider.named(provider.providerID) else { return [] }
            var form = ProviderFormFeature(provider: federated, purpose: purpose)
            form.restore(from: provider)
            return [.show(.providerForm(form)), .banner(Banner(.info, "Cancelled at the provider: nothing was sent to the backend."))]
        case .nextField, .previousField, .submit, .toggleHideEmail:
            break
        }
        return []
    }

    private mutating func performOnNewIdentity(_ form: NewIdentityForm, _ action: Action) -> [FlowStep] {
        var form = form
        defer { if newIdentity != nil { newIdentity = form } }
        switch action {
        case .nextField, .previousField:
            form.focusOnEmail.toggle()
        case .back:
            newIdentity = nil
        case .submit:
            let name = form.name.text.trimmingCharacters(in: .whitespaces)
            let email = form.email.text.trimmingCharacters(in: .whitespaces)
            guard !name.isEmpty else {
                form.focusOnEmail = false
                return [.banner(Banner(.error, "Give the new identity a name."))]
            }
            guard email.contains("@") else {
                guard form.focusOnEmail else {
                    form.focusOnEmail = true
                    return []
                }
                return [.banner(Banner(.error, "Give the new identity an email address."))]
            }
            return [.banner(nil), .run(.consent(.addSimulatedIdentity(providerID: provider.providerID, name: name, email: email)), busy: "Adding the identity…")]
        case .up, .down, .choose, .addIdentity, .toggleHideEmail:
            break
        }
        return []
    }

    mutating func edit(_ key: Key) {
        guard var identity = newIdentity else { return }
        if identity.focusOnEmail { _ = identity.email.handle(key) } else { _ = identity.name.handle(key) }
        newIdentity = identity
    }

    mutating func handle(_ event: Event, in context: ConsoleContext) -> [FlowStep] {
        switch event {
        case let .providerDirectoryLoaded(providerID, result):
            guard provider.providerID == providerID else { return [] }
            switch result {
            case let .success(list):
                directory = .loaded(list)
                // Microsoft's login_hint picks the account, as its account chooser does; an unknown one
                // leads to a new identity with that email filled in.
                let hint = loginHint
                selection = list.identities.firstIndex { hint != nil && $0.email == hint } ?? (hint == nil ? 0 : list.identities.count)
            case let .failure(error):
                directory = .unavailable(Self.unavailableReason(error))
            }
            return []
        case let .simulatedIdentityAdded(providerID, result):
            guard provider.providerID == providerID, case var .loaded(list) = directory else { return [] }
            switch result {
            case let .success(identity):
                list.identities.append(identity)
                directory = .loaded(list)
                selection = list.identities.count - 1
                newIdentity = nil
                return [.banner(Banner(.success, "Added \(identity.displayName ?? identity.subject) to the simulated \(FederatedProvider.displayName(providerID))."))]
            case let .failure(error):
                return [.banner(.error(error))]
            }
        case let .providerAuthorized(result):
            switch result {
            case let .success(authorization):
                return use(authorization.credential)
            case let .failure(error):
                return [.banner(.error(error))]
            }
        }
    }

    /// A fresh provider credential goes where the consent was asked for.
    private func use(_ credential: AuthCredential) -> [FlowStep] {
        let name = FederatedProvider.displayName(credential.provider)
        switch purpose {
        case .signIn, .signInToLink:
            return [.run(.signIn(credential), busy: "Signing in with \(name)…")]
        case .link:
            return [.run(.link(credential), busy: "Linking \(name)…")]
        case let .reauthenticate(operation):
            return [.run(.reauthenticate(credential, then: operation), busy: "Confirming it's you with \(name)…")]
        }
    }

    private static func unavailableReason(_ error: AuthError) -> String {
        if error.serverMessage?.hasPrefix("NOT_FOUND") == true {
            return "This backend has no simulated providers. They come with the embedded backend and `authdeck serve`; "
                + "the Firebase Auth Emulator's provider widget works only in a browser, and production needs the real provider in an app."
        }
        return "The simulated provider could not be reached: \(error.description)"
    }

    func draw(in context: ConsoleContext, on canvas: any Canvas, frame: Rect) {
        ConsentScreen.draw(self, on: canvas, in: frame)
    }
}

extension ConsentFeature {
    var loginHint: String? { provider.customParameters["login_hint"]?.lowercased() }

    /// A new identity's form, its email the login hint when the provider was given one.
    var hintedNewIdentity: NewIdentityForm {
        var form = NewIdentityForm()
        if let hint = loginHint { form.email = TextField(text: hint, maxLength: 254) }
        return form
    }
}

public struct NewIdentityForm: Equatable, Sendable {
    public var name = TextField(maxLength: 100)
    public var email = TextField(maxLength: 254)
    public var focusOnEmail = false

    public init() {}
}
