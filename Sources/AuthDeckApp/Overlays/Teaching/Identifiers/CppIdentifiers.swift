extension SDKIdentifiers {
    static let cpp = IdentifierList(
        source: "firebase-cpp-sdk 13.11.0, auth/src/include/firebase/auth.h, auth/{user,credential,types}.h and "
            + "app/src/include/firebase/future.h",
        firebase: [
            "Auth", "CreateUserWithEmailAndPassword", "Credential", "Delete", "EmailAuthProvider",
            "FacebookAuthProvider", "FederatedOAuthProvider", "FederatedOAuthProviderData", "GetAuth", "GetCredential",
            "GetInstance", "GoogleAuthProvider", "LinkWithCredential", "LinkWithProvider", "OAuthProvider",
            "OnCompletion", "PhoneAuthCredential", "PhoneAuthOptions", "PhoneAuthProvider", "Reauthenticate",
            "ReauthenticateWithProvider", "Reload", "SendEmailVerification", "SendEmailVerificationBeforeUpdatingEmail",
            "SendPasswordResetEmail", "SignInAndRetrieveDataWithCredential", "SignInAnonymously", "SignInWithCredential",
            "SignInWithEmailAndPassword", "SignInWithProvider", "SignOut", "Unlink", "UpdatePassword",
            "UpdateUserProfile", "User", "UserProfile", "VerifyPhoneNumber", "auth", "current_user", "display_name",
            "error", "kAuthErrorCredentialAlreadyInUse", "kAuthErrorNone", "kAuthErrorWrongPassword", "phone_number",
            "result", "uid", "user",
        ],
        platformSource: "C++ standard library",
        platform: ["c_str", "random_device", "string", "uniform_int_distribution", "vector"],
        app: appCart)
}
