/// The teaching pane's step before any: the sign-in method selected.
extension SignInMethodsFeature {
    var teachingPreview: TeachingStep? {
        guard SignInMethod.allCases.indices.contains(selection) else { return nil }
        switch SignInMethod.allCases[selection] {
        case .anonymous: return .anonymousSignIn
        case .emailPassword: return .signInWithPassword(email: "")
        case .createAccount: return .createAccount(email: "")
        case .apple: return .appleNonce(nonce: "")
        case .microsoft: return .microsoftProvider(parameters: [], scopes: [])
        case .google: return .googleCredential(email: "")
        case .facebook: return .facebookCredential(scopes: [])
        case .phone: return .phoneSendCode(phoneNumber: "")
        case .resetPassword: return .sendPasswordReset(email: "")
        case .emailLink: return .sendSignInLink(email: "", continueURL: TeachingContext.continueURL)
        }
    }
}
