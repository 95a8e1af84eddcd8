/// Microsoft: the generic OAuth provider with Azure AD's tenant and prompt, then Microsoft Graph
/// called with the access token the sign-in returned.
enum MicrosoftSnippets {
    static let snippets: [TeachingStep.Kind: SnippetSet] = [
        .microsoftProvider: SnippetSet(
            title: "Microsoft: the provider with tenant, prompt, login hint and scopes",
            swift: #"""
                let provider = OAuthProvider(providerID: "microsoft.com")
                provider.customParameters = [
                  "tenant": "{tenant}",
                  "prompt": "{prompt}",
                  "login_hint": "{loginHint}",
                ]
                provider.scopes = [{scopes}]
                let result = try await Auth.auth().signIn(with: provider, uiDelegate: nil)
                """#,
            kotlin: #"""
                val provider = OAuthProvider.newBuilder("microsoft.com")
                provider.addCustomParameter("tenant", "{tenant}")
                provider.addCustomParameter("prompt", "{prompt}")
                provider.addCustomParameter("login_hint", "{loginHint}")
                provider.scopes = listOf({scopes})
                Firebase.auth.startActivityForSignInWithProvider(activity, provider.build())
                    .addOnSuccessListener { result -> val user = result.user!! }
                """#,
            javascript: #"""
                import { OAuthProvider, getAuth, signInWithPopup } from "firebase/auth";

                const auth = getAuth();
                const provider = new OAuthProvider("microsoft.com");
                provider.setCustomParameters({
                  tenant: "{tenant}",
                  prompt: "{prompt}",
                  login_hint: "{loginHint}",
                });
                [{scopes}].forEach((scope) => provider.addScope(scope));
                const result = await signInWithPopup(auth, provider);
                """#,
            cpp: #"""
                firebase::auth::FederatedOAuthProviderData data(
                    "microsoft.com", {{scopes}},
                    {{"tenant", "{tenant}"},
                     {"prompt", "{prompt}"},
                     {"login_hint", "{loginHint}"}});
                firebase::auth::FederatedOAuthProvider provider(data);
                auth->SignInWithProvider(&provider);
                """#),

        .microsoftGraph: SnippetSet(
            title: "Microsoft: call Graph with the access token",
            swift: #"""
                let oauth = result.credential as! OAuthCredential
                var request = URLRequest(url: URL(string: "https://graph.microsoft.com/v1.0/me")!)
                // The token is a secret: "{accessToken}" shown shortened
                request.setValue("Bearer \(oauth.accessToken!)", forHTTPHeaderField: "Authorization")
                let (data, _) = try await URLSession.shared.data(for: request)
                """#,
            kotlin: #"""
                val oauth = result.credential as OAuthCredential
                val connection = URL("https://graph.microsoft.com/v1.0/me")
                    .openConnection() as HttpURLConnection
                // The token is a secret: "{accessToken}" shown shortened
                connection.setRequestProperty("Authorization", "Bearer ${oauth.accessToken}")
                val body = connection.inputStream.bufferedReader().readText()
                """#,
            javascript: #"""
                import { OAuthProvider } from "firebase/auth";

                const { accessToken } = OAuthProvider.credentialFromResult(result);
                // The token is a secret: "{accessToken}" shown shortened
                const response = await fetch("https://graph.microsoft.com/v1.0/me", {
                  headers: { "Authorization": `Bearer ${accessToken}` },
                });
                const me = await response.json();
                """#,
            cpp: .unavailable(#"""
                // The C++ SDK's Credential does not expose the provider's access
                // token: call Graph from the Apple, Android or web layer.
                """#)),
    ]
}
