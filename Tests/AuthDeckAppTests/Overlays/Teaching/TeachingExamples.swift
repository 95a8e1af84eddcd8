@testable import AuthDeckApp

/// One step of every kind with a run's values, as the console would make them.
enum TeachingExamples {
    static let nonce = "9f2c4e1ab37d58e6c0a9b4f1d2e3c4b5a69788f7e6d5c4b3a2918071625344f5"
    static let nonceSHA256 = "4c1d2d7b9f0e3a5c8b6d1e2f3a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d"
    static let idToken = "eyJhbGciOiJSUzI1NiIsImtpZCI6IjEifQ.eyJzdWIiOiIxMjM0In0.c2lnbmF0dXJl"

    static let steps: [TeachingStep] = [
        .anonymousSignIn,
        .upgradeWithPassword(email: "ada@example.com"),
        .upgradeWithProvider(providerID: "github.com"),
        .upgradeWithPhone(phoneNumber: "+15555550100", verificationID: "AM5PThBq1xV0kK2zL9rT", code: "123456"),
        .createAccount(email: "ada@example.com"),
        .signInWithPassword(email: "ada@example.com"),
        .sendEmailVerification(email: "ada@example.com"),
        .sendPasswordReset(email: "ada@example.com"),
        .confirmPasswordReset(oobCode: "kXz2Qm9VbN4tYp7LwR1sDe"),
        .sendSignInLink(email: "grace@example.com", continueURL: "https://authdeck.example/finish"),
        .signInWithEmailLink(email: "grace@example.com"),
        .upgradeWithEmailLink(email: "grace@example.com"),
        .appleNonce(nonce: nonce),
        .appleNonceHash(nonce: nonce, sha256: nonceSHA256),
        .appleCredential(nonce: nonce),
        .appleFullName(givenName: "Ada", familyName: "Lovelace"),
        .microsoftProvider(tenant: "contoso.onmicrosoft.com", prompt: "consent", loginHint: "ada@contoso.com",
                           scopes: ["User.Read", "Mail.Read"]),
        .microsoftGraph(accessToken: idToken),
        .googleSignIn(email: "ada@gmail.com"),
        .facebookSignIn(scopes: ["email", "public_profile"]),
        .phoneSendCode(phoneNumber: "+15555550100"),
        .phoneSignIn(verificationID: "AM5PThBq1xV0kK2zL9rT", code: "123456"),
        .linkProvider(providerID: "google.com"),
        .unlinkProvider(providerID: "facebook.com"),
        .linkConflictCredential(providerID: "google.com"),
        .linkConflictSignIn(providerID: "google.com", uid: "Vq3kT9sLx2"),
        .linkConflictMerge(guestUID: "Gx7pA1nB4c", uid: "Vq3kT9sLx2"),
        .smsEnrollmentSendCode(phoneNumber: "+15555550101"),
        .smsEnrollmentFinish(displayName: "Work phone", verificationID: "AM5PThBq1xV0kK2zL9rT", code: "654321"),
        .totpSecret(email: "ada@example.com"),
        .totpQRCode(accountName: "ada@example.com", issuer: "AuthDeck"),
        .totpEnrollmentFinish(displayName: "Authenticator", code: "246810"),
        .secondFactorResolver(email: "ada@example.com", hints: ["Work phone", "Authenticator"]),
        .secondFactorSendCode(displayName: "Work phone", phoneHint: "+1******0101"),
        .secondFactorResolvePhone(verificationID: "AM5PThBq1xV0kK2zL9rT", code: "135790"),
        .secondFactorResolveTOTP(displayName: "Authenticator", code: "975310"),
        .reauthenticateWithPassword(email: "ada@example.com"),
        .reauthenticateWithProvider(providerID: "microsoft.com"),
        .verifyBeforeUpdateEmail(newEmail: "ada.lovelace@example.com"),
        .updateEmail(newEmail: "ada.lovelace@example.com"),
        .updatePassword(email: "ada@example.com"),
        .deleteAccount(uid: "Vq3kT9sLx2"),
        .signOut(uid: "Vq3kT9sLx2"),
        .reload(uid: "Vq3kT9sLx2"),
    ]
}
