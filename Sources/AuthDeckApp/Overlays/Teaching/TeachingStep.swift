/// A step of a flow the console offers, with this run's values: what the teaching pane shows
/// the SDK code for. Secrets never travel in a step: passwords are not values at all, and codes
/// and tokens are kept only in their shortened form (`TeachingValue.hidden`, `.shortened`).
enum TeachingStep: Hashable, Sendable {
    // Anonymous sign-in, and upgrading the guest by linking a permanent credential.
    case anonymousSignIn
    case upgradeWithPassword(email: String)
    /// The guest links a provider's credential (Apple, Google, Facebook) made in the steps before.
    case upgradeWithProvider(providerID: String)
    case upgradeWithPhone(phoneNumber: String, verificationID: String, code: String)

    // Email and password.
    case createAccount(email: String)
    case signInWithPassword(email: String)
    case sendEmailVerification(email: String)
    case sendPasswordReset(email: String)
    case confirmPasswordReset(oobCode: String)

    // Email link.
    case sendSignInLink(email: String, continueURL: String)
    case signInWithEmailLink(email: String)
    case upgradeWithEmailLink(email: String)

    // Sign in with Apple: the credential, then what it is for (a sign-in, a link, a reauthentication).
    case appleNonce(nonce: String)
    case appleNonceHash(nonce: String, sha256: String)
    case appleCredential(nonce: String)
    case appleFullName(givenName: String, familyName: String)

    // Microsoft: the provider with this run's parameters, what it is for, then Graph.
    case microsoftProvider(parameters: [TeachingParameter], scopes: [String])
    case microsoftGraph(accessToken: String)

    // Google and Facebook: the credential from the provider's own SDK.
    case googleCredential(email: String)
    case facebookCredential(scopes: [String])

    // What a provider's credential or provider object is used for.
    case signInWithCredential(providerID: String)
    case signInWithProvider(providerID: String)
    case linkWithProvider(providerID: String)

    // Phone.
    case phoneSendCode(phoneNumber: String)
    case phoneSignIn(verificationID: String, code: String)

    // Linking, unlinking and the link conflict.
    /// A signed-in member links a provider's credential made in the steps before.
    case linkProvider(providerID: String)
    case unlinkProvider(providerID: String)
    case linkConflictCredential(providerID: String)
    case linkConflictMerge(guestUID: String, uid: String)

    // Second factors: SMS and TOTP enrolment, and the challenge at sign-in.
    case smsEnrollmentSendCode(phoneNumber: String)
    case smsEnrollmentFinish(displayName: String, verificationID: String, code: String)
    case totpSecret(email: String)
    case totpQRCode(accountName: String, issuer: String)
    case totpEnrollmentFinish(displayName: String, code: String)
    case secondFactorResolver(email: String, hints: [String])
    case secondFactorSendCode(displayName: String, phoneHint: String)
    case secondFactorResolvePhone(verificationID: String, code: String)
    case secondFactorResolveTOTP(displayName: String, code: String)

    // The signed-in account.
    case reauthenticateWithPassword(email: String)
    case reauthenticateWithCredential(providerID: String)
    case reauthenticateWithProvider(providerID: String)
    case verifyBeforeUpdateEmail(newEmail: String)
    case updateEmail(newEmail: String)
    case updatePassword(email: String)
    case deleteAccount(uid: String)
    case signOut(uid: String)
    case reload(uid: String)

    /// Identity Platform: the tenant the client signs in to, set before anything else.
    case selectTenant(tenantID: String)

    /// The step without its values: what the catalogue keys snippets by.
    enum Kind: CaseIterable, Sendable, Hashable {
        case anonymousSignIn, upgradeWithPassword, upgradeWithProvider, upgradeWithPhone
        case createAccount, signInWithPassword, sendEmailVerification, sendPasswordReset, confirmPasswordReset
        case sendSignInLink, signInWithEmailLink, upgradeWithEmailLink
        case appleNonce, appleNonceHash, appleCredential, appleFullName
        case microsoftProvider, microsoftGraph
        case googleCredential, facebookCredential
        case signInWithCredential, signInWithProvider, linkWithProvider
        case phoneSendCode, phoneSignIn
        case linkProvider, unlinkProvider, linkConflictCredential, linkConflictMerge
        case smsEnrollmentSendCode, smsEnrollmentFinish, totpSecret, totpQRCode, totpEnrollmentFinish
        case secondFactorResolver, secondFactorSendCode, secondFactorResolvePhone, secondFactorResolveTOTP
        case reauthenticateWithPassword, reauthenticateWithCredential, reauthenticateWithProvider, verifyBeforeUpdateEmail, updateEmail
        case updatePassword, deleteAccount, signOut, reload
        case selectTenant
    }

