/// Sign in with Apple: Apple signs the SHA-256 of a nonce into its ID token, and Firebase checks
/// the raw nonce against it, so a stolen ID token cannot be replayed.
enum AppleSnippets {
    static let snippets: [TeachingStep.Kind: SnippetSet] = [
        .appleNonce: SnippetSet(
            title: "Apple: generate a nonce",
            swift: #"""
                import Security

                // A fresh random nonce per sign-in, kept until Apple answers: 32 random bytes as hex
                var bytes = [UInt8](repeating: 0, count: 32)
                guard SecRandomCopyBytes(kSecRandomDefault, bytes.count, &bytes) == errSecSuccess else { return }
                let nonce = bytes.map { String(format: "%02x", $0) }.joined()
                // This run's nonce: "{nonce}"
                """#,
            kotlin: #"""
                // A fresh random nonce per sign-in, kept until Apple answers: 32 random bytes as hex
                val bytes = ByteArray(32).also { SecureRandom().nextBytes(it) }
                val nonce = bytes.joinToString("") { "%02x".format(it) }
                // This run's nonce: "{nonce}"
                """#,
            javascript: #"""
                // A fresh random nonce per sign-in, kept until Apple answers: 32 random bytes as hex
                const bytes = crypto.getRandomValues(new Uint8Array(32));
                const nonce = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
                // This run's nonce: "{nonce}"
                """#,
            cpp: #"""
                // A fresh random nonce per sign-in, kept until Apple answers: 32 random bytes as hex
                std::random_device entropy;
                std::uniform_int_distribution<int> digit(0, 15);
                std::string nonce;
                for (int i = 0; i < 64; ++i) nonce += "0123456789abcdef"[digit(entropy)];
                // This run's nonce: "{nonce}"
                """#),

        .appleNonceHash: SnippetSet(
            title: "Apple: the nonce's SHA-256 goes in the request",
            swift: #"""
                import AuthenticationServices
                import CryptoKit

                // nonce: the raw nonce of the step before, "{nonce}"
                let digest = SHA256.hash(data: Data(nonce.utf8))
                let nonceSHA256 = digest.map { String(format: "%02x", $0) }.joined()
                // This run's hash: "{nonceSHA256}"; Apple gets the hash, Firebase later the raw nonce
                let request = ASAuthorizationAppleIDProvider().createRequest()
                request.requestedScopes = [.fullName, .email]
                request.nonce = nonceSHA256
                let controller = ASAuthorizationController(authorizationRequests: [request])
                controller.delegate = self
                controller.presentationContextProvider = self
                controller.performRequests()
                """#,
            kotlin: #"""
                // nonce: the raw nonce of the step before, "{nonce}"
                val digest = MessageDigest.getInstance("SHA-256").digest(nonce.toByteArray())
                val nonceSHA256 = digest.joinToString("") { "%02x".format(it) }
                // This run's hash: "{nonceSHA256}"
                // Apple gets the hash (the nonce parameter of its authorize URL), Firebase later the raw nonce
                """#,
            javascript: #"""
                // nonce: the raw nonce of the step before, "{nonce}"
                const data = new TextEncoder().encode(nonce);
                const digest = await crypto.subtle.digest("SHA-256", data);
                const nonceSHA256 = Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
                // This run's hash: "{nonceSHA256}"
                // Apple gets the hash (AppleID.auth.init's nonce), Firebase later the raw nonce
                """#,
            cpp: .unavailable(#"""
                // The C++ SDK has no hash: take SHA-256 of the raw nonce "{nonce}"
                // with the platform's crypto (CommonCrypto, OpenSSL, ...), as lowercase hex.
                // This run's hash: "{nonceSHA256}"; Apple gets the hash, Firebase later the raw nonce.
                """#)),

        .appleCredential: SnippetSet(
            title: "Apple: the credential from Apple's ID token and the raw nonce",
            swift: #"""
                // In authorizationController(controller:didCompleteWithAuthorization:)
                guard let appleIDCredential = authorization.credential as? ASAuthorizationAppleIDCredential,
                      let tokenData = appleIDCredential.identityToken,
                      let idToken = String(data: tokenData, encoding: .utf8) else { return }
                // nonce: the raw nonce, "{nonce}"
                let credential = OAuthProvider.appleCredential(
                    withIDToken: idToken, rawNonce: nonce, fullName: appleIDCredential.fullName)
                """#,
            kotlin: #"""
                // idToken: Apple's ID token, whose nonce claim is the raw nonce's SHA-256
                // nonce: the raw nonce, "{nonce}"
                val credential = OAuthProvider.newCredentialBuilder("apple.com")
                    .setIdTokenWithRawNonce(idToken, nonce)
                    .build()
                """#,
            javascript: #"""
                import { OAuthProvider } from "firebase/auth";

                // idToken: Apple's ID token (AppleID.auth.signIn's authorization.id_token)
                // nonce: the raw nonce, "{nonce}"
                const provider = new OAuthProvider("apple.com");
                const credential = provider.credential({ idToken, rawNonce: nonce });
                """#,
            cpp: #"""
                // id_token: Apple's ID token, whose nonce claim is the raw nonce's SHA-256
                // nonce: the raw nonce, "{nonce}"
                firebase::auth::Credential credential =
                    firebase::auth::OAuthProvider::GetCredential(
                        "apple.com", id_token.c_str(), nonce.c_str(), nullptr);
                """#),

        .appleFullName: SnippetSet(
            title: "Apple: the name, sent on the first sign-in only",
            swift: #"""
                // Apple sends the name once; appleCredential(withIDToken:rawNonce:fullName:)
                // passed it on. To set it yourself (this run: "{givenName}" "{familyName}"):
                let change = result.user.createProfileChangeRequest()
                change.displayName = "{givenName} {familyName}"
                try await change.commitChanges()
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
