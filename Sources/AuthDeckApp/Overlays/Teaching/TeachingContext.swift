import AuthClient

/// What the teaching pane shows: the steps of the last thing the user did, with this run's values,
/// and the one in front of them. An Apple sign-in is several steps (the nonce, its SHA-256, the
/// credential, the name); most things are one.
public struct TeachingContext: Equatable, Sendable {
    var steps: [TeachingStep]
    var selected: Int

    init(steps: [TeachingStep], selected: Int? = nil) {
        self.steps = steps
        self.selected = min(max(selected ?? steps.count - 1, 0), max(steps.count - 1, 0))
    }

    init(_ step: TeachingStep) {
        self.init(steps: [step])
    }

    var step: TeachingStep { steps[selected] }

    /// The email link's `continueURL`: AuthDeck sends none, so the code shows the app's own page.
    static let continueURL = "https://authdeck.example/finish-sign-in"
}

extension TeachingStep.Kind {
    /// The Identity Toolkit method the step calls, as the inspector's path ends; nil when the step
    /// runs on the device alone (a nonce, a QR code) or calls another service (Microsoft Graph).
    var endpoint: String? {
        switch self {
        // Linking a password to a guest is a sign-up carrying the guest's ID token.
        case .anonymousSignIn, .createAccount, .upgradeWithPassword: "accounts:signUp"
        case .unlinkProvider, .updateEmail, .updatePassword: "accounts:update"
        case .upgradeWithProvider, .signInWithCredential, .signInWithProvider, .linkWithProvider, .linkProvider,
             .linkConflictCredential, .reauthenticateWithCredential, .reauthenticateWithProvider:
            "accounts:signInWithIdp"
        case .upgradeWithPhone, .phoneSignIn: "accounts:signInWithPhoneNumber"
        case .signInWithPassword, .reauthenticateWithPassword: "accounts:signInWithPassword"
        case .sendEmailVerification, .sendPasswordReset, .sendSignInLink, .verifyBeforeUpdateEmail: "accounts:sendOobCode"
        case .confirmPasswordReset: "accounts:resetPassword"
        case .signInWithEmailLink, .upgradeWithEmailLink: "accounts:signInWithEmailLink"
        case .phoneSendCode: "accounts:sendVerificationCode"
        case .smsEnrollmentSendCode, .totpSecret: "mfaEnrollment:start"
        case .smsEnrollmentFinish, .totpEnrollmentFinish: "mfaEnrollment:finalize"
        // The first factor's answer, which carried the pending credential and the hints.
        case .secondFactorResolver: "accounts:signIn"
        case .secondFactorSendCode: "mfaSignIn:start"
        case .secondFactorResolvePhone, .secondFactorResolveTOTP: "mfaSignIn:finalize"
        case .deleteAccount: "accounts:delete"
        case .reload: "accounts:lookup"
        // The credential and the provider are made on the device; the merge's sign-in was the inspection's.
        case .appleNonce, .appleNonceHash, .appleCredential, .appleFullName, .googleCredential, .facebookCredential,
             .microsoftProvider, .microsoftGraph, .linkConflictMerge, .totpQRCode, .signOut: nil
        // A setting of the client: the calls after it carry the tenant.
        case .selectTenant: nil
        }
    }
}

extension TeachingStep {
    /// The wire exchange the step caused, as one line: the inspector's latest call to its method.
    func exchangeLine(in exchanges: [BackendExchange]) -> String {
        // The code sets the name on the user; this run's consent screen sent it with the sign-in.
        if kind == .appleFullName { return "Backend: updateProfile → accounts:update; this run sent it with signInWithIdp." }
        guard let endpoint = kind.endpoint else { return "Backend: no Firebase Auth call in this step." }
        guard let exchange = exchanges.last(where: { $0.path.contains(endpoint) }) else { return "Backend: no \(endpoint) call seen yet." }
        // The path without its query (the API key) and host, so that the line fits 80 columns.
        var parts = (exchange.path.split(separator: "?").first ?? "").split(separator: "/")
        if parts.count > 1, parts[0].contains(".") { parts.removeFirst() }
        let path = "/" + parts.joined(separator: "/")
        return "Backend: \(exchange.method) \(path) → \(exchange.isFailure ? "unreachable" : String(exchange.status))"
    }
}