    var kind: Kind {
        switch self {
        case .anonymousSignIn: .anonymousSignIn
        case .upgradeWithPassword: .upgradeWithPassword
        case .upgradeWithProvider: .upgradeWithProvider
        case .upgradeWithPhone: .upgradeWithPhone
        case .createAccount: .createAccount
        case .signInWithPassword: .signInWithPassword
        case .sendEmailVerification: .sendEmailVerification
        case .sendPasswordReset: .sendPasswordReset
        case .confirmPasswordReset: .confirmPasswordReset
        case .sendSignInLink: .sendSignInLink
        case .signInWithEmailLink: .signInWithEmailLink
        case .upgradeWithEmailLink: .upgradeWithEmailLink
        case .appleNonce: .appleNonce
        case .appleNonceHash: .appleNonceHash
        case .appleCredential: .appleCredential
        case .appleFullName: .appleFullName
        case .microsoftProvider: .microsoftProvider
        case .microsoftGraph: .microsoftGraph
        case .googleCredential: .googleCredential
        case .facebookCredential: .facebookCredential
        case .signInWithCredential: .signInWithCredential
        case .signInWithProvider: .signInWithProvider
        case .linkWithProvider: .linkWithProvider
        case .phoneSendCode: .phoneSendCode
        case .phoneSignIn: .phoneSignIn
        case .linkProvider: .linkProvider
        case .unlinkProvider: .unlinkProvider
        case .linkConflictCredential: .linkConflictCredential
        case .linkConflictMerge: .linkConflictMerge
        case .smsEnrollmentSendCode: .smsEnrollmentSendCode
        case .smsEnrollmentFinish: .smsEnrollmentFinish
        case .totpSecret: .totpSecret
        case .totpQRCode: .totpQRCode
        case .totpEnrollmentFinish: .totpEnrollmentFinish
        case .secondFactorResolver: .secondFactorResolver
        case .secondFactorSendCode: .secondFactorSendCode
        case .secondFactorResolvePhone: .secondFactorResolvePhone
        case .secondFactorResolveTOTP: .secondFactorResolveTOTP
        case .reauthenticateWithPassword: .reauthenticateWithPassword
        case .reauthenticateWithCredential: .reauthenticateWithCredential
        case .reauthenticateWithProvider: .reauthenticateWithProvider
        case .verifyBeforeUpdateEmail: .verifyBeforeUpdateEmail
        case .updateEmail: .updateEmail
        case .updatePassword: .updatePassword
        case .deleteAccount: .deleteAccount
        case .signOut: .signOut
        case .reload: .reload
        case .selectTenant: .selectTenant
        }
    }

