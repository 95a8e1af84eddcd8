/// Sign in with Apple: Apple signs the SHA-256 of a nonce into its ID token, and Firebase checks
/// the raw nonce against it, so a stolen ID token cannot be replayed.
enum AppleSnippets {
    static let snippets: [TeachingStep.Kind: SnippetSet] = [
        .appleNonce: SnippetSet(
            title: "Apple: generate a nonce",
            swift: #"""
                // A fresh random nonce per sign-in, kept until Apple answers
                var bytes = [UInt8](repeating: 0, count: 32)
                guard SecRandomCopyBytes(kSecRandomDefault, bytes.count, &bytes) == errSecSuccess else { return }
                let nonce = bytes.map { String(format: "%02x", $0) }.joined()
                // This run: "{nonce}"
                """#,
            kotlin: #"""
                // A fresh random nonce per sign-in, kept until Apple answers
                val bytes = ByteArray(32).also { SecureRandom().nextBytes(it) }
                val nonce = bytes.joinToString("") { "%02x".format(it) }
                // This run: "{nonce}"
                """#,
            javascript: #"""
                // A fresh random nonce per sign-in, kept until Apple answers
                const bytes = crypto.getRandomValues(new Uint8Array(32));
                const nonce = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
                // This run: "{nonce}"
                """#,
            cpp: #"""
                // A fresh random nonce per sign-in, kept until Apple answers
                std::random_device entropy;
                std::uniform_int_distribution<int> digit(0, 15);
                std::string nonce;
                for (int i = 0; i < 64; ++i) nonce += "0123456789abcdef"[digit(entropy)];
                // This run: "{nonce}"
                """#),

        .appleNonceHash: SnippetSet(
            title: "Apple: the nonce's SHA-256 goes in the request",
            swift: #"""
                import CryptoKit

                let digest = SHA256.hash(data: Data("{nonce}".utf8))
                let nonceSHA256 = digest.map { String(format: "%02x", $0) }.joined()
                // "{nonceSHA256}": Apple gets the hash, Firebase later the raw nonce
                let request = ASAuthorizationAppleIDProvider().createRequest()
                request.requestedScopes = [.fullName, .email]
                request.nonce = nonceSHA256
                """#,
            kotlin: #"""
                val digest = MessageDigest.getInstance("SHA-256").digest("{nonce}".toByteArray())
                val nonceSHA256 = digest.joinToString("") { "%02x".format(it) }
                // "{nonceSHA256}": Apple gets the hash (the nonce parameter
                // of its authorize URL), Firebase later the raw nonce
                """#,
            javascript: #"""
                const data = new TextEncoder().encode("{nonce}");
                const digest = await crypto.subtle.digest("SHA-256", data);
                const nonceSHA256 = Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
                // "{nonceSHA256}": Apple gets the hash (AppleID.auth.init's
                // nonce), Firebase later the raw nonce
                """#,
            cpp: #"""
                // Hash with the platform's crypto (CommonCrypto, OpenSSL, ...):
                // SHA-256("{nonce}") as lowercase hex is
                // "{nonceSHA256}": Apple gets the hash, Firebase later the raw nonce
                """#),

        .appleCredential: SnippetSet(
            title: "Apple: the credential with the ID token and raw nonce",
            swift: #"""
                // In authorizationController(controller:didCompleteWithAuthorization:)
                let appleID = authorization.credential as! ASAuthorizationAppleIDCredential
                let idToken = String(data: appleID.identityToken!, encoding: .utf8)!
                let credential = OAuthProvider.credential(
                    providerID: .apple, idToken: idToken, rawNonce: "{nonce}")
                let result = try await Auth.auth().signIn(with: credential)
                """#,
            kotlin: #"""
                // idToken: Apple's ID token, whose nonce claim is the raw nonce's SHA-256
                val credential = OAuthProvider.newCredentialBuilder("apple.com")
                    .setIdTokenWithRawNonce(idToken, "{nonce}")
                    .build()
                Firebase.auth.signInWithCredential(credential)
                    .addOnSuccessListener { result -> val user = result.user!! }
                """#,
            javascript: #"""
                import { OAuthProvider, getAuth, signInWithCredential } from "firebase/auth";

                const auth = getAuth();
                // idToken: Apple's ID token, whose nonce claim is the raw nonce's SHA-256
                const provider = new OAuthProvider("apple.com");
                const credential = provider.credential({ idToken, rawNonce: "{nonce}" });
                const { user } = await signInWithCredential(auth, credential);
                """#,
            cpp: #"""
                // id_token: Apple's ID token, whose nonce claim is the raw nonce's SHA-256
                firebase::auth::Credential credential =
                    firebase::auth::OAuthProvider::GetCredential(
                        "apple.com", id_token.c_str(), "{nonce}", nullptr);
                auth->SignInAndRetrieveDataWithCredential(credential);
                """#),

        .appleFullName: SnippetSet(
            title: "Apple: the name, sent on the first sign-in only",
            swift: #"""
                // Apple sends the name once: pass it with the credential
                // ("{givenName}" "{familyName}"), or it is gone
                let credential = OAuthProvider.appleCredential(
                    withIDToken: idToken, rawNonce: nonce, fullName: appleID.fullName)
                let result = try await Auth.auth().signIn(with: credential)
                """#,
            kotlin: #"""
                // Apple sends the name once, on the first sign-in: keep it
                val profile = userProfileChangeRequest { displayName = "{givenName} {familyName}" }
                Firebase.auth.currentUser!!.updateProfile(profile)
                """#,
            javascript: #"""
                import { getAuth, updateProfile } from "firebase/auth";

                const auth = getAuth();
                // Apple sends the name once, on the first sign-in: keep it
                await updateProfile(auth.currentUser, { displayName: "{givenName} {familyName}" });
                """#,
            cpp: #"""
                // Apple sends the name once, on the first sign-in: keep it
                firebase::auth::User::UserProfile profile;
                profile.display_name = "{givenName} {familyName}";
                auth->current_user().UpdateUserProfile(profile);
                """#),
    ]
}
