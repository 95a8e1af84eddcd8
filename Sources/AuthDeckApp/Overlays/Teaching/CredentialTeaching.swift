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
        case .oauth: provider(credential, then: nil, request: request, in: input)
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
            return provider(credential, then: guest ? .upgradeWithProvider(providerID: credential.provider)
                                                    : .linkProvider(providerID: credential.provider), request: request, in: input)
        }
    }

    static func reauthenticate(_ credential: AuthCredential, request: ProviderRequest = ProviderRequest(), in input: TeachingInput) -> TeachingContext? {
        if case let .password(email, _) = credential { return TeachingContext(.reauthenticateWithPassword(email: email)) }
        return provider(credential, then: .reauthenticateWithProvider(providerID: credential.provider), request: request, in: input)
    }

    /// A federated credential's steps before the call (`then`, or the provider's own sign-in):
    /// Apple's nonce and its hash, Microsoft's provider with its parameters, the Graph call after.
    static func provider(_ credential: AuthCredential, then final: TeachingStep?, request: ProviderRequest, in input: TeachingInput) -> TeachingContext? {
        guard case let .oauth(oauth) = credential else { return final.map { TeachingContext($0) } }
        let provider = request.provider
        var steps: [TeachingStep]
        var main: Int
        switch oauth.providerID {
        case "apple.com":
            let nonce = oauth.rawNonce ?? input.lastAuthorization?.rawNonce ?? ""
            steps = [.appleNonce(nonce: nonce), .appleNonceHash(nonce: nonce, sha256: input.lastAuthorization?.hashedNonce ?? ""),
                     .appleCredential(nonce: nonce)]
            main = 2
            if let name = oauth.fullName {
                steps.append(.appleFullName(givenName: name.givenName ?? "", familyName: name.familyName ?? ""))
            }
        case "microsoft.com":
            let parameters = provider?.customParameters ?? [:]
            steps = [.microsoftProvider(tenant: parameters["tenant"] ?? "common", prompt: parameters["prompt"] ?? "",
                                        loginHint: parameters["login_hint"] ?? "", scopes: provider?.scopes ?? []),
                     .microsoftGraph(accessToken: oauth.accessToken ?? "")]
            main = 0
        case "google.com":
            steps = [.googleSignIn(email: request.identityEmail ?? "")]
            main = 0
        case "facebook.com":
            steps = [.facebookSignIn(scopes: provider?.scopes ?? [])]
            main = 0
        default:
            // Another provider has no sign-in of its own here: only the step it was for.
            steps = []
            main = 0
        }
        if let final {
            steps.append(final)
            main = steps.count - 1
        }
        return steps.isEmpty ? nil : TeachingContext(steps: steps, selected: main)
    }
}