    /// The values the snippets' placeholders name, as shown: codes hidden, tokens shortened.
    var values: [String: TeachingValue] {
        switch self {
        case .anonymousSignIn:
            [:]
        case .upgradeWithPassword(let email), .createAccount(let email), .signInWithPassword(let email),
             .sendEmailVerification(let email), .sendPasswordReset(let email), .signInWithEmailLink(let email),
             .upgradeWithEmailLink(let email), .googleCredential(let email), .totpSecret(let email),
             .reauthenticateWithPassword(let email), .updatePassword(let email):
            ["email": .text(email)]
        case .upgradeWithProvider(let providerID), .linkProvider(let providerID), .unlinkProvider(let providerID),
             .linkConflictCredential(let providerID), .reauthenticateWithProvider(let providerID),
             .reauthenticateWithCredential(let providerID), .signInWithCredential(let providerID),
             .signInWithProvider(let providerID), .linkWithProvider(let providerID):
            ["providerID": .text(providerID)]
        case .upgradeWithPhone(let phoneNumber, let verificationID, let code):
            ["phoneNumber": .text(phoneNumber), "verificationID": .shortened(verificationID), "code": .hidden(code)]
        case .confirmPasswordReset(let oobCode):
            ["oobCode": .shortened(oobCode)]
        case .sendSignInLink(let email, let continueURL):
            ["email": .text(email), "continueURL": .text(continueURL)]
        case .appleNonce(let nonce), .appleCredential(let nonce):
            ["nonce": .text(nonce)]
        case .appleNonceHash(let nonce, let sha256):
            ["nonce": .text(nonce), "nonceSHA256": .text(sha256)]
        case .appleFullName(let givenName, let familyName):
            ["givenName": .text(givenName), "familyName": .text(familyName)]
        case .microsoftProvider(let parameters, let scopes):
            ["parameters": .parameters(parameters), "scopes": .list(scopes)]
        case .microsoftGraph(let accessToken):
            ["accessToken": .shortened(accessToken)]
        case .facebookCredential(let scopes):
            ["scopes": .list(scopes)]
        case .phoneSendCode(let phoneNumber), .smsEnrollmentSendCode(let phoneNumber):
            ["phoneNumber": .text(phoneNumber)]
        case .phoneSignIn(let verificationID, let code), .secondFactorResolvePhone(let verificationID, let code):
            ["verificationID": .shortened(verificationID), "code": .hidden(code)]
        case .linkConflictMerge(let guestUID, let uid):
            ["guestUID": .text(guestUID), "uid": .text(uid)]
        case .smsEnrollmentFinish(let displayName, let verificationID, let code):
            ["displayName": .text(displayName), "verificationID": .shortened(verificationID), "code": .hidden(code)]
        case .totpQRCode(let accountName, let issuer):
            ["accountName": .text(accountName), "issuer": .text(issuer)]
        case .totpEnrollmentFinish(let displayName, let code), .secondFactorResolveTOTP(let displayName, let code):
            ["displayName": .text(displayName), "code": .hidden(code)]
        case .secondFactorResolver(let email, let hints):
            ["email": .text(email), "hints": .list(hints)]
        case .secondFactorSendCode(let displayName, let phoneHint):
            ["displayName": .text(displayName), "phoneHint": .text(phoneHint)]
        case .verifyBeforeUpdateEmail(let newEmail), .updateEmail(let newEmail):
            ["newEmail": .text(newEmail)]
        case .deleteAccount(let uid), .signOut(let uid), .reload(let uid):
            ["uid": .text(uid)]
        case .selectTenant(let tenantID):
            ["tenantID": .text(tenantID)]
        }
    }
}

/// A run's value as a snippet shows it.
enum TeachingValue: Hashable, Sendable {
    /// Shown as typed or received (an email, a provider id, a nonce).
    case text(String)
    /// Several values, each a string literal, comma-separated (scopes, hints).
    case list([String])
    /// Named values, as the platform's own map literal (a provider's custom parameters).
    case parameters([TeachingParameter])
    /// A token or verification id: its start and length, enough to tell two apart, never to use one.
    case shortened(String)
    /// A one-time code: only its length.
    case hidden(String)

    /// The value as it fills a placeholder on `platform`: the inside of a string literal, or for a
    /// list the quoted literals themselves.
    func filling(for platform: SDKPlatform) -> String {
        switch self {
        case .text(let text): platform.escapedLiteral(text)
        case .list(let items): items.map { "\"\(platform.escapedLiteral($0))\"" }.joined(separator: ", ")
        case .parameters(let parameters): platform.mapLiteral(parameters.map {
            ("\"\(platform.escapedLiteral($0.name))\"", "\"\(platform.escapedLiteral($0.value))\"")
        })
        case .shortened(let secret): platform.escapedLiteral(Self.shorten(secret))
        case .hidden(let secret): "•••(\(secret.count))"
        }
    }

    /// Nothing yet: the screen in front of the user has not given it.
    var isEmpty: Bool {
        switch self {
        case .text(let text), .shortened(let text), .hidden(let text): text.isEmpty
        case .list(let items): items.isEmpty
        case .parameters(let parameters): parameters.isEmpty
        }
    }

    /// `eyJhbGciOi…(812)`, the inspector's form of a shortened secret.
    static func shorten(_ secret: String, keep: Int = 10) -> String {
        secret.count > keep ? String(secret.prefix(keep)) + "…(\(secret.count))" : "…(\(secret.count))"
    }
}

/// A provider's custom parameter as the run set it (`tenant`, `prompt`, `login_hint`, ...).
struct TeachingParameter: Hashable, Sendable {
    var name: String
    var value: String
}
