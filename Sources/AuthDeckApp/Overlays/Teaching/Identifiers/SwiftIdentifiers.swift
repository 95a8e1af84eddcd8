extension SDKIdentifiers {
    static let swift = IdentifierList(
        source: "firebase-ios-sdk 12.19.0 (FirebaseAuth), public declarations in FirebaseAuth/Sources/Swift",
        firebase: [
            "ActionCodeSettings", "Auth", "AuthCredential", "commitChanges", "createProfileChangeRequest", "AuthErrorCode", "AuthErrors", "EmailAuthProvider",
            "FacebookAuthProvider", "GoogleAuthProvider", "MultiFactorResolver", "OAuthCredential", "OAuthProvider",
            "PhoneAuthProvider", "PhoneMultiFactorGenerator", "PhoneMultiFactorInfo", "TOTPMultiFactorGenerator",
            "appleCredential", "assertionForEnrollment", "assertionForSignIn", "auth",
            "confirmPasswordReset", "createUser", "credential", "credentialAlreadyInUse", "currentUser",
            "customParameters", "delete", "displayName", "email", "enroll", "factorID", "generateQRCodeURL",
            "generateSecret", "handleCodeInApp", "hints", "isSignIn", "link", "multiFactor", "openInOTPApp",
            "provider", "rawValue", "reauthenticate", "reload", "resolveSignIn", "scopes", "secondFactorRequired",
            "sendEmailVerification", "sendPasswordReset", "sendSignInLink", "session", "signIn", "signInAnonymously",
            "signOut", "tenantID", "uid", "unlink", "updateEmail", "updatePassword", "url", "user",
            "userInfoMultiFactorResolverKey", "userInfoUpdatedCredentialKey", "verifyPasswordResetCode",
            "verifyPhoneNumber",
        ],
        platformSource: "Swift standard library; Apple SDK: Foundation, Security, CryptoKit, AuthenticationServices; "
            + "Google Sign-In for iOS 9 (GoogleSignIn); Facebook iOS SDK 18 (FacebookLogin)",
        platform: [
            "ASAuthorizationController", "AccessToken", "AuthenticationServices", "FacebookLogin", "GIDSignIn", "GoogleSignIn",
            "Security", "accessToken", "current", "delegate", "performRequests", "presentationContextProvider", "sharedInstance",
            "tokenString",
            "ASAuthorizationAppleIDCredential", "ASAuthorizationAppleIDProvider", "CryptoKit", "Data", "NSError",
            "SHA256", "SecRandomCopyBytes", "String", "UInt8", "URL", "URLRequest", "URLSession", "UserDefaults",
            "code", "count", "createRequest", "data", "fullName", "hash", "identityToken", "joined", "map", "nonce",
            "requestedScopes", "set", "setValue", "shared", "standard", "userInfo", "utf8",
        ],
        app: appCart)
}
