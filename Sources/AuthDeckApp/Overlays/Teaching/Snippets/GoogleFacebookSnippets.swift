/// Google and Facebook: the provider's own SDK signs the user in, Firebase takes its token.
enum GoogleFacebookSnippets {
    static let snippets: [TeachingStep.Kind: SnippetSet] = [
        .googleSignIn: SnippetSet(
            title: "Google: sign in with Google's ID token",
            swift: #"""
                // idToken, accessToken: from the Google Sign-In SDK ({email})
                let credential = GoogleAuthProvider.credential(
                    withIDToken: idToken, accessToken: accessToken)
                let result = try await Auth.auth().signIn(with: credential)
                """#,
            kotlin: #"""
                // idToken: from Credential Manager's GoogleIdTokenCredential ({email})
                val credential = GoogleAuthProvider.getCredential(idToken, null)
                Firebase.auth.signInWithCredential(credential)
                    .addOnSuccessListener { result -> val user = result.user!! }
                """#,
            javascript: #"""
                import { GoogleAuthProvider, getAuth, signInWithPopup } from "firebase/auth";

                const auth = getAuth();
                const provider = new GoogleAuthProvider();
                provider.setCustomParameters({ login_hint: "{email}" });
                const result = await signInWithPopup(auth, provider);
                """#,
            cpp: #"""
                // id_token: from Google Sign-In on the platform ({email})
                firebase::auth::Credential credential =
                    firebase::auth::GoogleAuthProvider::GetCredential(id_token.c_str(), nullptr);
                auth->SignInAndRetrieveDataWithCredential(credential);
                """#),

        .facebookSignIn: SnippetSet(
            title: "Facebook: sign in with Facebook's access token",
            swift: #"""
                // token: from the Facebook SDK's login with permissions [{scopes}]
                let credential = FacebookAuthProvider.credential(withAccessToken: token)
                let result = try await Auth.auth().signIn(with: credential)
                """#,
            kotlin: #"""
                // token: from the Facebook SDK's login with permissions [{scopes}]
                val credential = FacebookAuthProvider.getCredential(token)
                Firebase.auth.signInWithCredential(credential)
                    .addOnSuccessListener { result -> val user = result.user!! }
                """#,
            javascript: #"""
                import { FacebookAuthProvider, getAuth, signInWithPopup } from "firebase/auth";

                const auth = getAuth();
                const provider = new FacebookAuthProvider();
                [{scopes}].forEach((scope) => provider.addScope(scope));
                const result = await signInWithPopup(auth, provider);
                """#,
            cpp: #"""
                // access_token: from the Facebook SDK's login with permissions {{scopes}}
                firebase::auth::Credential credential =
                    firebase::auth::FacebookAuthProvider::GetCredential(access_token.c_str());
                auth->SignInAndRetrieveDataWithCredential(credential);
                """#),
    ]
}
