import AuthClient

/// What a feature reads when it says which teaching step its work or a result is: who is signed in,
/// the step shown now, and the last consent at a simulated provider (Apple's nonce and its hash).
struct TeachingInput: Sendable {
    var user: User?
    var shown: TeachingContext?
    var lastAuthorization: ProviderAuthorization?
}

/// The steps of a sign-in, a link or a reauthentication with a credential, for the session's work
/// and for the features that make a credential and know what it keeps to itself.
enum CredentialTeaching {
    /// The number, verification id and code on the screen that made a phone credential.
    struct PhoneCode: Sendable {
        var phone: String
        var verificationID: String
        var code: String
    }

    /// The provider's request as the consent screen holds it (tenant, prompt, scopes), and the identity chosen there.
    struct ProviderRequest: Sendable {
        var provider: OAuthProvider?
        var identityEmail: String?
    }

    static func signIn(_ credential: AuthCredential, phoneCode: PhoneCode? = nil, request: ProviderRequest = ProviderRequest(),
                       in input: TeachingInput) -> TeachingContext? {
        switch credential {
        case let .password(email, _): TeachingContext(.signInWithPassword(email: email))
        case let .emailLink(email, _): TeachingContext(.signInWithEmailLink(email: email))
        case .phone: phoneCode.map { TeachingContext(.phoneSignIn(verificationID: $0.verificationID, code: $0.code)) }
        case .oauth: provider(credential, for: .signIn, request: request, in: input)
        }
    }

    static func link(_ credential: AuthCredential, phoneCode: PhoneCode? = nil, request: ProviderRequest = ProviderRequest(),
                     in input: TeachingInput) -> TeachingContext? {
        let guest = input.user?.isAnonymous == true
        switch credential {
        case let .password(email, _):
            return TeachingContext(.upgradeWithPassword(email: email))
        case let .emailLink(email, _):
            return TeachingContext(.upgradeWithEmailLink(email: email))
        case .phone:
            guard guest, let code = phoneCode else { return TeachingContext(.linkProvider(providerID: PhoneAuthProvider.id)) }
            return TeachingContext(.upgradeWithPhone(phoneNumber: code.phone, verificationID: code.verificationID, code: code.code))
        case .oauth:
            return provider(credential, for: guest ? .upgrade : .link, request: request, in: input)
        }
    }

    static func reauthenticate(_ credential: AuthCredential, request: ProviderRequest = ProviderRequest(), in input: TeachingInput) -> TeachingContext? {
        if case let .password(email, _) = credential { return TeachingContext(.reauthenticateWithPassword(email: email)) }
        return provider(credential, for: .reauthenticate, request: request, in: input)
    }

    /// What a federated credential is for.
    enum FederatedUse {
        case signIn, upgrade, link, reauthenticate
    }

    /// A federated sign-in's steps in the order the app takes them: the credential (Apple's nonce, its
    /// hash and the credential; Google's or Facebook's token) or Microsoft's provider with this run's
    /// parameters, then the call it is for, then what follows it (Apple's name, Microsoft's Graph call).
    static func provider(_ credential: AuthCredential, for use: FederatedUse, request: ProviderRequest, in input: TeachingInput) -> TeachingContext? {
        guard case let .oauth(oauth) = credential else { return nil }
        let provider = request.provider
        let providerID = oauth.providerID
        let withCredential: TeachingStep = switch use {
        case .signIn: .signInWithCredential(providerID: providerID)
        case .upgrade: .upgradeWithProvider(providerID: providerID)
        case .link: .linkProvider(providerID: providerID)
        case .reauthenticate: .reauthenticateWithCredential(providerID: providerID)
        }
        switch providerID {
        case "apple.com":
            let nonce = oauth.rawNonce ?? input.lastAuthorization?.rawNonce ?? ""
            var steps: [TeachingStep] = [.appleNonce(nonce: nonce), .appleNonceHash(nonce: nonce, sha256: input.lastAuthorization?.hashedNonce ?? ""),
                                         .appleCredential(nonce: nonce), withCredential]
            let main = steps.count - 1
            if let name = oauth.fullName {
                steps.append(.appleFullName(givenName: name.givenName ?? "", familyName: name.familyName ?? ""))
            }
            return TeachingContext(steps: steps, selected: main)
        case "google.com":
            return TeachingContext(steps: [.googleCredential(email: request.identityEmail ?? ""), withCredential])
        case "facebook.com":
            return TeachingContext(steps: [.facebookCredential(scopes: provider?.scopes ?? []), withCredential])
        default:
            // Microsoft and any other OAuth provider: the provider object signs in, links or reauthenticates.
            let withProvider: TeachingStep = switch use {
            case .signIn: .signInWithProvider(providerID: providerID)
            case .upgrade, .link: .linkWithProvider(providerID: providerID)
            case .reauthenticate: .reauthenticateWithProvider(providerID: providerID)
            }
            guard providerID == "microsoft.com" else { return TeachingContext(withProvider) }
            var steps: [TeachingStep] = [.microsoftProvider(parameters: teachingParameters(provider?.customParameters ?? [:]),
                                                            scopes: provider?.scopes ?? []),
                                         withProvider]
            if let accessToken = oauth.accessToken, use != .reauthenticate {
                steps.append(.microsoftGraph(accessToken: accessToken))
            }
            return TeachingContext(steps: steps, selected: 1)
        }
    }

    /// A provider's custom parameters, the ones Microsoft documents first, then the rest by name.
    private static func teachingParameters(_ parameters: [String: String]) -> [TeachingParameter] {
        let known = ["tenant", "prompt", "login_hint"]
        let order = { (name: String) in known.firstIndex(of: name) ?? known.count }
        return parameters.sorted { (order($0.key), $0.key) < (order($1.key), $1.key) }
            .map { TeachingParameter(name: $0.key, value: $0.value) }
    }
}
