import AuthClient
import Foundation
import TerminalUI

/// The request to a provider before it is sent (Firebase's `OAuthProvider`): scopes and custom
/// parameters; for Microsoft also `tenant`, `prompt` and `login_hint`.
public struct ProviderFormFeature: ConsoleFeature {
    /// What the screen's keys mean.
    public enum Action: Equatable, Sendable, FormAction {
        case submit, back, nextField, previousField
    }

    /// It starts no work of its own: what it runs, the console answers.
    typealias Event = Never

    public enum Field: Equatable, Sendable { case tenant, prompt, loginHint, scopes, parameters }

    public var provider: FederatedProvider
    public var purpose: FederatedPurpose
    public var tenant = TextField(text: "common", maxLength: 100)
    public var prompt = TextField(maxLength: 20)
    public var loginHint = TextField(maxLength: 254)
    public var scopes: TextField
    public var parameters = TextField(maxLength: 300)
    public var focus: Field

    public init(provider: FederatedProvider, purpose: FederatedPurpose) {
        self.provider = provider
        self.purpose = purpose
        scopes = TextField(text: provider.defaultScopes.joined(separator: " "), maxLength: 300)
        focus = provider == .microsoft ? .tenant : .scopes
    }

    var fields: [Field] {
        provider == .microsoft ? [.tenant, .prompt, .loginHint, .scopes, .parameters] : [.scopes, .parameters]
    }

    subscript(field: Field) -> TextField {
        get {
            switch field {
            case .tenant: tenant
            case .prompt: prompt
            case .loginHint: loginHint
            case .scopes: scopes
            case .parameters: parameters
            }
        }
        set {
            switch field {
            case .tenant: tenant = newValue
            case .prompt: prompt = newValue
            case .loginHint: loginHint = newValue
            case .scopes: scopes = newValue
            case .parameters: parameters = newValue
            }
        }
    }

    mutating func moveFocus(by step: Int) {
        let all = fields
        let index = all.firstIndex(of: focus) ?? 0
        focus = all[(index + step + all.count) % all.count]
    }

    /// The provider the form describes, or what is wrong with it; nothing is sent before this passes.
    func oauthProvider() -> Result<OAuthProvider, FormProblem> {
        var parameters: [String: String] = [:]
        for pair in self.parameters.text.split(whereSeparator: \.isWhitespace) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2, !parts[0].isEmpty else {
                return .failure(FormProblem(field: .parameters, message: "Write custom parameters as key=value, separated by spaces ('\(pair)' is not)."))
            }
            parameters[String(parts[0])] = String(parts[1])
        }
        if provider == .microsoft {
            for (name, field) in [("tenant", tenant), ("prompt", prompt), ("login_hint", loginHint)] {
                let value = field.text.trimmingCharacters(in: .whitespaces)
                if !value.isEmpty { parameters[name] = value }
            }
        }
        let scopes = scopes.text.split(whereSeparator: \.isWhitespace).map(String.init)
        do {
            return .success(try OAuthProvider(providerID: provider.id, scopes: scopes, customParameters: parameters).validated())
        } catch {
            return .failure(FormProblem(field: .parameters, message: error.description))
        }
    }

    struct FormProblem: Error, Equatable {
        var field: Field
        var message: String
    }

    /// Back from the consent screen, the form shows what was asked, each field's cursor at its
    /// end as if just typed (setting `text` would leave it where it was, often at 0).
    mutating func restore(from provider: OAuthProvider) {
        var parameters = provider.customParameters
        if self.provider == .microsoft {
            tenant = Self.filled(tenant, with: parameters.removeValue(forKey: "tenant") ?? "")
            prompt = Self.filled(prompt, with: parameters.removeValue(forKey: "prompt") ?? "")
            loginHint = Self.filled(loginHint, with: parameters.removeValue(forKey: "login_hint") ?? "")
        }
        scopes = Self.filled(scopes, with: provider.scopes.joined(separator: " "))
        self.parameters = Self.filled(self.parameters, with: parameters.keys.sorted().map { "\($0)=\(parameters[$0] ?? "")" }.joined(separator: " "))
    }

    private static func filled(_ field: TextField, with text: String) -> TextField {
        TextField(text: text, maxLength: field.maxLength, isSecure: field.isSecure)
    }

    var title: String { "\(FederatedProvider.displayName(provider.id)) request" }
    var needsUser: Bool { purpose.needsUser }
    var editsText: Bool { true }
    var screen: Screen { .providerForm(self) }

    func bindings(in context: ConsoleContext) -> [KeyBinding<KeyIntent<Action>>] {
        KeyBinding.formKeys(enter: focus == fields.last ? .send("send request") : .next)
    }

    mutating func perform(_ action: Action, in context: ConsoleContext) -> [FlowStep] {
        switch action {
        case .nextField, .previousField:
            moveFocus(by: action == .nextField ? 1 : -1)
        case .back:
            var steps: [FlowStep] = [.banner(nil), .show(screenBefore(in: context))]
            if case let .reauthenticate(operation) = purpose {
                steps.append(.banner(Banner(.info, "Cancelled: did not \(operation.title).")))
            }
            return steps
        case .submit:
            // enter goes to the next field, and sends the request from the last.
            if focus != fields.last {
                moveFocus(by: 1)
                return []
            }
            switch oauthProvider() {
            case let .success(provider):
                return [.banner(nil)] + ConsentFeature.open(provider, purpose: purpose)
            case let .failure(problem):
                focus = problem.field
                return [.banner(Banner(.error, problem.message))]
            }
        }
        return []
    }

    /// Where esc leads, by what the form was for.
    func screenBefore(in context: ConsoleContext) -> Screen {
        switch purpose {
        case .signIn:
            let index = SignInMethod.allCases.firstIndex { $0.federated == provider } ?? 0
            return .signInMethods(SignInMethodsFeature(selection: index))
        case .link:
            guard let user = context.user else { return .signInMethods(SignInMethodsFeature(selection: 0)) }
            let index = LinkingFeature.rows(user).firstIndex(of: provider.id) ?? 0
            return .linking(LinkingFeature(selection: index))
        case .reauthenticate:
            return .account(AccountFeature())
        case let .signInToLink(pending):
            var state = PendingLinkFeature(pending: pending)
            state.selection = state.methods.firstIndex(of: provider.id) ?? 0
            return .pendingLink(state)
        }
    }

    mutating func edit(_ key: Key) {
        var field = self[focus]
        _ = field.handle(key)
        self[focus] = field
    }

    func draw(in context: ConsoleContext, on canvas: any Canvas, frame: Rect) {
        ProviderFormScreen.draw(self, on: canvas, in: frame)
    }
}
