extension SDKIdentifiers {
    /// The Android SDK's sources are not public: its names were checked against the Kotlin code of
    /// firebase/quickstart-android (auth, Firebase BoM 34.18.0) and firebase/snippets-android
    /// (auth, BoM 34.14.1), and the rest against the firebase.google.com Kotlin reference.
    static let kotlin = IdentifierList(
        source: "firebase-auth from Firebase Android BoM 34.18.0 (quickstart-android, snippets-android, Kotlin reference)",
        firebase: [
            "EmailAuthProvider", "FacebookAuthProvider", "Firebase", "FirebaseAuthMultiFactorException",
            "FirebaseAuthRecentLoginRequiredException", "FirebaseAuthUserCollisionException", "GoogleAuthProvider",
            "OAuthCredential", "OAuthProvider", "PhoneAuthOptions", "PhoneAuthProvider", "PhoneMultiFactorGenerator",
            "PhoneMultiFactorInfo", "TotpMultiFactorGenerator", "addCustomParameters", "auth", "build",
            "confirmPasswordReset", "createUserWithEmailAndPassword", "credential", "currentUser", "delete",
            "displayName", "enroll", "factorId", "generateQrCodeUrl", "generateSecret", "getAssertion",
            "getAssertionForEnrollment", "getAssertionForSignIn", "getCredential", "getCredentialWithLink", "hints",
            "isSignInWithEmailLink", "linkWithCredential", "multiFactor", "newBuilder", "newCredentialBuilder",
            "openInOtpApp", "reauthenticate", "reload", "resolveSignIn", "sendEmailVerification",
            "sendPasswordResetEmail", "sendSignInLinkToEmail", "session", "setActivity", "setCallbacks",
            "setIdTokenWithRawNonce", "setMultiFactorHint", "setScopes", "setMultiFactorSession", "setPhoneNumber", "setTimeout",
            "signInAnonymously", "signInWithCredential", "signInWithEmailAndPassword", "signInWithEmailLink",
            "signOut", "startActivityForLinkWithProvider", "startActivityForReauthenticateWithProvider",
            "startActivityForSignInWithProvider", "tenantId", "uid", "unlink", "updateEmail", "updatePassword", "updateProfile",
            "updatedCredential", "user", "verifyBeforeUpdateEmail", "verifyPhoneNumber",
        ],
        platformSource: "Kotlin standard library; Java SE (java.net, java.security, java.util.concurrent); Play services Tasks; "
            + "Credential Manager with googleid (GoogleIdTokenCredential); Facebook Android SDK (LoginResult, AccessToken)",
        platform: [
            "GoogleIdTokenCredential", "accessToken", "createFrom", "data", "idToken", "token",
            "ByteArray", "HttpURLConnection", "MessageDigest", "SECONDS", "SecureRandom", "TimeUnit", "URL",
            "addOnFailureListener", "addOnSuccessListener", "also", "bufferedReader", "continueWithTask", "format",
            "getInstance", "inputStream", "joinToString", "listOf", "map", "nextBytes", "openConnection", "readText",
            "result", "setRequestProperty", "toByteArray",
        ],
        app: appCart)
}
