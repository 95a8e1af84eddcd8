extension SDKIdentifiers {
    static let javascript = IdentifierList(
        source: "firebase-js-sdk @firebase/auth 1.13.5 (firebase/auth), common/api-review/auth.api.md and the members "
            + "BaseOAuthProvider and FederatedAuthProvider give their public subclasses (packages/auth/src/core/providers)",
        firebase: [
            "EmailAuthProvider", "FacebookAuthProvider", "GoogleAuthProvider", "OAuthProvider", "PhoneAuthProvider",
            "PhoneMultiFactorGenerator", "RecaptchaVerifier", "TotpMultiFactorGenerator", "addScope",
            "assertionForEnrollment", "assertionForSignIn", "code", "confirm", "confirmPasswordReset",
            "createUserWithEmailAndPassword", "credentialFromError", "credentialFromResult", "credentialWithLink",
            "currentUser", "deleteUser", "displayName", "enroll", "factorId", "generateQrCodeUrl", "generateSecret",
            "getAuth", "getMultiFactorResolver", "getSession", "hints", "isSignInWithEmailLink", "linkWithCredential",
            "linkWithPopup", "multiFactor", "reauthenticateWithCredential", "reauthenticateWithPopup", "reload",
            "resolveSignIn", "sendEmailVerification", "sendPasswordResetEmail", "sendSignInLinkToEmail", "session",
            "setCustomParameters", "signInAnonymously", "signInWithCredential", "signInWithEmailAndPassword",
            "signInWithEmailLink", "signInWithPhoneNumber", "signInWithPopup", "signOut", "tenantId", "uid", "unlink",
            "updateEmail", "updatePassword", "updateProfile", "verifyBeforeUpdateEmail", "verifyPasswordResetCode",
            "verifyPhoneNumber",
        ],
        platformSource: "ECMAScript; the web platform: DOM (window), Web Crypto, Encoding, Fetch; the Facebook JS SDK's "
            + "login response (authResponse)",
        platform: [
            "Authorization", "accessToken", "authResponse",
            "Array", "TextEncoder", "Uint8Array", "encode", "fetch", "forEach", "getRandomValues", "href", "join",
            "json", "localStorage", "location", "map", "padStart", "setItem", "subtle", "toString",
        ],
        app: appCart)
}
