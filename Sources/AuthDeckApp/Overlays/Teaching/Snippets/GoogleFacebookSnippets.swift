/// Google and Facebook: the provider's own SDK signs the user in, and Firebase takes its token as
/// a credential. The next step says what the credential was for.
enum GoogleFacebookSnippets {
    static let snippets: [TeachingStep.Kind: SnippetSet] = [
        .googleCredential: SnippetSet(
            title: "Google: the credential from Google Sign-In's ID token",
            swift: #"""
                import GoogleSignIn

                let signIn = try await GIDSignIn.sharedInstance.signIn(withPresenting: viewController)
                guard let idToken = signIn.user.idToken?.tokenString else { return }
                // This run's account: {email}
                let credential = GoogleAuthProvider.credential(
                    withIDToken: idToken, accessToken: signIn.user.accessToken.tokenString)
                """#,
            kotlin: #"""
                // response: Credential Manager's answer to a GetGoogleIdOption request
                val google = GoogleIdTokenCredential.createFrom(response.credential.data)
                // This run's account: {email}
                val credential = GoogleAuthProvider.getCredential(google.idToken, null)
                """#,
            javascript: #"""
                import { GoogleAuthProvider } from "firebase/auth";

                // response: Google Identity Services' answer; response.credential is the ID token
                // This run's account: {email}
                const credential = GoogleAuthProvider.credential(response.credential);
                """#,
            cpp: #"""
                // id_token: from Google Sign-In on the platform (this run's account: {email})
                firebase::auth::Credential credential =
                    firebase::auth::GoogleAuthProvider::GetCredential(id_token.c_str(), nullptr);
                """#),

        .facebookCredential: SnippetSet(
            title: "Facebook: the credential from the Facebook SDK's access token",
            swift: #"""
                import FacebookLogin

                // After LoginManager().logIn(permissions: [{scopes}], from: viewController)
                guard let token = AccessToken.current?.tokenString else { return }
                let credential = FacebookAuthProvider.credential(withAccessToken: token)
                """#,
            kotlin: #"""
                // loginResult: LoginManager's onSuccess, after logIn with permissions listOf({scopes})
                val credential = FacebookAuthProvider.getCredential(loginResult.accessToken.token)
                """#,
            javascript: #"""
                import { FacebookAuthProvider } from "firebase/auth";

                // response: FB.login's answer, asked with scope: [{scopes}].join(",")
                const credential = FacebookAuthProvider.credential(response.authResponse.accessToken);
                """#,
            cpp: #"""
                // access_token: from the Facebook SDK's login with permissions {{scopes}}
                firebase::auth::Credential credential =
                    firebase::auth::FacebookAuthProvider::GetCredential(access_token.c_str());
                """#),
    ]
}
